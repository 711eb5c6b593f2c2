/**
 * `trellis-platform`: runs the control plane, app gateway, console and embedded graph database until
 * SIGTERM/SIGINT. Flags override the environment.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pino } from "pino";
import type { AppRuntime } from "./app-runtime.ts";
import { deployDemoApp } from "./demo-app.ts";
import { type PlatformOptions, type RunningPlatform, startPlatform } from "./platform.ts";

export const USAGE = `Usage: trellis-platform [options]

Options:
  --port <port>             HTTP(S) port (env TRELLIS_PORT; default 8787)
  --host <address>          listen address (env TRELLIS_HOST; default 0.0.0.0)
  --data <dir>              data directory (env TRELLIS_DATA; default ./data/platform)
  --database-url <url>      PostgreSQL for shared metadata (env TRELLIS_DATABASE_URL; default embedded PGlite)
  --idle-timeout <ms>       scale an idle app to zero after this (env TRELLIS_IDLE_TIMEOUT_MS; default 300000)
  --tls-cert <file>         serve HTTPS with this certificate (env TRELLIS_TLS_CERT) ...
  --tls-key <file>          ... and key (env TRELLIS_TLS_KEY)
  --graphdb-port <port>     embedded graph database HTTP port (default 8080)
  --graphdb-grpc-port <p>   embedded graph database gRPC port (default 9080)
  --no-graphdb              do not expose the embedded graph database's ports
  --console-dir <dir>       the console's built files (default: the package's console-dist/; in a
                            checkout of the repository console/dist, built on first start)
  --metrics-port <port>     also serve /metrics without a token on this port (env TRELLIS_METRICS_PORT;
                            default: none, /metrics on the main port takes the admin token)
  --metrics-host <address>  listen address of --metrics-port (env TRELLIS_METRICS_HOST; default 127.0.0.1)
  --trust-proxy <list>      reverse proxies whose X-Forwarded-For gives the client address, e.g.
                            127.0.0.1 or 10.0.0.0/8 (env TRELLIS_TRUST_PROXY; default: none)
  --no-demo                 do not deploy the demo app on first start
  -h, --help                show this help

Secrets: TRELLIS_ADMIN_TOKEN (else <data>/admin-token; at least 32 characters: openssl rand -base64 32),
TRELLIS_MASTER_KEY (else <data>/master.key).
`;

type Parsed = Omit<PlatformOptions, "runtime"> & { help: boolean; demo: boolean };

export function parsePlatformArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Parsed {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      data: { type: "string" },
      "database-url": { type: "string" },
      "idle-timeout": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "graphdb-port": { type: "string" },
      "graphdb-grpc-port": { type: "string" },
      "no-graphdb": { type: "boolean" },
      "console-dir": { type: "string" },
      "metrics-port": { type: "string" },
      "metrics-host": { type: "string" },
      "trust-proxy": { type: "string" },
      "no-demo": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const num = (value: string | undefined, flag: string) => {
    if (value === undefined || value === "") return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${flag}: not a number: ${value}`);
    return Number(value);
  };
  const cert = values["tls-cert"] ?? env.TRELLIS_TLS_CERT;
  const key = values["tls-key"] ?? env.TRELLIS_TLS_KEY;
  if (Boolean(cert) !== Boolean(key)) throw new Error("--tls-cert and --tls-key go together");
  const metricsPort = num(values["metrics-port"] ?? env.TRELLIS_METRICS_PORT, "--metrics-port");
  const metricsHost = values["metrics-host"] ?? env.TRELLIS_METRICS_HOST;
  if (metricsHost && metricsPort === undefined)
    throw new Error("--metrics-host needs --metrics-port (the port of the token-less /metrics listener)");
  return {
    help: values.help ?? false,
    demo: !values["no-demo"],
    port: num(values.port ?? env.TRELLIS_PORT, "--port") ?? 8787,
    host: values.host ?? env.TRELLIS_HOST ?? "0.0.0.0",
    dataDir: values.data ?? env.TRELLIS_DATA ?? "./data/platform",
    databaseUrl: values["database-url"] ?? env.TRELLIS_DATABASE_URL,
    idleMs: num(values["idle-timeout"] ?? env.TRELLIS_IDLE_TIMEOUT_MS, "--idle-timeout"),
    tls: cert && key ? { cert, key } : undefined,
    graphdb: {
      enabled: !values["no-graphdb"],
      httpPort: num(values["graphdb-port"], "--graphdb-port"),
      grpcPort: num(values["graphdb-grpc-port"], "--graphdb-grpc-port"),
    },
    consoleDir: values["console-dir"],
    metrics: metricsPort === undefined ? undefined : { port: metricsPort, host: metricsHost || "127.0.0.1" },
    trustProxy: values["trust-proxy"] ?? (env.TRELLIS_TRUST_PROXY || undefined),
  };
}

/** Entry point of the bin; `runtime` is the function runtime that serves deployed apps. */
export async function runPlatformCli(argv: string[], runtime: () => Promise<AppRuntime>): Promise<void> {
  let parsed: Parsed;
  try {
    parsed = parsePlatformArgs(argv);
  } catch (e) {
    process.stderr.write(`trellis-platform: ${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const logger = pino({ name: "trellis-platform", level: process.env.TRELLIS_LOG_LEVEL ?? "info" });
  if (parsed.consoleDir === undefined) ensureConsoleBuilt(logger);
  let running: RunningPlatform;
  try {
    const { help: _help, demo: _demo, ...options } = parsed;
    running = await startPlatform({ ...options, runtime: await runtime(), logger });
  } catch (err) {
    logger.fatal({ err }, "failed to start");
    process.exitCode = 1;
    return;
  }
  const tokenHint = running.adminTokenFile ? `in ${running.adminTokenFile}` : "from TRELLIS_ADMIN_TOKEN";
  process.stdout.write(
    `\nTrellis is running.\n  Console:        ${running.url}/  (sign in with the admin token ${tokenHint})\n` +
      `  Graph database: ${running.graphdb.httpUrl} (gRPC ${running.graphdb.grpcTarget})\n` +
      (running.metricsUrl ? `  Metrics:        ${running.metricsUrl} (no token)\n` : ""),
  );
  if (parsed.demo) {
    try {
      const demo = await deployDemoApp({
        url: running.url,
        adminToken: running.adminToken,
        workDir: join(parsed.dataDir ?? "./data/platform", "demo-src"),
        onStep: (step) => logger.info(step),
      });
      if (demo) {
        process.stdout.write(
          `\nDeployed the demo app "${demo.app}" (first start):\n  Endpoint: ${demo.endpoint}\n` +
            `  API key:  ${demo.apiKey}  (shown once; manage keys in the console)\n  Try it:\n    ${demo.curl}\n\n`,
        );
      }
    } catch (err) {
      logger.warn({ err }, "could not deploy the demo app; the platform is running without it");
    }
  }
  // SIGTERM/SIGINT: stop accepting, let requests in flight finish, close every app (workers, SQL pools,
  // gRPC clients), the metadata store and the graph database, then exit; after SHUTDOWN_GRACE_MS, or on a
  // second signal, exit anyway.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, graceMs: SHUTDOWN_GRACE_MS }, "shutting down");
    setTimeout(() => {
      logger.error({ graceMs: SHUTDOWN_GRACE_MS }, "shutdown took too long: exiting anyway");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    running.close().then(
      () => {
        logger.info("shut down");
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, "error while shutting down");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

/** How long a shutdown may take before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Builds console/dist with Vite when it is missing (a fresh checkout's first `npm start`). */
function ensureConsoleBuilt(logger: { info(msg: string): void; warn(msg: string): void }): void {
  const consoleRoot = fileURLToPath(new URL("../../console/", import.meta.url));
  if (!existsSync(join(consoleRoot, "package.json")) || existsSync(join(consoleRoot, "dist", "index.html")))
    return;
  logger.info("building the console (first start)…");
  const result = spawnSync(
    process.execPath,
    [join(consoleRoot, "../node_modules/vite/bin/vite.js"), "build"],
    {
      cwd: consoleRoot,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  if (result.status !== 0) logger.warn("the console build failed: the API works, the web UI is unavailable");
}
