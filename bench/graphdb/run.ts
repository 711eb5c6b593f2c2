/**
 * Trellis graphdb benchmark: load rate and query latency on a real Freebase film subset and on a generated
 * 1million-shaped film graph, against PostgreSQL measured in the same run.
 *
 *   npm run bench:graphdb -- [--quick] [--dataset freebase|generated|all] [--no-http] [--no-postgres] [--keep]
 *
 * Prints one table per dataset and writes the same as JSON to bench/graphdb/.results/latest.json.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type pg from "pg";
import { createGraphDB, type GraphDBHandle } from "../../graphdb/src/index.ts";
import type { Dataset, DatasetId } from "./dataset.ts";
import { readFreebase } from "./freebase.ts";
import { DEFAULT_FILMS, generateDataset } from "./generated.ts";
import { checkResponse, type ServerChild, startServerChild } from "./http-client.ts";
import { type LatencyStats, type MeasureOptions, measure, rate } from "./latency.ts";
import { connect, createTables, loadPostgres, resetSchema } from "./postgres.ts";
import { log, Progress } from "./progress.ts";
import { dqlPred, nquadChunks, usedNodeCount } from "./quads.ts";
import { type DatasetReport, type Measurement, type ResultRow, ratioOf, renderDataset } from "./report.ts";
import { fmtInt } from "./table.ts";
import { type QueryCase, type Workload, workloads } from "./workloads.ts";
import { type AssignUids, loadQuads, type SendBatch, XidMap } from "./xid-loader.ts";

const HERE = dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    dataset: { type: "string", default: "all" },
    "no-http": { type: "boolean", default: false },
    "no-postgres": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    seed: { type: "string", default: "42" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log(
    "usage: npm run bench:graphdb -- [--quick] [--dataset freebase|generated|all] [--no-http] [--no-postgres] [--keep] [--seed N]",
  );
  process.exit(0);
}

const QUICK = args.quick === true;
const SEED = Number(args.seed);
const selected: DatasetId[] =
  args.dataset === "all"
    ? ["freebase", "generated"]
    : args.dataset === "freebase" || args.dataset === "generated"
      ? [args.dataset]
      : [];
if (selected.length === 0)
  throw new Error(`--dataset must be freebase, generated or all (got ${args.dataset})`);

/** Batch sizes and concurrency: in-process like a bulk client, HTTP like Dgraph's live loader. */
const LOAD = {
  inProcess: { batchSize: 10_000, concurrency: 1 },
  http: { batchSize: 1_000, concurrency: 4 },
};
const TARGETS = { inProcessLoad: 100_000, httpLoad: 25_000 };
const MEASURE: MeasureOptions = QUICK
  ? { warmup: 10, iterations: 150, budgetMs: 1_500, minIterations: 10 }
  : { warmup: 40, iterations: 1_000, budgetMs: 6_000, minIterations: 20 };
/** Parameter sets compared between Trellis and PostgreSQL before timing. */
const CROSS_CHECKS = QUICK ? 10 : 25;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

function buildDataset(id: DatasetId): Dataset {
  const progress = new Progress(`building ${id} dataset`);
  const ds =
    id === "freebase"
      ? readFreebase({
          sampleEvery: QUICK ? 8 : undefined,
          onProgress: (d, t) => progress.update(d, t, " lines"),
        })
      : generateDataset({
          films: QUICK ? 3_000 : DEFAULT_FILMS,
          onProgress: (d, t) => progress.update(d, t, " films"),
        });
  progress.done(`${fmtInt(ds.quads.length)} N-Quads, ${fmtInt(usedNodeCount(ds.quads))} nodes`);
  return ds;
}

/** Applies the schema; lines the engine rejects that the benchmark can do without are dropped (and noted). */
async function alterSchema(
  alter: (schema: string) => Promise<void>,
  ds: Dataset,
  notes: string[],
): Promise<void> {
  let schema = ds.schema;
  for (const optional of [...ds.optionalSchemaLines, undefined]) {
    try {
      await alter(schema);
      return;
    } catch (e) {
      if (optional === undefined || !schema.includes(optional)) throw e;
      notes.push(
        `schema line "${optional.replace(/\s+/g, " ")}" rejected (${errorText(e)}); loaded without it`,
      );
      schema = schema.replace(`${optional}\n`, "");
    }
  }
}

