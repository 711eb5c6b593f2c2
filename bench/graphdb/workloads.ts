/**
 * The benchmark queries, each as DQL for Trellis and as the SQL a PostgreSQL user would write for the same
 * answer, with deterministic varied parameters and a per-result signature used to cross-check both engines.
 */
import { type Dataset, nameIndex } from "./dataset.ts";
import { Prng } from "./prng.ts";
import { dqlPred, dqlReverse } from "./quads.ts";

type Json = Record<string, unknown>;

/** One parameterised execution: DQL (given node → uid) and the SQL statement's values. */
export interface QueryCase {
  dql(uid: (node: number) => number): string;
  sqlValues: unknown[];
}

export interface Workload {
  id: string;
  label: string;
  /** Latency target (p50), from storage-perf.md §4. */
  targetP50Ms?: { ms: number; why: string };
  /** Known reason why the engines may legitimately disagree on some parameters. */
  mismatchHint?: string;
  /** SQL text (prepared once, one connection). */
  sql: string;
  cases(n: number): QueryCase[];
  /** Comparable signature of a Trellis result (the parsed `data` object)… */
  trellisSig(data: Json): string | number;
  /** …and of the PostgreSQL rows. */
  pgSig(rows: Json[]): string | number;
}

const list = (v: unknown, key: string): Json[] => {
  const x = (v as Json | undefined)?.[key];
  return Array.isArray(x) ? (x as Json[]) : [];
};
const hex = (uid: number) => `0x${uid.toString(16)}`;
const sqlLit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const dqlString = (s: string) => JSON.stringify(s);
/** Whitespace-separated words Dgraph's term tokenizer and PostgreSQL's 'simple' parser both see alike. */
const simpleWords = (name: string) => name.split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w));

