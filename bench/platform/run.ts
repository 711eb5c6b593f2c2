/**
 * Platform benchmark, same run, same build:
 *   - gateway overhead: requests/s and p50/p99 of a trivial function through the platform's gateway
 *     (`/apps/<app>/graphql`, API key check, activity recording) against the same build served by the
 *     runtime directly (the dev server), with the same load generator;
 *   - cold start after scale-to-zero: the first request after the idle sweeper unloaded the app.
 *
 *   npm run bench:platform -- [--seconds S] [--concurrency C] [--rounds R]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { Agent } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { createWasmAppRuntime, startPlatform } from "../../platform/src/index.ts";
import { deployBuild, loadApp, startDevServer } from "../../runtime/src/index.ts";
import { percentile } from "../graphdb/latency.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "../graphdb/table.ts";
import {
  bestRound,
  type LoadResult,
  type LoadTarget,
  postGraphQL,
  runLoad,
} from "../runtime/graphql-load.ts";
import { buildHelloApp, HELLO_BODY, HELLO_EXPECT, parseLoadArgs } from "../runtime/hello-app.ts";

const { seconds: SECONDS, concurrency: CONCURRENCY, rounds: ROUNDS } = parseLoadArgs();

const load = (target: LoadTarget, seconds: number) =>
  runLoad(target, { seconds, concurrency: CONCURRENCY, body: HELLO_BODY, expect: HELLO_EXPECT });

const tmp = await mkdtemp(join(tmpdir(), "trellis-bench-platform-"));
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${SECONDS}s × ${ROUNDS} rounds, ${CONCURRENCY} in flight`,
  );
  const outDir = await buildHelloApp(join(tmp, "app"));

  const platform = await startPlatform({
    port: 0,
    host: "127.0.0.1",
    dataDir: join(tmp, "data"),
    adminToken: "bench-admin-token-0123456789abcdef",
    graphdb: { enabled: false },
    logger: pino({ level: "silent" }),
    runtime: createWasmAppRuntime(),
  });
  const direct = await loadApp(outDir, { env: {} });
  const dev = await startDevServer({ port: 0, getApp: () => ({ ...direct, graphql: direct }) });
  try {
    const api = async (method: string, path: string, body?: unknown) =>
      (await (
        await fetch(platform.url + path, {
          method,
          headers: {
            authorization: "Bearer bench-admin-token-0123456789abcdef",
            "content-type": "application/json",
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json()) as Record<string, never>;
    const { deployToken } = await api("POST", "/api/apps", { name: "bench" });
    await deployBuild({ url: platform.url, app: "bench", token: deployToken, buildDir: outDir });
    const { secret } = await api("POST", "/api/apps/bench/keys", { name: "bench" });
    const gateway: LoadTarget = {
      port: Number(new URL(platform.url).port),
      path: "/apps/bench/graphql",
      headers: { authorization: `Bearer ${secret}` },
    };
    const runtime: LoadTarget = { port: Number(new URL(dev.url).port), path: "/graphql", headers: {} };

    await load(runtime, 1);
    await load(gateway, 1);
    const results = { runtime: [] as LoadResult[], gateway: [] as LoadResult[] };
    for (let r = 0; r < ROUNDS; r++) {
      results.runtime.push(await load(runtime, SECONDS));
      results.gateway.push(await load(gateway, SECONDS));
    }
    const d = bestRound(results.runtime);
    const g = bestRound(results.gateway);
    console.log(
      renderTable(
        ["path", "requests/s", "p50", "p99"],
        [
          ["runtime directly (dev server)", fmtInt(d.rps), fmtMs(d.p50), fmtMs(d.p99)],
          ["platform gateway (API key, activity)", fmtInt(g.rps), fmtMs(g.p50), fmtMs(g.p99)],
        ],
      ),
    );
    console.log(
      `gateway ÷ direct throughput: ${fmtRatio(g.rps / d.rps)}; added p50 latency ${fmtMs(g.p50 - d.p50)}`,
    );

    const colds: number[] = [];
    const agent = new Agent({ keepAlive: false });
    for (let i = 0; i < 5; i++) {
      await postGraphQL(agent, gateway, HELLO_BODY, HELLO_EXPECT);
      platform.sweepIdle(Date.now() + 24 * 3600_000);
      const t = performance.now();
      await postGraphQL(agent, gateway, HELLO_BODY, HELLO_EXPECT);
      colds.push(performance.now() - t);
    }
    colds.sort((a, b) => a - b);
    console.log(
      `cold start after scale-to-zero (first request through the gateway, median of 5): ${fmtMs(percentile(colds, 50))} (min ${fmtMs(colds[0])}, max ${fmtMs(colds[colds.length - 1])})`,
    );
  } finally {
    await dev.close();
    await direct.close();
    await platform.close();
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