function dirSizeMb(dir: string): number {
  try {
    return Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function timedLoad(
  label: string,
  ds: Dataset,
  send: SendBatch,
  assign: AssignUids,
  o: typeof LOAD.http,
) {
  const progress = new Progress(label);
  const t0 = performance.now();
  const xids = await loadQuads(ds.quads, send, assign, {
    ...o,
    onProgress: (d, t) => progress.update(d, t, " quads"),
  });
  const r = rate(ds.quads.length, performance.now() - t0);
  progress.done(`${fmtInt(r.perSec)} N-Quads/s`);
  return { xids, rate: r };
}

interface Runner {
  run(c: QueryCase): Promise<unknown>;
}

/** Runs the cross-check on the first cases, then times the runner over all cases. */
async function crossCheck(
  w: Workload,
  cases: QueryCase[],
  trellis: Runner,
  postgres: Runner | undefined,
): Promise<ResultRow["check"]> {
  if (!postgres) return undefined;
  let matched = 0;
  let size = 0;
  let example: string | undefined;
  const n = Math.min(CROSS_CHECKS, cases.length);
  for (let i = 0; i < n; i++) {
    const t = w.trellisSig((await trellis.run(cases[i])) as Record<string, unknown>);
    const p = w.pgSig((await postgres.run(cases[i])) as Record<string, unknown>[]);
    if (t === p) matched++;
    else
      example ??= `Trellis ${JSON.stringify(t).slice(0, 120)} vs PostgreSQL ${JSON.stringify(p).slice(0, 120)} for SQL parameters ${JSON.stringify(cases[i].sqlValues).slice(0, 200)}`;
    size += typeof p === "number" ? p : 0;
  }
  return {
    compared: n,
    matched,
    example,
    avgResultSize: size / n,
    hint: matched < n ? w.mismatchHint : undefined,
  };
}

async function timeRunner(label: string, runner: Runner, cases: QueryCase[]): Promise<Measurement> {
  try {
    const stats: LatencyStats = await measure((i) => runner.run(cases[i % cases.length]), MEASURE);
    log(
      `    ${label}: p50 ${stats.p50Ms.toFixed(3)} ms, p99 ${stats.p99Ms.toFixed(3)} ms, ${fmtInt(stats.opsPerSec)} q/s (${stats.samples} runs)`,
    );
    return { kind: "query", stats };
  } catch (e) {
    log(`    ${label}: ERROR ${errorText(e)}`);
    return { kind: "error", message: errorText(e) };
  }
}

function trellisRunner(db: GraphDBHandle, xids: XidMap): Runner {
  const uid = (node: number) => {
    const u = xids.uid[node];
    if (u === 0) throw new Error(`node ${node} has no uid`);
    return u;
  };
  return {
    async run(c) {
      const res = await db.engine.query({ query: c.dql(uid) });
      return JSON.parse(res.json);
    },
  };
}

function httpRunner(server: ServerChild, xids: XidMap): Runner {
  const uid = (node: number) => xids.uid[node];
  return {
    async run(c) {
      return checkResponse(await server.post("/query", "application/dql", c.dql(uid)), "query").data;
    },
  };
}

function pgRunner(client: pg.Client, w: Workload): Runner {
  return {
    async run(c) {
      return (await client.query({ name: `q_${w.id}`, text: w.sql, values: c.sqlValues })).rows;
    },
  };
}

async function benchDataset(ds: Dataset): Promise<DatasetReport> {
  const notes: string[] = [];
  const rows: ResultRow[] = [];
  const q = ds.quads;
  const dirs: string[] = [];
  const freshDir = () => {
    const d = mkdtempSync(join(tmpdir(), `trellis-bench-${ds.id}-`));
    dirs.push(d);
    return d;
  };
  const ws = workloads(ds, SEED);
  const casesFor = new Map(ws.map((w) => [w.id, w.cases(MEASURE.warmup + MEASURE.iterations)]));

  // ---- Trellis, in-process: the bulk loader (Dgraph's bulk loader analogue), then transactions
  log(`[${ds.id}] Trellis in-process bulk load`);
  const dir = freshDir();
  const db = createGraphDB({ dir });
  let inProc: Measurement;
  let xids: XidMap | undefined;
  try {
    await alterSchema((schema) => db.engine.alter({ schema }), ds, notes);
    // The input as text in memory, as a loader reading a file has it: building it is not the loader's work.
    const chunks = [...nquadChunks(ds.quads)];
    const progress = new Progress("bulk load");
    const t0 = performance.now();
    const res = await db.engine.bulkLoad(chunks, {
      returnXids: true,
      onProgress: (n) => progress.update(n, ds.quads.length, " quads"),
    });
    const r = rate(res.nquads, performance.now() - t0);
    progress.done(`${fmtInt(r.perSec)} N-Quads/s`);
    xids = new XidMap(ds.quads.nodeCount);
    for (const [label, uid] of res.xids ?? []) xids.uid[Number(label.slice(1))] = uid;
    inProc = { kind: "load", rate: r };
    notes.push(`Trellis data dir after in-process bulk load: ${dirSizeMb(dir).toFixed(0)} MB`);
  } catch (e) {
    inProc = { kind: "error", message: errorText(e) };
    log(`  in-process load failed: ${errorText(e)}`);
  }
  let inProcTxn: Measurement = { kind: "skipped", reason: "--quick" };
  if (!args.quick) {
    log(`[${ds.id}] Trellis in-process transactional load (batches of ${LOAD.inProcess.batchSize})`);
    const txnDb = createGraphDB({ dir: freshDir() });
    try {
      await alterSchema((schema) => txnDb.engine.alter({ schema }), ds, notes);
      const loaded = await timedLoad(
        "in-process txn load",
        ds,
        (nquads) => txnDb.engine.mutate({ mutations: [{ setNquads: nquads }], commitNow: true }),
        async (n) => txnDb.engine.assignUids(n),
        LOAD.inProcess,
      );
      inProcTxn = { kind: "load", rate: loaded.rate };
    } catch (e) {
      inProcTxn = { kind: "error", message: errorText(e) };
    } finally {
      await txnDb.close();
    }
  }

  // ---- Trellis over HTTP (server in a child process)
  let httpLoad: Measurement = { kind: "skipped", reason: "--no-http" };
  let httpTwoHop: Measurement = { kind: "skipped", reason: "--no-http" };
  if (!args["no-http"]) {
    log(
      `[${ds.id}] Trellis HTTP /mutate?commitNow=true load (batches of ${LOAD.http.batchSize}, ${LOAD.http.concurrency} concurrent)`,
    );
    const httpDir = freshDir();
    let server: ServerChild | undefined;
    try {
      server = await startServerChild(httpDir);
      const s = server;
      await alterSchema(
        async (schema) => void checkResponse(await s.post("/alter", "application/dql", schema), "alter"),
        ds,
        [],
      );
      const loaded = await timedLoad(
        "HTTP load",
        ds,
        async (nquads) =>
          checkResponse(
            await s.post("/mutate?commitNow=true", "application/rdf", `{ set {\n${nquads}\n} }`),
            "mutate",
          ),
        async (n) => {
          const res = checkResponse(await s.get(`/assign?what=uids&num=${n}`), "assign") as {
            startId?: string;
            endId?: string;
          };
          return { startId: Number(res.startId), endId: Number(res.endId) };
        },
        LOAD.http,
      );
      httpLoad = { kind: "load", rate: loaded.rate };
      notes.push(
        `HTTP load: ${fmtInt(loaded.xids.batches)} batches (${fmtInt(loaded.xids.retries)} sent again after an abort), uids leased by ${fmtInt(loaded.xids.leases)} GET /assign requests`,
      );
      const twoHop = ws.find((w) => w.id === "two-hop")!;
      log(`[${ds.id}] query over HTTP /query: ${twoHop.label}`);
      httpTwoHop = await timeRunner("Trellis HTTP", httpRunner(s, loaded.xids), casesFor.get("two-hop")!);
    } catch (e) {
      httpLoad = { kind: "error", message: errorText(e) };
      log(`  HTTP load failed: ${errorText(e)}`);
    } finally {
      await server?.stop();
    }
  }

  // ---- PostgreSQL
  let client: pg.Client | undefined;
  let pgHttpLike: Measurement = { kind: "skipped", reason: "--no-postgres" };
  let pgInProcLike: Measurement = { kind: "skipped", reason: "--no-postgres" };
  if (!args["no-postgres"]) {
    try {
      client = await connect();
      await resetSchema(client);
      const c = client;
      const pgLoad = async (label: string, o: typeof LOAD.http): Promise<Measurement> => {
        await createTables(c, ds);
        const progress = new Progress(label);
        const t0 = performance.now();
        await loadPostgres(c, ds, {
          batchSize: o.batchSize,
          connections: o.concurrency,
          onProgress: (d, t) => progress.update(d, t, " quads"),
        });
        const r = rate(q.length, performance.now() - t0);
        progress.done(`${fmtInt(r.perSec)} N-Quads/s`);
        return { kind: "load", rate: r };
      };
      log(`[${ds.id}] PostgreSQL load (unnest INSERTs, one transaction per batch, indexes in place)`);
      pgHttpLike = await pgLoad(
        `PostgreSQL load, ${LOAD.http.batchSize}/batch × ${LOAD.http.concurrency} connections`,
        LOAD.http,
      );
      pgInProcLike = await pgLoad(
        `PostgreSQL load, ${LOAD.inProcess.batchSize}/batch × 1 connection`,
        LOAD.inProcess,
      );
      const t0 = performance.now();
      await c.query("VACUUM ANALYZE node_values");
      await c.query("VACUUM ANALYZE edges");
      const size = await c.query(
        "SELECT (pg_total_relation_size('node_values') + pg_total_relation_size('edges')) / 1048576.0 AS mb",
      );
      notes.push(
        `PostgreSQL: VACUUM ANALYZE after load took ${((performance.now() - t0) / 1000).toFixed(1)} s (not in its load rate); tables + indexes ${Number(size.rows[0].mb).toFixed(0)} MB`,
      );
    } catch (e) {
      pgInProcLike = pgHttpLike = { kind: "error", message: errorText(e) };
      log(`  PostgreSQL failed: ${errorText(e)}`);
      await client?.end().catch(() => {});
      client = undefined;
    }
  }

  rows.push({
    id: "load-inprocess-txn",
    operation: `load in-process, transactions (engine.mutate, ${fmtInt(LOAD.inProcess.batchSize)}/txn) vs PG ${fmtInt(LOAD.inProcess.batchSize)}/txn`,
    trellis: inProcTxn,
    postgres: pgInProcLike,
    ratio: ratioOf(inProcTxn, pgInProcLike),
  });
  rows.push({
    id: "load-inprocess",
    operation: `load in-process, bulk loader (engine.bulkLoad) vs PG ${fmtInt(LOAD.inProcess.batchSize)}/txn`,
    trellis: inProc,
    postgres: pgInProcLike,
    ratio: ratioOf(inProc, pgInProcLike),
    target:
      inProc.kind === "load"
        ? { text: `≥ ${fmtInt(TARGETS.inProcessLoad)}/s`, pass: inProc.rate.perSec >= TARGETS.inProcessLoad }
        : undefined,
  });
  rows.push({
    id: "load-http",
    operation: `load HTTP /mutate (${fmtInt(LOAD.http.batchSize)}/txn × ${LOAD.http.concurrency}) vs PG ${fmtInt(LOAD.http.batchSize)}/txn × ${LOAD.http.concurrency} conns`,
    trellis: httpLoad,
    postgres: pgHttpLike,
    ratio: ratioOf(httpLoad, pgHttpLike),
    target:
      httpLoad.kind === "load"
        ? { text: `≥ ${fmtInt(TARGETS.httpLoad)}/s`, pass: httpLoad.rate.perSec >= TARGETS.httpLoad }
        : undefined,
  });

  // ---- Queries
  const pgTimes = new Map<string, Measurement>();
  if (xids) {
    // has() on an @lang string predicate only counts untagged values unless asked for any language (as Dgraph).
    const nameFn = dqlPred(ds.vocab.name) + (ds.vocab.nameLang ? "@." : "");
    const res = await db.engine
      .query({ query: `{ q(func: has(${nameFn})) { n: count(uid) } }` })
      .catch((e) => e as Error);
    const namePred = q.predId(ds.vocab.name);
    const expected = new Set(q.s.filter((_, i) => q.p[i] === namePred)).size;
    const got = res instanceof Error ? `error: ${errorText(res)}` : res.json;
    notes.push(`sanity: has(${nameFn}) count(uid) → ${got}; expected ${fmtInt(expected)}`);
  }
  for (const w of ws) {
    log(`[${ds.id}] query: ${w.label}`);
    const cases = casesFor.get(w.id)!;
    const tRunner = xids ? trellisRunner(db, xids) : undefined;
    const pRunner = client ? pgRunner(client, w) : undefined;
    let check: ResultRow["check"];
    let trellis: Measurement = { kind: "skipped", reason: "load failed" };
    let postgres: Measurement = { kind: "skipped", reason: client ? "" : "--no-postgres" };
    if (tRunner) {
      try {
        check = await crossCheck(w, cases, tRunner, pRunner);
        trellis = await timeRunner("Trellis", tRunner, cases);
      } catch (e) {
        trellis = { kind: "error", message: errorText(e) };
        log(`    Trellis: ERROR ${errorText(e)} — query: ${cases[0].dql((n) => xids!.uid[n])}`);
      }
    }
    if (pRunner) postgres = await timeRunner("PostgreSQL", pRunner, cases);
    pgTimes.set(w.id, postgres);
    const target =
      w.targetP50Ms && trellis.kind === "query"
        ? { text: `p50 ≤ ${w.targetP50Ms.ms} ms`, pass: trellis.stats.p50Ms <= w.targetP50Ms.ms }
        : undefined;
    rows.push({
      id: w.id,
      operation: w.label,
      trellis,
      postgres,
      ratio: ratioOf(trellis, postgres),
      target,
      check,
    });
  }
  const pgTwoHop = pgTimes.get("two-hop") ?? { kind: "skipped", reason: "--no-postgres" };
  rows.push({
    id: "two-hop-http",
    operation: "same 2-hop over HTTP /query (vs PG above)",
    trellis: httpTwoHop,
    postgres: pgTwoHop,
    ratio: ratioOf(httpTwoHop, pgTwoHop),
  });

  await client?.end();
  await db.close();
  if (!args.keep) for (const d of dirs) rmSync(d, { recursive: true, force: true });
  else notes.push(`data dirs kept: ${dirs.join(", ")}`);

  return {
    id: ds.id,
    title: ds.title,
    quads: q.length,
    nodes: usedNodeCount(q),
    predicates: q.predicateCounts(),
    notes,
    rows,
  };
}

async function main(): Promise<void> {
  const started = new Date();
  const loadBefore = loadavg()[0];
  log(
    `Trellis graphdb benchmark${QUICK ? " (--quick)" : ""}: ${selected.join(", ")}; ${cpus().length} CPUs, Node ${process.version}`,
  );
  const reports: DatasetReport[] = [];
  for (const id of selected) reports.push(await benchDataset(buildDataset(id)));

  const out = [
    "",
    `Trellis graphdb benchmark — ${started.toISOString()}${QUICK ? " (--quick)" : ""}, Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}`,
    `1-min load average: ${loadBefore.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end (${cpus().length} CPUs; > ${cpus().length} means other work competed for the CPUs)`,
    "ratio = Trellis speed / PostgreSQL speed (N-Quads/s or queries/s, one sequential client); > 1 means Trellis is faster.",
    "Query cells: latency per query incl. result decoding (JSON.parse of Trellis' response, pg row parsing).",
    "",
    ...reports.flatMap((r) => [renderDataset(r), ""]),
  ].join("\n");
  console.log(out);

  const resultsDir = join(HERE, ".results");
  mkdirSync(resultsDir, { recursive: true });
  let commit = "";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {}
  const json = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    quick: QUICK,
    seed: SEED,
    node: process.version,
    cpus: cpus().length,
    loadAverage: { start: loadBefore, end: loadavg()[0] },
    cpuModel: cpus()[0]?.model,
    commit,
    load: LOAD,
    measure: MEASURE,
    datasets: reports,
  };
  writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(json, null, 2)}\n`);
  log(`results written to ${join(resultsDir, "latest.json")}`);
}

await main();
