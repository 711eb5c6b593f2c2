/**
 * Runtime benchmark: the same trivial function (`sayHello(name)`) as a TypeScript app (QuickJS
 * component), as a Go app (built with the local Go: wasip1 core module + preview1 adapter) and as a plain
 * graphql-yoga resolver (the ceiling), in one run: build time and component size of each build, cold
 * start (loadApp, first request, first request after scale to zero), and requests/s over HTTP GraphQL,
 * each server in its own child process, same load generator.
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
import { buildHello, HELLO_BODY, HELLO_EXPECT, parseLoadArgs } from "./hello-app.ts";

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

const fmtMb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

const tmp = await mkdtemp(join(tmpdir(), "trellis-bench-runtime-"));
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${SECONDS}s × ${ROUNDS} rounds, ${CONCURRENCY} in flight`,
  );
  const apps = [];
  for (const language of ["typescript", "go"] as const) {
    const started = performance.now();
    const built = await buildHello(join(tmp, language), language);
    apps.push({ language, built, buildMs: performance.now() - started });
    console.log(`built the ${language} app with ${built.compiler} in ${fmtMs(performance.now() - started)}`);
  }
  const servers = [
    ...(await Promise.all(
      apps.map(async (a) => ({ ...a, server: await startChild(["trellis", a.built.outDir]) })),
    )),
  ];
  const yoga = await startChild(["yoga"]);
  const results = new Map<string, LoadResult[]>();
  try {
    for (const s of servers) await load(s.server.port, 1); // warm-up: JIT, workers, instances
    await load(yoga.port, 1);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, port] of [
        ["yoga", yoga.port],
        ...servers.map((s) => [s.language, s.server.port]),
      ] as [string, number][]) {
        results.set(name, [...(results.get(name) ?? []), await load(port, SECONDS)]);
      }
    }
  } finally {
    for (const s of servers) s.server.child.kill();
    yoga.child.kill();
  }
  const y = bestRound(results.get("yoga")!);
  const rows = [
    [
      "plain graphql-yoga resolver (ceiling)",
      "–",
      "–",
      "–",
      "–",
      fmtInt(y.rps),
      fmtMs(y.p50),
      fmtMs(y.p99),
      "1.00×",
    ],
  ];
  const summary: string[] = [];
  for (const app of apps) {
    const cold = await coldStarts(app.built.outDir, 5);
    const t = bestRound(results.get(app.language)!);
    rows.push([
      `${app.language === "go" ? "Go" : "TypeScript"} app (${app.built.compiler})`,
      fmtMs(app.buildMs),
      fmtMb(app.built.componentBytes),
      fmtMs(cold.first),
      fmtMs(cold.afterUnload),
      fmtInt(t.rps),
      fmtMs(t.p50),
      fmtMs(t.p99),
      fmtRatio(t.rps / y.rps),
    ]);
    summary.push(
      `${app.language}: throughput ${fmtRatio(t.rps / y.rps)} of plain yoga (target ≥ 0.50), cold start ${fmtMs(cold.first)} after load / ${fmtMs(cold.afterUnload)} after unload (target ≤ 150 ms; loadApp ${fmtMs(cold.load)})`,
    );
  }
  console.log(
    renderTable(
      [
        "app",
        "build",
        "component",
        "first request",
        "after scale to zero",
        "requests/s",
        "p50",
        "p99",
        "÷ yoga",
      ],
      rows,
    ),
  );
  for (const line of summary) console.log(line);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
