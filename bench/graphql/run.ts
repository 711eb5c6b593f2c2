/**
 * The generated GraphQL API against hand-written DQL, on the same data and server, over HTTP: the Freebase
 * film set (`/work/shared/data`) typed as Film, Performance, Actor and Director, with the GraphQL schema
 * mapping each field onto the data's own predicates (`@dgraph(pred:)`). Each question is asked both ways
 * with the same parameters; the table gives p50/p99 and q/s per query and the GraphQL/DQL ratio. The third
 * peer is PostgreSQL with PostGraphile 4 on the relational model of the same data (`postgraphile-peer.ts`),
 * asked the same questions through its generated GraphQL API.
 *
 *   npm run bench:graphql              # the whole film set
 *   npm run bench:graphql -- --quick   # one film in 8
 *   npm run bench:graphql -- --no-postgres   # without the PostGraphile peer
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createGraphDB, GraphQLService } from "../../graphdb/src/index.ts";
import { FREEBASE_SCHEMA, readFreebase } from "../graphdb/freebase.ts";
import { type ServerChild, startServerChild } from "../graphdb/http-client.ts";
import { type LatencyStats, measureInTurns } from "../graphdb/latency.ts";
import { pgUid } from "../graphdb/postgres.ts";
import { Prng } from "../graphdb/prng.ts";
import { nquadChunks, type QuadSet } from "../graphdb/quads.ts";
import { type GraphQLPeer, loadRelational, startPostGraphile } from "./postgraphile-peer.ts";

const STARRING = "/film/film/starring";
const ACTOR = "/film/performance/actor";
const DIRECTED_BY = "/film/film/directed_by";
const CHARACTER = "/film/performance/character";

const GRAPHQL_SCHEMA = `
type Film @dgraph(type: "Film") {
  id: ID!
  name: String @dgraph(pred: "name") @search(by: [term, exact])
  starring: [Performance] @dgraph(pred: "${STARRING}")
  directedBy: [Director] @dgraph(pred: "${DIRECTED_BY}")
}
type Performance @dgraph(type: "Performance") {
  id: ID!
  character: String @dgraph(pred: "${CHARACTER}")
  actor: [Actor] @dgraph(pred: "${ACTOR}")
}
type Actor @dgraph(type: "Actor") {
  id: ID!
  name: String @dgraph(pred: "name") @search(by: [term, exact])
  performances: [Performance] @dgraph(pred: "~${ACTOR}")
}
type Director @dgraph(type: "Director") {
  id: ID!
  name: String @dgraph(pred: "name") @search(by: [term, exact])
  films: [Film] @dgraph(pred: "~${DIRECTED_BY}")
}`;

const P = (pred: string) => `<${pred}>`;

/** `dgraph.type` quads: films, the performances they star, the actors of those, and directors. */
function typeQuads(q: QuadSet, films: number[], directors: number[]): string {
  const starring = q.predId(STARRING);
  const actor = q.predId(ACTOR);
  const lines: string[] = [];
  const seen = new Set<string>();
  const typed = (node: number, type: string) => {
    const key = `${node} ${type}`;
    if (seen.has(key)) return;
    seen.add(key);
    lines.push(`_:n${node} <dgraph.type> "${type}" .`);
  };
  for (const f of films) typed(f, "Film");
  for (const d of directors) typed(d, "Director");
  for (let i = 0; i < q.length; i++) {
    if (q.p[i] === starring) typed(q.o[i], "Performance");
    if (q.p[i] === actor) typed(q.o[i], "Actor");
  }
  return `\n${lines.join("\n")}\n`;
}

type GraphQLRequest = { query: string; variables: Record<string, unknown> };

interface Question {
  name: string;
  hops: number;
  graphql: (p: Params) => GraphQLRequest;
  dql: (p: Params) => string;
  /** The same question to PostGraphile (relation fields from the foreign keys, functions for terms). */
  postgraphile: (p: Params) => GraphQLRequest;
  /** Only the number of results is compared (a first-N page: the engines order by different ids). */
  countOnly?: boolean;
  /** Term search: PostgreSQL's parser splits `Love's` into love + s, Dgraph's term tokenizer keeps love's. */
  terms?: boolean;
}

interface Params {
  term: string;
  film: string;
  director: string;
  /** The same film and director in PostgreSQL (`pgUid`). */
  pgFilm: number;
  pgDirector: number;
}

