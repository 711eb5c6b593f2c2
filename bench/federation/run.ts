/**
 * Trellis as a subgraph behind an Apollo gateway, against a plain `@apollo/subgraph` in its place, in one run.
 *
 * A reference subgraph (`@apollo/subgraph`, Federation 2) owns astronauts; Trellis owns missions and extends
 * Astronaut with them (reference §7.2). Through a gateway (`@apollo/gateway`, IntrospectAndCompose), the
 * query asks the reference for ten astronauts, then Trellis's `_entities` for their missions. The same
 * query then goes through a second gateway where a plain `@apollo/subgraph` serves the same types from
 * memory instead of Trellis. Every server is a child process on loopback; one client asks one request at a
 * time, the paths taking turns. The target: Trellis adds at most 20% to the gateway's p50.
 * The `_entities` request each side gets is also timed alone, straight to the subgraph.
 *
 *   npm run bench:federation                            # 60 s of timed requests
 *   npm run bench:federation -- --quick                 # 6 s
 *   npm run bench:federation -- --cpu-prof .profiles    # the Trellis child writes a V8 CPU profile there
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { requestJson, spawnServerChild, stopChild } from "../graphdb/http-client.ts";
import { type LatencyStats, summarize } from "../graphdb/latency.ts";
import { Prng } from "../graphdb/prng.ts";
import { fmtInt, fmtMs, renderTable } from "../graphdb/table.ts";
import { type MissionsDataset, missionsDataset } from "./missions-dataset.ts";
import { ENTITIES_QUERY, JOIN_QUERY, TRELLIS_SCHEMA } from "./subgraph-schemas.ts";

/** Astronauts asked for per query (the representations in each `_entities` call). */
const IDS_PER_QUERY = 10;
/** Parameter sets whose answers are compared between the two gateways before timing. */
const CHECKED = 20;
/** Ratio of gateway p50s (Trellis side / plain side) the target allows. */
const TARGET_RATIO = 1.2;
/** Rows per seeding mutation. */
const SEED_BATCH = 250;

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

interface Child {
  process: ChildProcess;
  port: number;
}

/** A loopback GraphQL endpoint: POSTs an operation, throws on GraphQL errors. */
class Endpoint {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(
    readonly label: string,
    readonly port: number,
    private readonly path: string,
  ) {}

