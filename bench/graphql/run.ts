/**
 * The generated GraphQL API against hand-written DQL, on the same data and server, over HTTP: the Freebase
 * film set (`/work/shared/data`) typed as Film, Performance, Actor and Director, with the GraphQL schema
 * mapping each field onto the data's own predicates (`@dgraph(pred:)`). Each question is asked both ways
 * with the same parameters; the table gives p50/p99 and q/s per query and the GraphQL/DQL ratio.
 *
 *   npm run bench:graphql              # the whole film set
 *   npm run bench:graphql -- --quick   # one film in 8
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createGraphDB, GraphQLService } from "../../graphdb/src/index.ts";
import { FREEBASE_SCHEMA, readFreebase } from "../graphdb/freebase.ts";
import { type ServerChild, startServerChild } from "../graphdb/http-client.ts";
import { type LatencyStats, measure } from "../graphdb/latency.ts";
import { Prng } from "../graphdb/prng.ts";
import { nquadChunks, type QuadSet } from "../graphdb/quads.ts";

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
  const seen = new Set<number>();
  const typed = (node: number, type: string) => {
    if (seen.has(node * 4 + type.length)) return;
    seen.add(node * 4 + type.length);
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

interface Question {
  name: string;
  hops: number;
  graphql: (p: Params) => { query: string; variables: Record<string, unknown> };
  dql: (p: Params) => string;
}

interface Params {
  term: string;
  film: string;
  director: string;
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
  },
  {
    name: "count of films by a name term",
    hops: 0,
    graphql: (p) => ({
      query: "query($t: String!) { aggregateFilm(filter: { name: { anyofterms: $t } }) { count } }",
      variables: { t: p.term },
    }),
    dql: (p) => `{ q(func: anyofterms(name, ${JSON.stringify(p.term)})) @filter(type(Film)) { count(uid) } }`,
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
  },
];

function fmt(s: LatencyStats): string {
  return `${s.p50Ms.toFixed(2)} / ${s.p99Ms.toFixed(2)} ms, ${Math.round(s.opsPerSec)} q/s`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" } } });
  const quick = values.quick ?? false;
  const ds = readFreebase({ sampleEvery: quick ? 8 : undefined });
  const dir = mkdtempSync(join(tmpdir(), "bench-graphql-"));
  let server: ServerChild | undefined;
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
      const words = (names.get(film) ?? "film").split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w));
      return {
        term: words[0] ?? "film",
        film: uid(film),
        director: uid(ds.directors[rng.int(ds.directors.length)]),
      };
    });

    const srv = server;
    const rows: string[][] = [];
    for (const question of QUESTIONS) {
      // The two answers must agree before anything is timed.
      const g = await srv.post("/graphql", "application/json", JSON.stringify(question.graphql(params[0])));
      const d = await srv.post("/query", "application/dql", question.dql(params[0]));
      if (g.errors?.length || d.errors?.length) {
        throw new Error(`${question.name}: ${JSON.stringify(g.errors ?? d.errors)}`);
      }
      const options = { warmup: 50, iterations: 2000, budgetMs: quick ? 2000 : 6000, minIterations: 50 };
      const graphql = await measure(
        (i) =>
          srv.post(
            "/graphql",
            "application/json",
            JSON.stringify(question.graphql(params[i % params.length])),
          ),
        options,
      );
      const dql = await measure(
        (i) => srv.post("/query", "application/dql", question.dql(params[i % params.length])),
        options,
      );
      const ratio = graphql.p50Ms / dql.p50Ms;
      rows.push([
        question.name,
        fmt(graphql),
        fmt(dql),
        `${ratio.toFixed(2)}×`,
        ratio <= 1.3 ? "PASS" : "MISS",
      ]);
    }
    const header = ["question", "GraphQL p50 / p99, q/s", "DQL p50 / p99, q/s", "GraphQL/DQL p50", "≤ 1.3×"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join(" | ");
    console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("-|-")}`);
    for (const r of rows) console.log(line(r));
    console.log(
      "\nOne client, sequential requests over HTTP to one server child; the same parameters both ways.",
    );
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
