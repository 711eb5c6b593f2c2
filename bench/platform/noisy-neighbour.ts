/**
 * Noisy neighbours, measured: the latency of one app's requests (a function, and a function reading its
 * own graph) while another tenant's functions on the same platform do the heaviest graph work they may —
 * write N-Quads, build an index over many values, read hundreds of megabytes — printed beside the same
 * requests on a quiet platform. The platform runs in its own process; this one only sends requests.
 * Target (issue 20): the neighbour's p99 under 3× the quiet p99 in every phase.
 *
 *   npm run bench:platform:neighbours -- [--values 1000000] [--writes 200000] [--batch 50000]
 *                                         [--read-mb 500] [--quiet-seconds 10]
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildApp, deployBuild } from "../../runtime/src/index.ts";
import { spawnServerChild, stopChild } from "../graphdb/http-client.ts";
import { percentile } from "../graphdb/latency.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "../graphdb/table.ts";

const { values: args } = parseArgs({
  options: {
    values: { type: "string", default: "1000000" },
    writes: { type: "string", default: "200000" },
    batch: { type: "string", default: "50000" },
    "read-mb": { type: "string", default: "500" },
    "quiet-seconds": { type: "string", default: "10" },
  },
});
const VALUES = Number(args.values);
const WRITES = Number(args.writes);
const BATCH = Number(args.batch);
const READ_MB = Number(args["read-mb"]);
const QUIET_SECONDS = Number(args["quiet-seconds"]);
/** Bytes of one value as the tenant reads it back (`{"name":"value 123456 word456"},`). */
const READ_BYTES_PER_VALUE = 36;
const READ_CALL_VALUES = 125_000;

const NEIGHBOUR_SOURCE = `import { graph } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
/** The names in the app's own graph. */
export function names(): string[] {
  const res = graph.query<{ q: { name: string }[] }>("graph", "{ q(func: has(name), orderasc: name) { name } }");
  return res.q.map((n) => n.name);
}
export function seed(): string {
  graph.alter("graph", "name: string @index(exact) .");
  graph.mutate("graph", { setJson: [{ name: "Alice" }, { name: "Bob" }] });
  return "ok";
}
`;

const TENANT_SOURCE = `import { graph, type i32 } from "@trellis/sdk";
/** Writes count values as N-Quads, numbered from start. */
export function write(start: i32, count: i32): i32 {
  const lines: string[] = [];
  for (let i = start; i < start + count; i++) lines.push("_:n" + i + ' <name> "value ' + i + " word" + (i % 1000) + '" .');
  graph.mutate("graph", { setNquads: lines.join("\\n") });
  return count;
}
/** Adds a term index over every value written. */
export function index(): string {
  graph.alter("graph", "name: string @index(term) .");
  return "ok";
}
/** Reads a page of values; answers how many. */
export function read(first: i32, offset: i32): i32 {
  const res = graph.query<{ q: { name: string }[] }>("graph", "{ q(func: has(name), first: " + first + ", offset: " + offset + ") { name } }");
  return res.q.length;
}
`;

const ADMIN = `bench-admin-${Date.now()}-0123456789abcdef`;
const GRAPH = { graph: { type: "graphdb", grpcTarget: "localhost:9080" } };

/** The neighbour's two requests: a function alone, and a function reading its own graph. */
interface Neighbour {
  hello(): Promise<boolean>;
  graph(): Promise<boolean>;
}

interface Phase {
  name: string;
  seconds: number;
  latencies: Record<keyof Neighbour, number[]>;
  failures: Record<keyof Neighbour, number>;
}

