/**
 * `trellis-platform`: runs the control plane, app gateway, console and embedded graph database until
 * SIGTERM/SIGINT. Flags override the environment.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import type { AppRuntime } from "./app-runtime.ts";
import { type Parsed, parsePlatformArgs, USAGE } from "./cli-args.ts";
import { buildDemoApp, DEMO_APP, deployDemoApp } from "./demo-app.ts";
import { onLauncherGone } from "./launcher-link.ts";
import { permissionReport, underPermissionModel } from "./node-permissions.ts";
import { type RunningPlatform, startPlatform } from "./platform.ts";

/** What the command line sets for the function runtime. */
export interface RuntimeSettings {
  memoryLimits: Parsed["memoryLimits"];
}

/** Entry point of the bin; `runtime` is the function runtime that serves deployed apps. */
export async function runPlatformCli(
  argv: string[],
  runtime: (settings: RuntimeSettings) => Promise<AppRuntime>,
): Promise<void> {
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
  const dataDir = resolve(parsed.dataDir ?? "./data/platform");
  const demoWorkDir = join(dataDir, "demo-src");
  const restricted = underPermissionModel();
  // Under the permission model the launcher has built the console already (it cannot build it itself).
  if (!restricted && parsed.consoleDir === undefined) ensureConsoleBuilt(logger);
  let running: RunningPlatform;
  try {
    const { help: _help, demo: _demo, nodePermissions: _permissions, memoryLimits, ...options } = parsed;
    running = await startPlatform({ ...options, runtime: await runtime({ memoryLimits }), logger });
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
  logger.info({ permissions: permissionReport(dataDir) }, "node permission model");
  const prebuilt = join(demoWorkDir, DEMO_APP, "build");
  if (parsed.demo && (!restricted || existsSync(join(prebuilt, "app.wasm")))) {
    try {
      const demo = await deployDemoApp({
        url: running.url,
        adminToken: running.adminToken,
        workDir: demoWorkDir,
        ...(restricted ? { buildDir: prebuilt } : {}),
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
  // The launcher died without a signal to forward (SIGKILL, a crash): no orphan keeps the ports and store.
  onLauncherGone(() => {
    logger.warn("the trellis-platform launcher is gone");
    shutdown("SIGTERM");
  });
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

/**
 * What the server under the permission model may not do itself, done by the launcher's first child
 * beforehand: build the console (a fresh checkout) and the first-start demo app (copies and compiles).
 */
export async function preparePlatform(argv: string[]): Promise<void> {
  onLauncherGone(() => process.exit(1));
  const parsed = parsePlatformArgs(argv);
  const logger = pino({ name: "trellis-platform", level: process.env.TRELLIS_LOG_LEVEL ?? "info" });
  const dataDir = resolve(parsed.dataDir ?? "./data/platform");
  await mkdir(dataDir, { recursive: true });
  if (parsed.consoleDir === undefined) ensureConsoleBuilt(logger);
  if (parsed.demo) {
    await buildDemoApp(join(dataDir, "demo-src"), (step) => logger.info(step)).catch((err: unknown) =>
      logger.warn({ err }, "could not build the demo app; the platform starts without it"),
    );
  }
}
