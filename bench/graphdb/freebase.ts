/**
 * Reader for the real Freebase film subset (cayley's 30kmoviedata.nq.gz): IRIs and blank nodes both become
 * dataset nodes (the loaders give them request-scoped blank labels, then uids, as Dgraph's live loader).
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Dataset } from "./dataset.ts";
import { Prng } from "./prng.ts";
import { QuadSet } from "./quads.ts";

export const FREEBASE_FILE = "/work/shared/data/30kmoviedata.nq.gz";

const STARRING = "/film/film/starring";
const ACTOR = "/film/performance/actor";
const DIRECTED_BY = "/film/film/directed_by";

export const FREEBASE_SCHEMA = `<name>: string @index(term, exact) .
<type>: [uid] .
<${STARRING}>: [uid] @count .
<${DIRECTED_BY}>: [uid] @reverse .
<${ACTOR}>: [uid] @reverse .
</film/performance/character>: string .
`;

function unescapeLiteral(body: string): string {
  if (!body.includes("\\")) return body;
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, e: string) => {
    switch (e[0]) {
      case "u":
      case "U":
        return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      default:
        return e;
    }
  });
}

/** Splits one N-Quad line into subject, predicate and object tokens (object keeps quotes and tags). */
function splitLine(line: string, lineNo: number): [string, string, string] {
  const sEnd = line.indexOf(" ");
  const pEnd = line.indexOf(" ", sEnd + 1);
  const dot = line.lastIndexOf(" .");
  if (sEnd < 0 || pEnd < 0 || dot < pEnd)
    throw new Error(`30kmoviedata line ${lineNo}: cannot parse: ${line}`);
  return [line.slice(0, sEnd), line.slice(sEnd + 1, pEnd), line.slice(pEnd + 1, dot).trim()];
}

export interface FreebaseOptions {
  /** Keep one film in `sampleEvery` (with its performances, people and their quads). */
  sampleEvery?: number;
  onProgress?: (done: number, total: number) => void;
}

export function readFreebase(options: FreebaseOptions = {}): Dataset {
  const text = gunzipSync(readFileSync(FREEBASE_FILE)).toString("utf8");
  const lines = text.split("\n");
  const quads = new QuadSet();
  const nodes = new Map<string, number>();
  const node = (tok: string) => {
    let id = nodes.get(tok);
    if (id === undefined) nodes.set(tok, (id = quads.newNode()));
    return id;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "" || line.startsWith("#")) continue;
    const [s, p, o] = splitLine(line, i + 1);
    if (!p.startsWith("<") || !p.endsWith(">"))
      throw new Error(`30kmoviedata line ${i + 1}: bad predicate ${p}`);
    const pred = p.slice(1, -1);
    if (o.startsWith('"')) {
      const close = o.lastIndexOf('"');
      const tail = o.slice(close + 1);
      const lang = tail.startsWith("@") ? tail.slice(1) : "";
      quads.value(node(s), pred, unescapeLiteral(o.slice(1, close)), lang);
    } else {
      quads.edge(node(s), pred, node(o));
    }
    if ((i & 0xffff) === 0) options.onProgress?.(i, lines.length);
  }
  options.onProgress?.(lines.length, lines.length);

  let set = quads;
  const filmType = nodes.get("</film/film>");
  const typePred = quads.predId("type");
  const films: number[] = [];
  for (let i = 0; i < quads.length; i++)
    if (quads.p[i] === typePred && quads.o[i] === filmType) films.push(quads.s[i]);

  if (options.sampleEvery && options.sampleEvery > 1) {
    const rng = new Prng(30_000);
    const keepFilm = new Set(films.filter(() => rng.int(options.sampleEvery!) === 0));
    const keep = new Set<number>(keepFilm);
    const starring = quads.predId(STARRING);
    const actor = quads.predId(ACTOR);
    const directedBy = quads.predId(DIRECTED_BY);
    // Two passes: film → performances and directors, then performance → actors.
    for (let i = 0; i < quads.length; i++) {
      if (!keepFilm.has(quads.s[i])) continue;
      if (quads.p[i] === starring || quads.p[i] === directedBy) keep.add(quads.o[i]);
    }
    for (let i = 0; i < quads.length; i++)
      if (quads.p[i] === actor && keep.has(quads.s[i])) keep.add(quads.o[i]);
    set = quads.subset((i) => keep.has(quads.s[i]));
    films.splice(0, films.length, ...films.filter((f) => keepFilm.has(f)));
  }

  const directedBy = set.predId(DIRECTED_BY);
  const directors = new Set<number>();
  for (let i = 0; i < set.length; i++) if (set.p[i] === directedBy) directors.add(set.o[i]);

  return {
    id: "freebase",
    title: "Freebase film subset (30kmoviedata.nq.gz)",
    quads: set,
    schema: FREEBASE_SCHEMA,
    optionalSchemaLines: [],
    vocab: {
      name: "name",
      nameLang: "",
      starring: STARRING,
      actor: ACTOR,
      directs: { pred: DIRECTED_BY, fromDirector: false },
    },
    films,
    directors: [...directors],
  };
}