const QUESTIONS: Question[] = [
  {
    name: "films by name terms, first 10",
    hops: 0,
    graphql: (p) => ({
      query: "query($t: String!) { queryFilm(filter: { name: { allofterms: $t } }, first: 10) { id name } }",
      variables: { t: p.term },
    }),
    dql: (p) =>
      `{ q(func: allofterms(name, ${JSON.stringify(p.term)}), first: 10) @filter(type(Film)) { id: uid name } }`,
    postgraphile: (p) => ({
      query: "query($t: String!) { filmsWithAllTerms(terms: $t, first: 10) { nodes { id name } } }",
      variables: { t: p.term },
    }),
    countOnly: true,
    terms: true,
  },
  {
    name: "count of films by a name term",
    hops: 0,
    graphql: (p) => ({
      query: "query($t: String!) { aggregateFilm(filter: { name: { anyofterms: $t } }) { count } }",
      variables: { t: p.term },
    }),
    dql: (p) => `{ q(func: anyofterms(name, ${JSON.stringify(p.term)})) @filter(type(Film)) { count(uid) } }`,
    postgraphile: (p) => ({
      query: "query($t: String!) { filmsWithAnyTerm(terms: $t) { totalCount } }",
      variables: { t: p.term },
    }),
    terms: true,
  },
  {
    name: "film → cast: characters and actors (2 hops)",
    hops: 2,
    graphql: (p) => ({
      query: "query($id: ID!) { getFilm(id: $id) { name starring { character actor { name } } } }",
      variables: { id: p.film },
    }),
    dql: (p) =>
      `{ q(func: uid(${p.film})) @filter(type(Film)) { name starring: ${P(STARRING)} { character: ${P(CHARACTER)} actor: ${P(ACTOR)} { name } } } }`,
    postgraphile: (p) => ({
      query:
        "query($id: Int!) { filmById(id: $id) { name performancesByFilmId { nodes { character actorByActorId { name } } } } }",
      variables: { id: p.pgFilm },
    }),
  },
  {
    name: "director → films → cast (3 hops)",
    hops: 3,
    graphql: (p) => ({
      query: "query($id: ID!) { getDirector(id: $id) { name films { name starring { actor { name } } } } }",
      variables: { id: p.director },
    }),
    dql: (p) =>
      `{ q(func: uid(${p.director})) @filter(type(Director)) { name films: <~${DIRECTED_BY}> { name starring: ${P(STARRING)} { actor: ${P(ACTOR)} { name } } } } }`,
    postgraphile: (p) => ({
      query:
        "query($id: Int!) { directorById(id: $id) { name filmDirectorsByDirectorId { nodes { filmByFilmId { name " +
        "performancesByFilmId { nodes { actorByActorId { name } } } } } } } }",
      variables: { id: p.pgDirector },
    }),
  },
];

/**
 * What is compared between the three answers: every non-null scalar of the response except ids, sorted (the
 * shapes differ: lists vs connections, `q` vs named fields; the values do not), or only how many there are.
 */
function answerOf(data: unknown, countOnly: boolean): string {
  const values: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (v === null || v === undefined || key === "id") return;
    if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
    else values.push(String(v));
  };
  walk(data, "");
  return countOnly ? `${values.length} results` : values.sort().join("|");
}

/** Parameter sets whose three answers are compared before timing. */
const CHECKED = 20;

