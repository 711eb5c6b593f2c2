/**
 * Transport benchmark: the same point query (`{ q(func: uid(0x…)) { name } }`, read-only) over gRPC with
 * the official `dgraph-js` client and over HTTP — `dgraph-js-http` against Dgraph's `Connection: close`
 * default, `dgraph-js-http` against a keep-alive server, and a keep-alive `fetch` — plus bare grpc-js and
 * bare node:http calls (each stack's floor), all against one engine served from one child process (so
 * client and server do not share a CPU), in the same run.
 *
 *   npm run bench:graphdb:transport -- [--nodes N] [--seconds S] [--concurrency C] [--rounds R] [--quick]
 *
 * Prints queries/s, p50 and p99 per transport, one client sequentially and C requests in flight, the CPU
 * time per query of server and client, and the ratio gRPC ÷ best HTTP (target: ≥ 1).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import * as dgraphHttp from "dgraph-js-http";
import { createGraphDB } from "../../graphdb/src/index.ts";
import { dgraphServiceDefinition } from "../../graphdb/src/server/grpc/grpc-proto.ts";
import { createGrpcServer } from "../../graphdb/src/server/grpc/grpc-server.ts";
import { createHttpServer } from "../../graphdb/src/server/http-server.ts";
import { stopChild } from "./http-client.ts";
import { type LatencyStats, measure, summarize } from "./latency.ts";
import { Prng } from "./prng.ts";
import { log } from "./progress.ts";
import { fmtInt, fmtMs, fmtRatio, renderTable } from "./table.ts";

interface ChildReady {
  grpcPort: number;
  httpClosePort: number;
  httpKeepAlivePort: number;
  uids: string[];
}

// ---------------------------------------------------------------------------------------------
// Child: one engine, loaded with `nodes` named nodes, served over gRPC and two HTTP servers.

async function serve(dir: string, nodes: number): Promise<void> {
  const db = createGraphDB({ dir });
  await db.engine.alter({ schema: "name: string @index(exact) ." });
  const uids: string[] = [];
  const BATCH = 5_000;
  for (let start = 0; start < nodes; start += BATCH) {
    const end = Math.min(nodes, start + BATCH);
    const lines: string[] = [];
    for (let i = start; i < end; i++) lines.push(`_:n${i} <name> "Person ${i}" .`);
    const res = await db.engine.mutate({ mutations: [{ setNquads: lines.join("\n") }], commitNow: true });
    for (let i = start; i < end; i++) uids.push(res.uids[`n${i}`]);
  }
  const grpc = createGrpcServer(db.engine);
  const httpClose = createHttpServer(db.engine);
  const httpKeepAlive = createHttpServer(db.engine, { keepAlive: true });
  const ready: ChildReady = {
    grpcPort: (await grpc.listen(0, "127.0.0.1")).port,
    httpClosePort: (await httpClose.listen(0, "127.0.0.1")).port,
    httpKeepAlivePort: (await httpKeepAlive.listen(0, "127.0.0.1")).port,
    uids,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await Promise.all([grpc.close(), httpClose.close(), httpKeepAlive.close()]);
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.stdin.on("end", () => void shutdown());
  // Each line on stdin asks for the CPU time used so far (µs), so the parent can charge it per query.
  process.stdin.on("data", (chunk: Buffer) => {
    for (const _ of chunk.toString("utf8").split("\n").slice(1)) {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`${user + system}\n`);
    }
  });
}

interface Child {
  process: ChildProcess;
  ready: ChildReady;
  /** CPU time (user + system, µs) the server process has used so far. */
  cpuMicros(): Promise<number>;
}

