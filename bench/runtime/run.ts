/**
 * Runtime benchmark: a trivial function (`sayHello(name)`) called over HTTP GraphQL through the Trellis
 * runtime (TypeScript app → QuickJS component → worker pool → generated schema → graphql-yoga) against the
 * same logic as a plain graphql-yoga resolver (the ceiling), both in child processes, same run, same load
 * generator. Then cold start: load a build and time the first request, and the first request after
 * `unload()` (scale to zero).
 *
 *   npm run bench:runtime -- [--seconds S] [--concurrency C] [--rounds R]
 *
 * Targets (issue): throughput ≥ 50 % of the plain resolver; cold start ≤ 150 ms.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadApp } from "../../runtime/src/index.ts";
import { percentile } from "../graphdb/latency.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "../graphdb/table.ts";
import { bestRound, type LoadResult, runLoad } from "./graphql-load.ts";
import { buildHelloApp, HELLO_BODY, HELLO_EXPECT, parseLoadArgs } from "./hello-app.ts";

const { seconds: SECONDS, concurrency: CONCURRENCY, rounds: ROUNDS } = parseLoadArgs();

function startChild(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "server-child.ts"), ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const load = (port: number, seconds: number) =>
  runLoad(
    { port, path: "/graphql" },
    { seconds, concurrency: CONCURRENCY, body: HELLO_BODY, expect: HELLO_EXPECT },
  );

async function coldStarts(buildDir: string, times: number) {
  const body = { method: "POST", headers: { "content-type": "application/json" }, body: HELLO_BODY };
  const loadMs: number[] = [];
  const firstMs: number[] = [];
  const afterUnloadMs: number[] = [];
  for (let i = 0; i < times; i++) {
    let t = performance.now();
    const app = await loadApp(buildDir, { env: {} });
    loadMs.push(performance.now() - t);
    t = performance.now();
    await (await app.fetch(new Request("http://bench/graphql", body))).text();
    firstMs.push(performance.now() - t);
    await app.unload();
    t = performance.now();
    await (await app.fetch(new Request("http://bench/graphql", body))).text();
    afterUnloadMs.push(performance.now() - t);
    await app.close();
  }
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  return { load: med(loadMs), first: med(firstMs), afterUnload: med(afterUnloadMs) };
}

const tmp = await mkdtemp(join(tmpdir(), "trellis-bench-runtime-"));
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${SECONDS}s × ${ROUNDS} rounds, ${CONCURRENCY} in flight`,
  );
  const buildDir = await buildHelloApp(join(tmp, "app"));
  const trellis = await startChild(["trellis", buildDir]);
  const yoga = await startChild(["yoga"]);
  try {
    await load(trellis.port, 1); // warm-up: JIT, workers, instances
    await load(yoga.port, 1);
    const results: Record<"trellis" | "yoga", LoadResult[]> = { trellis: [], yoga: [] };
    for (let r = 0; r < ROUNDS; r++) {
      results.yoga.push(await load(yoga.port, SECONDS));
      results.trellis.push(await load(trellis.port, SECONDS));
    }
    const t = bestRound(results.trellis);
    const y = bestRound(results.yoga);
    console.log(
      renderTable(
        ["server", "requests/s", "p50", "p99"],
        [
          ["plain graphql-yoga resolver (ceiling)", fmtInt(y.rps), fmtMs(y.p50), fmtMs(y.p99)],
          ["trellis runtime (wasm component)", fmtInt(t.rps), fmtMs(t.p50), fmtMs(t.p99)],
        ],
      ),
    );
    console.log(`throughput ratio trellis ÷ plain yoga: ${fmtRatio(t.rps / y.rps)} (target ≥ 0.50)`);
  } finally {
    trellis.child.kill();
    yoga.child.kill();
  }
  const cold = await coldStarts(buildDir, 5);
  console.log(
    `cold start (median of 5): loadApp ${fmtMs(cold.load)}, first request after load ${fmtMs(cold.first)}, ` +
      `first request after unload (scale to zero) ${fmtMs(cold.afterUnload)} (target ≤ 150 ms)`,
  );
} finally {
  await rm(tmp, { recursive: true, force: true });
}