function fmt(s: LatencyStats): string {
  return `${s.p50Ms.toFixed(2)} / ${s.p99Ms.toFixed(2)} ms, ${Math.round(s.opsPerSec)} q/s`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: "boolean" }, "no-postgres": { type: "boolean" } },
  });
  const quick = values.quick ?? false;
  const withPostgres = !(values["no-postgres"] ?? false);
  const ds = readFreebase({ sampleEvery: quick ? 8 : undefined });
  const dir = mkdtempSync(join(tmpdir(), "bench-graphql-"));
  let server: ServerChild | undefined;
  let postgraphile: GraphQLPeer | undefined;
  try {
    console.log(`loading ${ds.quads.length.toLocaleString("en")} Freebase quads (${ds.films.length} films)…`);
    const db = createGraphDB({ dir });
    await db.engine.alter({ schema: FREEBASE_SCHEMA });
    const res = await db.engine.bulkLoad(
      [...nquadChunks(ds.quads), typeQuads(ds.quads, ds.films, ds.directors)],
      {
        returnXids: true,
      },
    );
    const uidOf = new Map<string, string>();
    for (const [label, uid] of res.xids ?? []) uidOf.set(label, `0x${uid.toString(16)}`);
    await new GraphQLService(db.engine).updateSchema(0, GRAPHQL_SCHEMA);
    await db.close();
    server = await startServerChild(dir);
    if (withPostgres) {
      const t0 = performance.now();
      const rows = await loadRelational(ds);
      const counts = Object.entries(rows).map(([t, n]) => `${t} ${n.toLocaleString("en")}`);
      console.log(`PostgreSQL: ${counts.join(", ")} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      postgraphile = await startPostGraphile();
    }

    // Parameters: names of films (their terms), films with a cast, directors; the same for both ways.
    const q = ds.quads;
    const namePred = q.predId("name");
    const names = new Map<number, string>();
    for (let i = 0; i < q.length; i++)
      if (q.p[i] === namePred && q.o[i] < 0) names.set(q.s[i], q.litValue[-q.o[i] - 1]);
    const rng = new Prng(12);
    const uid = (node: number) => uidOf.get(`n${node}`) ?? "0x0";
    const params: Params[] = Array.from({ length: 2000 }, () => {
      const film = ds.films[rng.int(ds.films.length)];
      const director = ds.directors[rng.int(ds.directors.length)];
      const words = (names.get(film) ?? "film").split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w));
      return {
        term: words[0] ?? "film",
        film: uid(film),
        director: uid(director),
        pgFilm: pgUid(film),
        pgDirector: pgUid(director),
      };
    });

    const srv = server;
    const pgq = postgraphile;
    const ask = {
      graphql: (question: Question, p: Params) =>
        srv.post("/graphql", "application/json", JSON.stringify(question.graphql(p))),
      dql: (question: Question, p: Params) => srv.post("/query", "application/dql", question.dql(p)),
      postgraphile: (question: Question, p: Params) => {
        const r = question.postgraphile(p);
        return pgq!.query(r.query, r.variables);
      },
    };
    const rows: string[][] = [];
    const tokenizerDiffs: string[] = [];
    for (const question of QUESTIONS) {
      // The answers must be error-free and agree before anything is timed.
      const ways = pgq ? (["graphql", "dql", "postgraphile"] as const) : (["graphql", "dql"] as const);
      for (const p of params.slice(0, CHECKED)) {
        const answers: string[] = [];
        for (const way of ways) {
          const res = await ask[way](question, p);
          if (res.errors?.length) throw new Error(`${question.name} (${way}): ${JSON.stringify(res.errors)}`);
          answers.push(answerOf(res.data, question.countOnly ?? false));
        }
        const shown = () => answers.map((a, i) => `  ${ways[i]}: ${a.slice(0, 300)}`).join("\n");
        const differ = `${question.name}: the answers differ for ${JSON.stringify(p)}`;
        if (answers[1] !== answers[0]) throw new Error(`${differ}\n${shown()}`);
        if (answers[2] !== undefined && answers[2] !== answers[0]) {
          // Only the tokenizers may disagree, and only on term questions.
          if (!question.terms) throw new Error(`${differ}\n${shown()}`);
          tokenizerDiffs.push(`${question.name}, "${p.term}": ${answers.join(" / ")}`);
        }
      }
      // A long warm-up: the GraphQL path has many more functions for V8 to optimise than DQL's, and
      // timing it early compares a half-compiled server with a compiled one (its p50 fell from 0.68 to
      // 0.54 ms between a first and a second round of 4,000 requests).
      const options = {
        warmup: 3000,
        warmupMs: quick ? 1500 : 3000,
        iterations: 2000,
        budgetMs: quick ? 2000 : 6000,
        minIterations: 50,
      };
      // Each pair of ways takes turns, request by request, so neither runs on a warmer or quieter process
      // than the other. The pairs are timed apart: GraphQL against DQL first, then GraphQL against
      // PostGraphile, so a comparison between two servers never shares two cores with a third one.
      const turns = (pair: readonly (keyof typeof ask)[]) =>
        measureInTurns(
          pair.map((way) => (i: number) => ask[way](question, params[i % params.length])),
          options,
        );
      const [graphql, dql] = await turns(["graphql", "dql"]);
      const [graphqlBesidePg, pgStats] = pgq ? await turns(["graphql", "postgraphile"]) : [];
      const ratio = graphql.p50Ms / dql.p50Ms;
      const row = [
        question.name,
        fmt(graphql),
        fmt(dql),
        `${ratio.toFixed(2)}×`,
        ratio <= 1.3 ? "PASS" : "MISS",
      ];
      if (pgStats && graphqlBesidePg) {
        const vsPg = graphqlBesidePg.p50Ms / pgStats.p50Ms;
        row.push(
          fmt(graphqlBesidePg),
          fmt(pgStats),
          `${vsPg.toFixed(2)}×`,
          question.hops < 2 ? "—" : vsPg < 1 ? "PASS" : "MISS",
        );
      }
      rows.push(row);
    }
    const header = ["question", "GraphQL p50 / p99, q/s", "DQL p50 / p99, q/s", "GraphQL/DQL p50", "≤ 1.3×"];
    if (pgq)
      header.push(
        "GraphQL beside PostGraphile",
        "PostGraphile p50 / p99, q/s",
        "GraphQL/PostGraphile p50",
        "< 1× (≥ 2 hops)",
      );
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join(" | ");
    console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("-|-")}`);
    for (const r of rows) console.log(line(r));
    const peers = pgq ? "GraphQL and DQL on Trellis, and PostGraphile," : "GraphQL and DQL";
    console.log(
      `\nAnswers checked before timing: ${peers} agree on the first ${CHECKED} parameter sets of every question` +
        " (same non-id values, sorted; the first-10 page by its size)" +
        (tokenizerDiffs.length === 0
          ? "."
          : ", except where the tokenizers differ (GraphQL / DQL / PostGraphile):"),
    );
    for (const d of tokenizerDiffs)
      console.log(`  ${d} (PostgreSQL splits words at apostrophes: Love's → love, s)`);
    console.log(
      `One client, sequential requests over HTTP to one server child${pgq ? " each" : ""}; the same parameters every way.` +
        " GraphQL and DQL take turns request by request" +
        (pgq ? ", then (timed apart) GraphQL and PostGraphile" : "") +
        " (q/s: requests over the time spent in that way's requests).",
    );
  } finally {
    await server?.stop();
    await postgraphile?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