async function startChild(dir: string, nodes: number): Promise<Child> {
  const script = fileURLToPath(import.meta.url);
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(
    process.execPath,
    [...extra, "--import", "tsx", script, "--serve", dir, String(nodes)],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  // stdout is line-based: the ready line, then one line per CPU-time request.
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buf = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiting.push(resolve);
    });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`server child exited with code ${code}`))),
  );
  exited.catch(() => {});
  const ready = JSON.parse(await Promise.race([nextLine(), exited])) as ChildReady;
  return {
    process: child,
    ready,
    async cpuMicros() {
      child.stdin!.write("cpu\n");
      return Number(await nextLine());
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Parent: the clients and the measurements.

interface Transport {
  id: string;
  /**
   * "client": how an app calls the server — the official npm clients, or plain `fetch` (the headline
   * comparison); "bare": lean hand-written calls over grpc-js and node:http, the floor of each stack.
   */
  kind: "client" | "bare";
  protocol: "grpc" | "http";
  label: string;
  /** Runs the point query for one uid; resolves with the `data` object. */
  query(uid: string): Promise<unknown>;
  close(): void;
}

function transports(ready: ChildReady): Transport[] {
  const grpcStub = new dgraph.DgraphClientStub(`127.0.0.1:${ready.grpcPort}`);
  const grpcClient = new dgraph.DgraphClient(grpcStub);
  const jsHttp = (port: number) =>
    new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(`http://127.0.0.1:${port}`));
  const httpClose = jsHttp(ready.httpClosePort);
  const httpKeepAlive = jsHttp(ready.httpKeepAlivePort);
  const fetchBase = `http://127.0.0.1:${ready.httpKeepAlivePort}/query?ro=true`;
  const q = (uid: string) => `{ q(func: uid(${uid})) { name } }`;

  // Bare gRPC: grpc-js with protobufjs codecs from the same api.proto (what a hand-rolled client does).
  const query = dgraphServiceDefinition().Query;
  const bareGrpc = new grpc.Client(`127.0.0.1:${ready.grpcPort}`, grpc.credentials.createInsecure());
  const bareGrpcQuery = (uid: string) =>
    new Promise<unknown>((resolve, reject) => {
      bareGrpc.makeUnaryRequest(
        "/api.Dgraph/Query",
        query.requestSerialize,
        query.responseDeserialize,
        { query: q(uid), read_only: true },
        (err, res) => {
          if (err) reject(err);
          else resolve(JSON.parse(((res as { json: Buffer }).json ?? Buffer.alloc(0)).toString("utf8")));
        },
      );
    });

  // Bare HTTP: node:http with a keep-alive agent, no compression.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const bareHttpQuery = (uid: string) =>
    new Promise<unknown>((resolve, reject) => {
      const body = Buffer.from(q(uid));
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: ready.httpKeepAlivePort,
          path: "/query?ro=true",
          method: "POST",
          agent,
          headers: { "content-type": "application/dql", "content-length": body.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
              data?: unknown;
              errors?: { message: string }[];
            };
            if (parsed.errors) reject(new Error(parsed.errors[0].message));
            else resolve(parsed.data);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  return [
    {
      id: "grpc",
      kind: "client",
      protocol: "grpc",
      label: "gRPC — dgraph-js",
      query: async (uid) => (await grpcClient.newTxn({ readOnly: true }).query(q(uid))).getJson(),
      close: () => grpcStub.close(),
    },
    {
      id: "http-close",
      kind: "client",
      protocol: "http",
      label: "HTTP — dgraph-js-http, Connection: close (Dgraph's default)",
      query: async (uid) => (await httpClose.newTxn({ readOnly: true }).query(q(uid))).data,
      close: () => {},
    },
    {
      id: "http-keepalive",
      kind: "client",
      protocol: "http",
      label: "HTTP — dgraph-js-http, keep-alive server",
      query: async (uid) => (await httpKeepAlive.newTxn({ readOnly: true }).query(q(uid))).data,
      close: () => {},
    },
    {
      id: "fetch-keepalive",
      kind: "client",
      protocol: "http",
      label: "HTTP — fetch (undici) keep-alive, /query",
      query: async (uid) => {
        const res = await fetch(fetchBase, {
          method: "POST",
          headers: { "content-type": "application/dql" },
          body: q(uid),
        });
        const body = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
        if (body.errors) throw new Error(body.errors[0].message);
        return body.data;
      },
      close: () => {},
    },
    {
      id: "grpc-bare",
      kind: "bare",
      protocol: "grpc",
      label: "gRPC — bare grpc-js + protobufjs",
      query: bareGrpcQuery,
      close: () => bareGrpc.close(),
    },
    {
      id: "http-bare",
      kind: "bare",
      protocol: "http",
      label: "HTTP — bare node:http keep-alive, /query",
      query: bareHttpQuery,
      close: () => agent.destroy(),
    },
  ];
}

/** `concurrency` loops issuing queries back to back for `ms`; every call's latency is recorded. */
async function concurrent(
  op: (i: number) => Promise<unknown>,
  concurrency: number,
  ms: number,
): Promise<LatencyStats> {
  // Warm-up: a short burst at the same concurrency (connections, JIT).
  const warmEnd = performance.now() + Math.min(1_000, ms / 4);
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmEnd) await op(i++);
    }),
  );
  const durations: number[] = [];
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op(i++);
        durations.push(performance.now() - t0);
      }
    }),
  );
  return summarize(durations, performance.now() - start);
}

