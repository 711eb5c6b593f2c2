/** What a benchmark dataset offers the loaders and the query workloads. */
import type { QuadSet } from "./quads.ts";

export type DatasetId = "freebase" | "generated";

/** Predicate names (as in the data) the workloads use. */
export interface Vocabulary {
  name: string;
  /** Language of the names the queries read ("" when names carry no language tag). */
  nameLang: string;
  /** film → performance. */
  starring: string;
  /** performance → actor. */
  actor: string;
  /** Director ↔ film edge: `director.film` (director → film) or `directed_by` (film → director, read reversed). */
  directs: { pred: string; fromDirector: boolean };
  /** film → genre, when the data has genres. */
  genre?: string;
  /** film release date (datetime), when the data has dates. */
  releaseDate?: string;
}

export interface Dataset {
  id: DatasetId;
  title: string;
  quads: QuadSet;
  /** DQL schema for `alter`. */
  schema: string;
  /** Schema lines an engine may reject without the benchmark losing meaning (retried without them). */
  optionalSchemaLines: string[];
  vocab: Vocabulary;
  /** Node indexes of films and of directors (with at least one film). */
  films: number[];
  directors: number[];
}

/** node index → name (in vocab.nameLang), for picking query parameters. */
export function nameIndex(ds: Dataset): Map<number, string> {
  const q = ds.quads;
  const namePred = q.predId(ds.vocab.name);
  const out = new Map<number, string>();
  for (let i = 0; i < q.length; i++) {
    if (q.p[i] !== namePred || q.o[i] >= 0) continue;
    const lit = -q.o[i] - 1;
    if (q.litLang[lit] === ds.vocab.nameLang && !out.has(q.s[i])) out.set(q.s[i], q.litValue[lit]);
  }
  return out;
}