export function workloads(ds: Dataset, seed: number): Workload[] {
  const v = ds.vocab;
  const lang = v.nameLang;
  const NAME = dqlPred(v.name) + (lang ? `@${lang}` : "");
  const STARRING = dqlPred(v.starring);
  const ACTOR = dqlPred(v.actor);
  const DIR_EDGE = v.directs.fromDirector ? dqlPred(v.directs.pred) : dqlReverse(v.directs.pred);
  const DIR_KEY = v.directs.fromDirector ? v.directs.pred : `~${v.directs.pred}`;
  const starringKey = v.starring;
  const actorKey = v.actor;
  const nameKey = v.name + (lang ? `@${lang}` : "");

  const pName = sqlLit(v.name);
  const pLang = sqlLit(lang);
  const pStarring = sqlLit(v.starring);
  const pActor = sqlLit(v.actor);
  const pDirects = sqlLit(v.directs.pred);
  // director → film join, both directions of storage
  const dirJoin = v.directs.fromDirector
    ? { on: (d: string) => `f.pred = ${pDirects} AND f.src = ${d}`, film: "f.dst" }
    : { on: (d: string) => `f.pred = ${pDirects} AND f.dst = ${d}`, film: "f.src" };

  const names = nameIndex(ds);
  const named = [...names.keys()];
  const directorsWithWords = ds.directors.filter((d) => simpleWords(names.get(d) ?? "").length > 0);
  const rngFor = (id: string) =>
    new Prng(seed ^ [...id].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));

  const out: Workload[] = [];

  out.push({
    id: "term",
    label: `term search: allofterms(${NAME}, 1–2 words)`,
    sql:
      `SELECT uid, val FROM node_values WHERE pred = ${pName} AND lang = ${pLang} ` +
      "AND to_tsvector('simple', val) @@ plainto_tsquery('simple', $1)",
    cases(n) {
      const rng = rngFor(this.id);
      const cases: QueryCase[] = [];
      while (cases.length < n) {
        const words = simpleWords(names.get(rng.pick(named)) ?? "");
        if (words.length === 0) continue;
        const a = rng.pick(words);
        const b = rng.pick(words);
        const terms = rng.chance(0.5) && a.toLowerCase() !== b.toLowerCase() ? `${a} ${b}` : a;
        cases.push({
          dql: () => `{ q(func: allofterms(${NAME}, ${dqlString(terms)})) { uid ${NAME} } }`,
          sqlValues: [terms],
        });
      }
      return cases;
    },
    trellisSig: (d) => list(d, "q").length,
    pgSig: (rows) => rows.length,
    mismatchHint:
      "tokenizers differ on apostrophes: PostgreSQL's parser splits Love's into love + s, Dgraph's term tokenizer keeps love's",
  });

  out.push({
    id: "director-by-name",
    label: v.genre
      ? "director by name → films + genres (Spielberg query)"
      : "director by name → films (Spielberg query)",
    targetP50Ms: { ms: 1, why: "Dgraph 1.14 ms by name (2017)" },
    sql:
      "SELECT d.uid AS director, d.val AS director_name, " +
      `${dirJoin.film} AS film, fn.val AS film_name` +
      (v.genre ? ", g.dst AS genre, gn.val AS genre_name " : " ") +
      "FROM node_values d " +
      `JOIN edges f ON ${dirJoin.on("d.uid")} ` +
      `LEFT JOIN node_values fn ON fn.uid = ${dirJoin.film} AND fn.pred = ${pName} AND fn.lang = ${pLang} ` +
      (v.genre
        ? `LEFT JOIN edges g ON g.pred = ${sqlLit(v.genre)} AND g.src = ${dirJoin.film} ` +
          `LEFT JOIN node_values gn ON gn.uid = g.dst AND gn.pred = ${pName} AND gn.lang = ${pLang} `
        : "") +
      `WHERE d.pred = ${pName} AND d.lang = ${pLang} AND to_tsvector('simple', d.val) @@ plainto_tsquery('simple', $1)`,
    cases(n) {
      const rng = rngFor(this.id);
      return Array.from({ length: n }, () => {
        const terms = simpleWords(names.get(rng.pick(directorsWithWords))!).join(" ");
        const inner = v.genre ? `${NAME} ${dqlPred(v.genre)} { ${NAME} }` : NAME;
        const filter = v.directs.fromDirector ? ` @filter(has(${dqlPred(v.directs.pred)}))` : "";
        return {
          dql: () =>
            `{ q(func: allofterms(${NAME}, ${dqlString(terms)}))${filter} { uid ${NAME} ${DIR_EDGE} { ${inner} } } }`,
          sqlValues: [terms],
        };
      });
    },
    trellisSig: (d) => list(d, "q").reduce((n, dir) => n + list(dir, DIR_KEY).length, 0),
    pgSig: (rows) => new Set(rows.map((r) => `${r.director}/${r.film}`)).size,
  });

  out.push({
    id: "two-hop",
    label: "director (uid) → films → performances → actors",
    targetP50Ms: { ms: 5, why: "2-hop fan-out ≤ 5 ms" },
    sql:
      `SELECT ${dirJoin.film} AS film, fn.val AS film_name, a.dst AS actor, an.val AS actor_name ` +
      "FROM edges f " +
      `JOIN edges s ON s.pred = ${pStarring} AND s.src = ${dirJoin.film} ` +
      `JOIN edges a ON a.pred = ${pActor} AND a.src = s.dst ` +
      `LEFT JOIN node_values fn ON fn.uid = ${dirJoin.film} AND fn.pred = ${pName} AND fn.lang = ${pLang} ` +
      `LEFT JOIN node_values an ON an.uid = a.dst AND an.pred = ${pName} AND an.lang = ${pLang} ` +
      `WHERE ${dirJoin.on("$1")}`,
    cases(n) {
      const rng = rngFor(this.id);
      return Array.from({ length: n }, () => {
        const d = rng.pick(ds.directors);
        return {
          dql: (uid) =>
            `{ q(func: uid(${hex(uid(d))})) { ${NAME} ${DIR_EDGE} { ${NAME} ${STARRING} { ${ACTOR} { uid ${NAME} } } } } }`,
          sqlValues: [d + 1],
        };
      });
    },
    trellisSig: (d) =>
      list(d, "q").reduce(
        (n, dir) =>
          n +
          list(dir, DIR_KEY).reduce(
            (m, film) => m + list(film, starringKey).reduce((k, perf) => k + list(perf, actorKey).length, 0),
            0,
          ),
        0,
      ),
    pgSig: (rows) => rows.length,
  });

  out.push({
    id: "count-starring",
    label: `count(${STARRING}) of 10 films`,
    sql: `SELECT src, count(*)::int AS n FROM edges WHERE pred = ${pStarring} AND src = ANY($1::bigint[]) GROUP BY src`,
    cases(n) {
      const rng = rngFor(this.id);
      return Array.from({ length: n }, () => {
        const films = Array.from({ length: 10 }, () => rng.pick(ds.films));
        return {
          dql: (uid) =>
            `{ q(func: uid(${films.map((f) => hex(uid(f))).join(", ")})) { uid n: count(${STARRING}) } }`,
          sqlValues: [[...new Set(films)].map((f) => f + 1)],
        };
      });
    },
    trellisSig: (d) => list(d, "q").reduce((n, f) => n + Number(f.n ?? 0), 0),
    pgSig: (rows) => rows.reduce((n, r) => n + Number(r.n), 0),
  });

  out.push({
    id: "count-uid",
    label: `count(uid) of has(${STARRING}) (no parameters)`,
    sql: `SELECT count(DISTINCT src)::int AS n FROM edges WHERE pred = ${pStarring}`,
    cases(n) {
      return Array.from({ length: n }, () => ({
        dql: () => `{ q(func: has(${STARRING})) { n: count(uid) } }`,
        sqlValues: [],
      }));
    },
    trellisSig: (d) => Number(list(d, "q")[0]?.n ?? -1),
    pgSig: (rows) => Number(rows[0]?.n ?? -1),
  });

  out.push({
    id: "has-order",
    label: `has(${STARRING}), orderasc: ${NAME}, first: 10, offset 0–990`,
    sql:
      `SELECT v.uid, v.val FROM node_values v WHERE v.pred = ${pName} AND v.lang = ${pLang} ` +
      `AND EXISTS (SELECT 1 FROM edges e WHERE e.pred = ${pStarring} AND e.src = v.uid) ` +
      `ORDER BY v.val COLLATE "C", v.uid LIMIT 10 OFFSET $1`,
    cases(n) {
      const rng = rngFor(this.id);
      return Array.from({ length: n }, () => {
        const offset = rng.int(100) * 10;
        return {
          dql: () =>
            `{ q(func: has(${STARRING}), orderasc: ${NAME}, first: 10, offset: ${offset}) { uid ${NAME} } }`,
          sqlValues: [offset],
        };
      });
    },
    trellisSig: (d) =>
      list(d, "q")
        .map((r) => r[nameKey])
        .join("|"),
    pgSig: (rows) => rows.map((r) => r.val).join("|"),
  });

  if (v.releaseDate) {
    const DATE = dqlPred(v.releaseDate);
    out.push({
      id: "year-range",
      label: `year range: ge(${DATE}, Y) and lt(${DATE}, Y+1…5)`,
      sql:
        "SELECT v.uid, n.val AS name, v.dval FROM node_values v " +
        `LEFT JOIN node_values n ON n.uid = v.uid AND n.pred = ${pName} AND n.lang = ${pLang} ` +
        `WHERE v.pred = ${sqlLit(v.releaseDate)} AND v.dval >= $1::date AND v.dval < $2::date`,
      cases(n) {
        const rng = rngFor(this.id);
        return Array.from({ length: n }, () => {
          const from = rng.range(1950, 2015);
          const to = from + rng.range(1, 5);
          return {
            dql: () =>
              `{ q(func: ge(${DATE}, "${from}")) @filter(lt(${DATE}, "${to}")) { uid ${NAME} ${DATE} } }`,
            sqlValues: [`${from}-01-01`, `${to}-01-01`],
          };
        });
      },
      trellisSig: (d) => list(d, "q").length,
      pgSig: (rows) => rows.length,
    });
  }
  return out;
}