/** A measurement plus the CPU time it cost the server and the client (this process), per query. */
interface Measured extends LatencyStats {
  serverMicrosPerQuery: number;
  clientMicrosPerQuery: number;
}

interface Result {
  transport: Transport;
  sequential: Measured;
  concurrent: Measured;
}

const best = (a: Measured | undefined, b: Measured) => (!a || b.opsPerSec > a.opsPerSec ? b : a);

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      nodes: { type: "string", default: "10000" },
      seconds: { type: "string", default: "5" },
      concurrency: { type: "string", default: "16" },
      rounds: { type: "string", default: "2" },
      seed: { type: "string", default: "42" },
      quick: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (args.help) {
    console.log(
      "usage: npm run bench:graphdb:transport -- [--nodes N] [--seconds S] [--concurrency C] [--rounds R] [--seed N] [--quick]",
    );
    return;
  }
  const quick = args.quick === true;
  const nodes = quick ? 2_000 : Number(args.nodes);
  const seconds = quick ? 1.5 : Number(args.seconds);
  const concurrency = Number(args.concurrency);
  const rounds = quick ? 1 : Number(args.rounds);
  const budgetMs = seconds * 1000;

  const loadBefore = loadavg()[0];
  log(
    `transport benchmark: ${fmtInt(nodes)} nodes, ${seconds}s per measurement, ${rounds} round(s) (best kept), ` +
      `concurrency ${concurrency}; ${cpus().length} CPUs, Node ${process.version}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "trellis-bench-transport-"));
  const child = await startChild(dir, nodes);
  const { ready } = child;
  const list = transports(ready);
  /** Runs a measurement and charges the server's CPU time to it (warm-up included: a slight overstatement). */
  const charged = async (run: () => Promise<LatencyStats>, calls: () => number): Promise<Measured> => {
    const cpu0 = await child.cpuMicros();
    const client0 = process.cpuUsage();
    const before = calls();
    const stats = await run();
    const client = process.cpuUsage(client0);
    const cpu1 = await child.cpuMicros();
    const n = calls() - before;
    return {
      ...stats,
      serverMicrosPerQuery: (cpu1 - cpu0) / n,
      clientMicrosPerQuery: (client.user + client.system) / n,
    };
  };
  try {
    const prng = new Prng(Number(args.seed));
    const params = Array.from({ length: 4096 }, () => ready.uids[prng.u32() % ready.uids.length]);

    // Cross-check: every transport returns the same data for the same uids.
    for (const uid of params.slice(0, 20)) {
      const expected = JSON.stringify(await list[0].query(uid));
      for (const t of list.slice(1)) {
        const got = JSON.stringify(await t.query(uid));
        if (got !== expected) throw new Error(`${t.id} returned ${got} for ${uid}, gRPC ${expected}`);
      }
    }
    log("cross-check: all transports return the same results");

    // Warm every transport (JIT, connections, the server's caches) before anything is timed, so the one
    // measured first is not penalised.
    const warmups = quick ? 1_000 : 3_000;
    for (const t of list) {
      for (let i = 0; i < warmups; i++) await t.query(params[i % params.length]);
      await concurrent((i) => t.query(params[i % params.length]), concurrency, quick ? 500 : 1_500);
    }
    log(`warm-up: ${fmtInt(warmups)} sequential queries and a concurrent burst per transport`);

    const results = new Map<string, { sequential?: Measured; concurrent?: Measured }>();
    for (let round = 0; round < rounds; round++) {
      // Alternate the order between rounds so drift (thermal, other load) does not favour one transport.
      const order = round % 2 === 0 ? list : [...list].reverse();
      for (const t of order) {
        let calls = 0;
        const op = (i: number) => {
          calls++;
          return t.query(params[i % params.length]);
        };
        const seq = await charged(
          () => measure(op, { warmup: 300, iterations: 1_000_000, budgetMs, minIterations: 100 }),
          () => calls,
        );
        const conc = await charged(
          () => concurrent(op, concurrency, budgetMs),
          () => calls,
        );
        const r = results.get(t.id) ?? {};
        r.sequential = best(r.sequential, seq);
        r.concurrent = best(r.concurrent, conc);
        results.set(t.id, r);
        log(
          `  round ${round + 1} ${t.label}: ${fmtInt(seq.opsPerSec)} q/s sequential (p50 ${fmtMs(seq.p50Ms)}), ` +
            `${fmtInt(conc.opsPerSec)} q/s at ${concurrency} in flight`,
        );
      }
    }

    const rows: Result[] = list.map((t) => {
      const r = results.get(t.id)!;
      return { transport: t, sequential: r.sequential!, concurrent: r.concurrent! };
    });
    // Each row is compared with the gRPC row of its kind (official clients, or bare code).
    const grpcOf = (kind: Transport["kind"]) =>
      rows.find((r) => r.transport.kind === kind && r.transport.protocol === "grpc")!;
    const header = [
      "transport",
      "q/s (1 client)",
      "p50",
      "p99",
      `q/s (${concurrency} in flight)`,
      "p50",
      "p99",
      "CPU/query server · client",
      "gRPC ÷ this (1 / many)",
    ];
    const table = renderTable(
      header,
      rows.map((r) => {
        const g = grpcOf(r.transport.kind);
        return [
          r.transport.label,
          fmtInt(r.sequential.opsPerSec),
          fmtMs(r.sequential.p50Ms),
          fmtMs(r.sequential.p99Ms),
          fmtInt(r.concurrent.opsPerSec),
          fmtMs(r.concurrent.p50Ms),
          fmtMs(r.concurrent.p99Ms),
          `${fmtInt(r.concurrent.serverMicrosPerQuery)} · ${fmtInt(r.concurrent.clientMicrosPerQuery)} µs`,
          r === g
            ? "–"
            : `${fmtRatio(g.sequential.opsPerSec / r.sequential.opsPerSec)} / ${fmtRatio(g.concurrent.opsPerSec / r.concurrent.opsPerSec)}`,
        ];
      }),
    );
    const verdict = (r: number) => (r >= 1 ? "PASS" : "MISS");
    const ratioLines = (["client", "bare"] as const).flatMap((kind) => {
      const g = grpcOf(kind);
      const http = rows.filter((r) => r.transport.kind === kind && r.transport.protocol === "http");
      const seq = g.sequential.opsPerSec / Math.max(...http.map((r) => r.sequential.opsPerSec));
      const conc = g.concurrent.opsPerSec / Math.max(...http.map((r) => r.concurrent.opsPerSec));
      const server =
        Math.min(...http.map((r) => r.concurrent.serverMicrosPerQuery)) / g.concurrent.serverMicrosPerQuery;
      if (kind === "client") {
        return [
          `target — gRPC (dgraph-js) ÷ best HTTP client, queries/s: one client ${fmtRatio(seq)} (${verdict(seq)}), ` +
            `${concurrency} in flight ${fmtRatio(conc)} (${verdict(conc)}); server CPU per query, best HTTP ÷ gRPC: ${fmtRatio(server)}`,
        ];
      }
      return [
        `info — bare grpc-js ÷ bare node:http, queries/s: one client ${fmtRatio(seq)}, ${concurrency} in flight ` +
          `${fmtRatio(conc)}; server CPU per query, HTTP ÷ gRPC: ${fmtRatio(server)} (the gap is mostly grpc-js's client-side cost)`,
      ];
    });
    console.log(
      [
        "",
        `Trellis graphdb transports — point query { q(func: uid(0x…)) { name } }, read-only, ${fmtInt(nodes)} nodes, ` +
          `Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}`,
        `1-min load average: ${loadBefore.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end. ` +
          "Server: one child process serving all transports from one engine. Latency includes client decoding.",
        `CPU/query: CPU time per query of the server process and of this (client) process, ${concurrency} in flight.`,
        "Dgraph answers HTTP with `Connection: close`, as Trellis does by default; the keep-alive rows use `keepAlive: true`.",
        "Best of the rounds per row; the target is gRPC ≥ HTTP (ratio ≥ 1).",
        "",
        table,
        "",
        ...ratioLines,
        "",
      ].join("\n"),
    );
  } finally {
    for (const t of list) t.close();
    await stopChild(child.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--serve") {
  await serve(process.argv[3], Number(process.argv[4]));
} else {
  await main();
}