  async post(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer> {
    const body = JSON.stringify({ query, variables });
    const answer = await requestJson<GraphQLAnswer>(
      this.agent,
      this.port,
      "POST",
      this.path,
      "application/json",
      body,
    );
    if (answer.errors?.length) throw new Error(`${this.label}: ${answer.errors[0].message}`);
    return answer;
  }

  close(): void {
    this.agent.destroy();
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

async function spawn(script: string, args: string[], label: string, nodeArgs = ""): Promise<Child> {
  // spawnServerChild adds BENCH_SERVER_NODE_ARGS to the child's Node flags, read before it first awaits:
  // set for this child only.
  const saved = process.env.BENCH_SERVER_NODE_ARGS;
  process.env.BENCH_SERVER_NODE_ARGS = `${saved ?? ""} ${nodeArgs}`.trim();
  const started = spawnServerChild(here(script), args, label);
  if (saved === undefined) delete process.env.BENCH_SERVER_NODE_ARGS;
  else process.env.BENCH_SERVER_NODE_ARGS = saved;
  const { child, port } = await started;
  return { process: child, port };
}

/** The subgraph fetches a gateway child timed since the last ask (`gateway-child.ts`), per subgraph. */
function gatewayFetches(gateway: Child): Promise<Record<string, number[]>> {
  const { stdin, stdout } = gateway.process;
  if (!stdin || !stdout) throw new Error("the gateway child has no stdin or stdout pipe");
  return new Promise((resolve) => {
    let buf = "";
    const onData = (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      const line = /\{"fetches":.*\}\n/.exec(buf);
      if (!line) return;
      stdout.off("data", onData);
      resolve((JSON.parse(line[0]) as { fetches: Record<string, number[]> }).fetches);
    };
    stdout.on("data", onData);
    stdin.write("fetches\n");
  });
}

/** Trellis's schema, then the spec's flow: the reference's astronauts added by id, then the missions. */
async function seedTrellis(trellisPort: number, ds: MissionsDataset): Promise<void> {
  const agent = new Agent({ keepAlive: true });
  try {
    const schema = await requestJson<GraphQLAnswer>(
      agent,
      trellisPort,
      "POST",
      "/admin/schema",
      "application/graphql",
      TRELLIS_SCHEMA,
    );
    if (schema.errors?.length) throw new Error(`Trellis refused the schema: ${schema.errors[0].message}`);
    const trellis = new Endpoint("Trellis", trellisPort, "/graphql");
    for (let i = 0; i < ds.astronauts.length; i += SEED_BATCH) {
      await trellis.post("mutation($in: [AddAstronautInput!]!) { addAstronaut(input: $in) { numUids } }", {
        in: ds.astronauts.slice(i, i + SEED_BATCH),
      });
    }
    for (let i = 0; i < ds.missions.length; i += SEED_BATCH) {
      const missions = ds.missions.slice(i, i + SEED_BATCH).map((m) => ({
        designation: m.designation,
        crew: m.crew.map((id) => ({ id })),
      }));
      await trellis.post("mutation($in: [AddMissionInput!]!) { addMission(input: $in) { numUids } }", {
        in: missions,
      });
    }
    trellis.close();
  } finally {
    agent.destroy();
  }
}

/** An answer to JOIN_QUERY (or the `_entities` list) as comparable text: ids, names, sorted designations. */
function answerOf(list: unknown): string {
  return JSON.stringify(
    (list as { id?: string; name?: string; missions?: { designation: string }[] | null }[]).map((a) => [
      a.id,
      a.name,
      a.missions?.map((m) => m.designation).sort() ?? null,
    ]),
  );
}

interface Way {
  name: string;
  op: (i: number) => Promise<unknown>;
}

/**
 * Times the ways interleaved, one request of each in turn (the first of the turn rotating), so that drift
 * on a shared machine falls on every way alike: `warmup` requests of each untimed, then turns until
 * `budgetMs` is spent (`afterWarmup` runs in between). Throughput is one client's: requests over the time spent in them.
 */
async function timeInterleaved(
  ways: Way[],
  budgetMs: number,
  warmup: number,
  afterWarmup: () => Promise<unknown>,
): Promise<LatencyStats[]> {
  const durations = ways.map(() => [] as number[]);
  const next = ways.map(() => 0);
  for (const [w, way] of ways.entries()) for (let n = 0; n < warmup; n++) await way.op(next[w]++);
  await afterWarmup();
  const start = performance.now();
  for (let turn = 0; performance.now() - start < budgetMs; turn++) {
    for (let k = 0; k < ways.length; k++) {
      const w = (turn + k) % ways.length;
      const t0 = performance.now();
      await ways[w].op(next[w]++);
      durations[w].push(performance.now() - t0);
    }
  }
  return durations.map((d) =>
    summarize(
      d,
      d.reduce((sum, ms) => sum + ms, 0),
    ),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean" }, "cpu-prof": { type: "string" } } });
  const quick = values.quick ?? false;
  const budgetMs = quick ? 6_000 : 60_000;
  const profileDir = values["cpu-prof"] === undefined ? undefined : resolve(values["cpu-prof"]);
  const ds = missionsDataset();
  const dir = mkdtempSync(join(tmpdir(), "bench-federation-"));
  const children: Child[] = [];
  const endpoints: Endpoint[] = [];
  try {
    const t0 = performance.now();
    const profile = profileDir ? `--cpu-prof --cpu-prof-dir=${profileDir}` : "";
    const subgraphs = [
      spawn("../graphdb/http-server-child.ts", [dir, "--keep-alive"], "Trellis", profile),
      spawn("./apollo-subgraph-child.ts", ["reference"], "reference subgraph"),
      spawn("./apollo-subgraph-child.ts", ["plain"], "plain subgraph"),
    ];
    const started = await Promise.allSettled(subgraphs);
    for (const s of started) if (s.status === "fulfilled") children.push(s.value);
    for (const s of started) if (s.status === "rejected") throw s.reason;
    const [trellis, reference, plain] = children;
    const t1 = performance.now();
    await seedTrellis(trellis.port, ds);
    const t2 = performance.now();
    const url = (c: Child, path = "/") => `http://127.0.0.1:${c.port}${path}`;
    const gateways = await Promise.allSettled([
      spawn(
        "./gateway-child.ts",
        [`reference=${url(reference)}`, `missions=${url(trellis, "/graphql")}`],
        "gateway",
      ),
      spawn("./gateway-child.ts", [`reference=${url(reference)}`, `missions=${url(plain)}`], "gateway"),
    ]);
    for (const s of gateways) if (s.status === "fulfilled") children.push(s.value);
    for (const s of gateways) if (s.status === "rejected") throw s.reason;
    const [gatewayTrellis, gatewayPlain] = children.slice(3);
    const secs = (a: number, b: number) => `${((b - a) / 1000).toFixed(1)} s`;
    console.log(
      `${ds.astronauts.length} astronauts (reference subgraph), ${ds.missions.length} missions of ` +
        `${ds.missions[0].crew.length} (Trellis, or the plain subgraph); subgraphs up in ${secs(t0, t1)}, ` +
        `Trellis seeded through its GraphQL API in ${secs(t1, t2)}, gateways composed in ${secs(t2, performance.now())}`,
    );

    const viaTrellis = new Endpoint("gateway (Trellis)", gatewayTrellis.port, "/");
    const viaPlain = new Endpoint("gateway (plain)", gatewayPlain.port, "/");
    const trellisAlone = new Endpoint("Trellis", trellis.port, "/graphql");
    const plainAlone = new Endpoint("plain subgraph", plain.port, "/");
    endpoints.push(viaTrellis, viaPlain, trellisAlone, plainAlone);

    const rng = new Prng(7);
    const params = Array.from({ length: 2000 }, () =>
      Array.from({ length: IDS_PER_QUERY }, () => ds.astronauts[rng.int(ds.astronauts.length)].id),
    );
    const join = (gw: Endpoint) => (i: number) => gw.post(JOIN_QUERY, { ids: params[i % params.length] });
    const entities = (sub: Endpoint) => (i: number) =>
      sub.post(ENTITIES_QUERY, {
        representations: params[i % params.length].map((id) => ({ __typename: "Astronaut", id })),
      });

    // Both sides must give the same answers, error-free, before anything is timed.
    let missionsSeen = 0;
    for (let i = 0; i < CHECKED; i++) {
      const [a, b] = [await join(viaTrellis)(i), await join(viaPlain)(i)];
      const [ea, eb] = [await entities(trellisAlone)(i), await entities(plainAlone)(i)];
      const answers = [a.data?.astronauts, b.data?.astronauts].map(answerOf);
      const direct = [ea.data?._entities, eb.data?._entities].map(answerOf);
      if (answers[0] !== answers[1] || direct[0] !== direct[1])
        throw new Error(`the two sides differ for ${params[i].join(",")}:\n  ${answers.join("\n  ")}`);
      const astronauts = (a.data?.astronauts ?? []) as { missions: unknown[] | null }[];
      missionsSeen += astronauts.reduce((n, x) => n + (x.missions?.length ?? 0), 0);
    }
    console.log(
      `answers checked: both gateways and both subgraphs agree on the first ${CHECKED} parameter sets ` +
        `(${(missionsSeen / (CHECKED * IDS_PER_QUERY)).toFixed(1)} missions per astronaut)`,
    );

    const ways: Way[] = [
      { name: "gateway → reference + Trellis", op: join(viaTrellis) },
      { name: "gateway → reference + plain subgraph", op: join(viaPlain) },
      { name: `Trellis _entities alone (${IDS_PER_QUERY} representations)`, op: entities(trellisAlone) },
      { name: `plain subgraph _entities alone (${IDS_PER_QUERY})`, op: entities(plainAlone) },
    ];
    const resetFetches = () => Promise.all([gatewayFetches(gatewayTrellis), gatewayFetches(gatewayPlain)]);
    const stats = await timeInterleaved(ways, budgetMs, 200, resetFetches);
    const [fetchesTrellis, fetchesPlain] = await resetFetches();
    const rows = ways.map((w, i) => {
      const s = stats[i];
      return [w.name, fmtMs(s.p50Ms), fmtMs(s.p99Ms), fmtInt(s.opsPerSec), fmtInt(s.samples)];
    });
    console.log(`\n${renderTable(["path", "p50", "p99", "q/s", "samples"], rows)}`);
    const [gt, gp, st, sp] = stats;
    const ratio = gt.p50Ms / gp.p50Ms;
    console.log(
      `\ngateway p50, Trellis / plain subgraph: ${ratio.toFixed(2)}× (Trellis adds ` +
        `${((ratio - 1) * 100).toFixed(0)}%, ${fmtMs(gt.p50Ms - gp.p50Ms)}); target ≤ ${TARGET_RATIO}×: ` +
        `${ratio <= TARGET_RATIO ? "PASS" : "MISS"}`,
    );
    const fetchP50 = (f: Record<string, number[]>, name: string) => fmtMs(summarize(f[name] ?? [], 1).p50Ms);
    console.log(
      `the subgraph fetches as the gateways time them (p50, Trellis's gateway / the plain one): missions ` +
        `${fetchP50(fetchesTrellis, "missions")} / ${fetchP50(fetchesPlain, "missions")}, reference ` +
        `${fetchP50(fetchesTrellis, "reference")} / ${fetchP50(fetchesPlain, "reference")}`,
    );
    console.log(
      `the subgraphs alone: Trellis's _entities p50 is ${fmtMs(st.p50Ms)} against ${fmtMs(sp.p50Ms)} ` +
        `(${(st.p50Ms / sp.p50Ms).toFixed(2)}×)`,
    );
    console.log(
      `${budgetMs / 1000} s of requests taking turns between the four paths; one client, one request at a ` +
        "time, over keep-alive HTTP on loopback; every server in its own child process.",
    );
    if (profileDir) console.log(`the Trellis child's CPU profile: ${profileDir}/*.cpuprofile`);
  } finally {
    for (const e of endpoints) e.close();
    for (const c of children.reverse()) await stopChild(c.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