const tmp = await mkdtemp(join(tmpdir(), "trellis-bench-neighbours-"));
const started = await spawnServerChild(
  new URL("./platform-child.ts", import.meta.url).pathname,
  [join(tmp, "data"), ADMIN],
  "platform",
);
const base = `http://127.0.0.1:${started.port}`;
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${fmtInt(VALUES)} values, ` +
      `${fmtInt(WRITES)} N-Quads written in batches of ${fmtInt(BATCH)}, ${READ_MB} MB read`,
  );
  const neighbourKey = await deployApp("neighbour", NEIGHBOUR_SOURCE, { connections: GRAPH });
  const tenantKey = await deployApp("tenant", TENANT_SOURCE, {
    connections: GRAPH,
    limits: { timeoutMs: 60_000, memoryMb: 512 },
  });
  await call("neighbour", neighbourKey, "{ seed }");
  const neighbour: Neighbour = {
    hello: async () =>
      (await call("neighbour", neighbourKey, '{ sayHello(name: "n") }')).includes("Hello, n!"),
    graph: async () => (await call("neighbour", neighbourKey, "{ names }")).includes("Alice"),
  };
  for (let i = 0; i < 20; i++) await Promise.all([neighbour.hello(), neighbour.graph()]);

  const phases: Phase[] = [];
  phases.push(
    await measure("quiet", neighbour, () => new Promise((r) => setTimeout(r, QUIET_SECONDS * 1000))),
  );

  // Two functions writing at once, batch after batch.
  let written = 0;
  const writeBatches = async (upTo: number) => {
    const lanes = [0, 1].map(async () => {
      while (written < upTo) {
        const start = written;
        written += BATCH;
        await call("tenant", tenantKey, `{ write(start: ${start}, count: ${BATCH}) }`, "write");
      }
    });
    await Promise.all(lanes);
  };
  phases.push(await measure(`write ${fmtInt(WRITES)} N-Quads`, neighbour, () => writeBatches(WRITES)));
  process.stdout.write(`filling up to ${fmtInt(VALUES)} values… `);
  const fillStarted = performance.now();
  await writeBatches(VALUES);
  console.log(`${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);
  phases.push(
    await measure(`index over ${fmtInt(written)} values`, neighbour, () =>
      call("tenant", tenantKey, "{ index }", "index"),
    ),
  );
  const readCalls = Math.ceil((READ_MB * 1e6) / (READ_CALL_VALUES * READ_BYTES_PER_VALUE));
  phases.push(
    await measure(`read ${READ_MB} MB`, neighbour, async () => {
      let next = 0;
      const lanes = [0, 1].map(async () => {
        while (next < readCalls) {
          const offset = (next++ * READ_CALL_VALUES) % Math.max(1, written - READ_CALL_VALUES);
          await call("tenant", tenantKey, `{ read(first: ${READ_CALL_VALUES}, offset: ${offset}) }`, "read");
        }
      });
      await Promise.all(lanes);
    }),
  );

  for (const kind of ["hello", "graph"] as const) {
    const quiet = percentile(sorted(phases[0].latencies[kind]), 99);
    const rows = phases.map((p) => {
      const s = sorted(p.latencies[kind]);
      const p99 = percentile(s, 99);
      return [
        p.name,
        `${p.seconds.toFixed(1)} s`,
        fmtInt(s.length),
        String(p.failures[kind]),
        fmtMs(percentile(s, 50)),
        fmtMs(p99),
        fmtRatio(p99 / quiet),
        p === phases[0] ? "" : p99 <= 3 * quiet ? "yes" : "no",
      ];
    });
    console.log(
      `\nthe neighbour's ${kind === "hello" ? "function (sayHello)" : "read of its own graph (names)"}, one request at a time:\n${renderTable(
        ["tenant's work", "duration", "requests", "failed", "p50", "p99", "p99 ÷ quiet", "≤ 3×"],
        rows,
      )}`,
    );
  }
} finally {
  await stopChild(started.child);
  await rm(tmp, { recursive: true, force: true });
}

function sorted(values: number[]): Float64Array {
  return Float64Array.from(values).sort();
}

/** Each kind of neighbour request, one at a time (the two kinds side by side), for as long as `work` runs. */
async function measure(name: string, neighbour: Neighbour, work: () => Promise<unknown>): Promise<Phase> {
  const phase: Phase = {
    name,
    seconds: 0,
    latencies: { hello: [], graph: [] },
    failures: { hello: 0, graph: 0 },
  };
  let running = true;
  const lanes = (["hello", "graph"] as const).map(async (kind) => {
    while (running) {
      const t0 = performance.now();
      const ok = await neighbour[kind]().catch(() => false);
      phase.latencies[kind].push(performance.now() - t0);
      if (!ok) phase.failures[kind]++;
    }
  });
  const t0 = performance.now();
  await work();
  phase.seconds = (performance.now() - t0) / 1000;
  running = false;
  await Promise.all(lanes);
  console.log(`${name}: ${phase.seconds.toFixed(1)} s`);
  return phase;
}

async function api(method: string, path: string, body?: unknown): Promise<Record<string, never>> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, never>;
}

async function deployApp(name: string, source: string, manifest: object): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest));
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true }));
  await writeFile(join(dir, "src/index.ts"), source);
  const { outDir } = await buildApp(dir);
  const { deployToken } = await api("POST", "/api/apps", { name });
  await deployBuild({ url: base, app: name, token: deployToken, buildDir: outDir });
  const { secret } = await api("POST", `/api/apps/${name}/keys`, { name: "bench" });
  return secret;
}

/** A GraphQL call through the gateway; the answer's text. Throws on errors when `what` names the call. */
async function call(app: string, key: string, query: string, what?: string): Promise<string> {
  const res = await fetch(`${base}/apps/${app}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  if (what !== undefined && (res.status !== 200 || text.includes('"errors"'))) {
    throw new Error(`the tenant's ${what} failed: ${text.slice(0, 300)}`);
  }
  return text;
}
