/**
 * `trellis dev`: builds the app, starts the embedded graph database (so a `graphdb` connection to
 * localhost:9080 works with no setup), serves the app on 127.0.0.1:8686 with /explorer, and rebuilds on
 * change (debounced). A rebuild or an edit of trellis.json / .env files swaps the app in place; a failed
 * build keeps the last good app serving and shows the error at the endpoint and in the terminal.
 * Connections run under the permissive egress policy (this is the developer's own machine: a local
 * database or model server is fine), and the terminal says so once.
 */
import { existsSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { join, relative, resolve, sep } from "node:path";
import {
  type LambdaCaller,
  parseGraphDBArgs,
  type RunningGraphDBServer,
  startGraphDBServer,
} from "@trellis/graphdb";
import {
  type BuildStatus,
  buildApp,
  createGuardedFetch,
  createJwtVerifier,
  type DevServer,
  type ExecutionRecord,
  envFileNames,
  type JwtVerifier,
  type LoadedApp,
  loadApp,
  loadEnvFiles,
  loadManifest,
  PERMISSIVE_EGRESS,
  startDevServer,
} from "@trellis/runtime";
import { watch } from "chokidar";
import pc from "picocolors";
import { pino } from "pino";
import type { Terminal } from "./terminal.ts";

/** The one line `trellis dev` prints about where the app's connections may go. */
export const DEV_EGRESS_NOTICE =
  "egress: permissive (trellis dev) — deployed apps may not reach loopback or private addresses unless the platform operator allows them";

export interface DevOptions {
  port: number;
  host: string;
  watch: boolean;
  delay: number;
  build: boolean;
  graphdb: boolean;
  graphdbPort: number;
  graphdbGrpcPort: number;
  graphdbData: string;
}

export interface DevSession {
  url: string;
  graphdb?: { httpPort: number; grpcPort: number };
  /** Resolves after the next rebuild/reload settles (for tests and scripts). */
  reloaded(): Promise<void>;
  close(): Promise<void>;
}

const IGNORED_DIRS = new Set(["build", "node_modules", ".git", "data"]);

export async function startDev(
  appDirInput: string,
  options: DevOptions,
  term: Terminal,
): Promise<DevSession> {
  const appDir = resolve(appDirInput);
  const buildDir = join(appDir, "build");
  // A busy port is said at once, with the flag that moves it, not after a build.
  await assertPortFree(options.host, options.port, "--port");
  if (options.graphdb) {
    await assertPortFree("127.0.0.1", options.graphdbPort, "--graphdb-port");
    await assertPortFree("127.0.0.1", options.graphdbGrpcPort, "--graphdb-grpc-port");
  }
  let status: BuildStatus = { ok: true, at: new Date().toISOString() };
  let app: LoadedApp | undefined;
  let jwt: JwtVerifier | undefined;
  let devServer: DevServer | undefined;
  let graphdb: RunningGraphDBServer | undefined;

  // The front end (trellis.json "web"), served by Vite through the dev server; a broken manifest is
  // reported by the first build.
  const web = await loadManifest(appDir).then(
    ({ manifest }) => manifest.web,
    () => undefined,
  );
  const webRoot = web && resolve(appDir, web.root);
  const jwksFetch = createGuardedFetch(PERMISSIVE_EGRESS);

  const logExecution = (e: ExecutionRecord) => {
    devServer?.recordExecution(e);
    const mark = e.status === "success" ? pc.green("✔") : pc.red("✖");
    term.info(
      `${pc.dim(new Date().toLocaleTimeString())} ${mark} ${e.lambda ? `${e.lambda} → ` : ""}${e.function} ${pc.dim(`${e.durationMs} ms ${e.executionId}`)}${e.error ? ` ${pc.red(e.error.message)}` : ""}`,
    );
    for (const log of e.logs) term.info(pc.dim(`    [${log.level}] ${log.message}`));
  };

  const build = async () => {
    const summary = await term.step("Building", () => buildApp(appDir, { frontEnd: "types" }));
    for (const w of summary.warnings) term.warn(w);
  };

  const reload = async (rebuild: boolean) => {
    try {
      if (rebuild) await build();
      const env = loadEnvFiles(appDir, "dev");
      const next = await term.step("Loading", () =>
        loadApp(buildDir, {
          env,
          onExecution: logExecution,
          egress: PERMISSIVE_EGRESS,
          // As on the platform: an app whose connections lack variables loads; only calls through those
          // connections fail (saying which variable to set in .env.dev.local).
          missingSecrets: "defer",
          // As on the platform: the app's graphdb connections to a loopback address reach the database
          // this session started, on whichever port it was given.
          loopbackGraphdb: graphdb && `127.0.0.1:${graphdb.grpcPort}`,
        }),
      );
      const previous = app;
      app = next;
      jwt = createJwtVerifier(env, { fetch: jwksFetch });
      if (jwt.problem && next.endpoints.some((e) => e.auth === "jwt")) term.warn(jwt.problem);
      status = { ok: true, at: new Date().toISOString() };
      for (const notice of next.manifest.notices) term.warn(notice);
      for (const v of next.missingSecrets) {
        term.warn(
          `${v.variable} is not set: calls through connection "${v.connection}" fail until it is ` +
            `(add ${v.variable}="…" to .env.dev.local)`,
        );
      }
      await previous?.close();
    } catch (e) {
      status = { ok: false, message: (e as Error).message, at: new Date().toISOString() };
      term.error((e as Error).message);
      if (app) term.warn("still serving the last good build");
    }
  };

  // The embedded database's @lambda fields call the app loaded now: after a rebuild, the new code.
  const lambda: LambdaCaller = (request) =>
    app
      ? app.lambda(request)
      : Promise.reject(new Error("the app is not loaded (its build failed): fix it, see the terminal"));

  try {
    if (options.graphdb) {
      const config = parseGraphDBArgs([], {});
      config.dataDir = resolve(appDir, options.graphdbData);
      config.port = options.graphdbPort;
      config.grpcPort = options.graphdbGrpcPort;
      config.host = "127.0.0.1";
      config.logLevel = "warn";
      graphdb = await term.step(`Starting the graph database on :${options.graphdbGrpcPort} (gRPC)`, () =>
        startGraphDBServer(config, pino({ level: "warn" }), { lambda }),
      );
    }
    if (options.build || !existsSync(buildDir)) await reload(true);
    else await reload(false);
    devServer = await startDevServer({
      ...(web && webRoot ? { web: { root: webRoot, spaFallback: web.spaFallback } } : {}),
      port: options.port,
      host: options.host,
      buildStatus: () => status,
      getApp: () =>
        app && {
          name: app.name,
          world: app.world,
          sdl: app.sdl,
          graphql: app,
          endpoints: app.endpoints,
          jwt,
          testConnections: () => app?.testConnections() ?? Promise.resolve([]),
        },
    });
  } catch (e) {
    await app?.close();
    await graphdb?.stop();
    throw e;
  }

  const url = devServer.url;
  term.info(`\n${pc.bold("Your local endpoint is ready!")}`);
  for (const ep of app?.endpoints ?? [{ path: "/graphql" }])
    term.info(`  • GraphQL: ${pc.cyan(`${url}${ep.path}`)}`);
  term.info(`  • Explorer: ${pc.cyan(`${url}/explorer`)}`);
  if (webRoot)
    term.info(`  • Front end: ${pc.cyan(`${url}/`)} ${pc.dim(`(Vite, from ${relative(appDir, webRoot)}/)`)}`);
  if (graphdb)
    term.info(`  • Graph database: http://127.0.0.1:${graphdb.port} (gRPC 127.0.0.1:${graphdb.grpcPort})`);
  term.info(pc.dim(`  ${DEV_EGRESS_NOTICE}`));
  term.info("");

  let pending: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let needsBuild = false;
  const schedule = (rebuild: boolean) => {
    needsBuild ||= rebuild;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const rebuildNow = needsBuild;
      needsBuild = false;
      pending = pending.then(() => reload(rebuildNow));
    }, options.delay);
  };
  const envFiles = new Set(envFileNames("dev"));
  const watcher = options.watch
    ? watch(appDir, {
        ignoreInitial: true,
        // build/ and the build's staging folder (build.staging-<pid>) are outputs, not sources.
        // The front end is Vite's to watch (it regenerates nothing the functions use).
        ignored: (path) =>
          (webRoot !== undefined && !relative(webRoot, path).startsWith("..")) ||
          relative(appDir, path)
            .split(sep)
            .some((part) => IGNORED_DIRS.has(part) || part.startsWith("build.staging-")),
      })
    : undefined;
  watcher?.on("all", (_event, path) => {
    if (process.env.TRELLIS_DEBUG_WATCH) term.info(`watch ${_event} ${path}`);
    const rel = relative(appDir, path);
    if (envFiles.has(rel)) schedule(false);
    // Generated Go glue (trellis_exports_gen.go) is the build's output, not a source.
    else if (
      rel === "trellis.json" ||
      (/\.(ts|js|mjs|go|mod|json|wit)$/.test(rel) && !rel.endsWith("_gen.go"))
    )
      schedule(true);
  });
  if (watcher) await new Promise<void>((r) => watcher.once("ready", () => r()));

  return {
    url,
    graphdb: graphdb && { httpPort: graphdb.port, grpcPort: graphdb.grpcPort },
    async reloaded() {
      // Wait for the debounce to fire, then for the reload chain to drain.
      while (timer !== undefined) await new Promise((r) => setTimeout(r, 25));
      let current: Promise<void>;
      do {
        current = pending;
        await current;
      } while (current !== pending || timer !== undefined);
    },
    async close() {
      if (timer) clearTimeout(timer);
      await watcher?.close();
      await pending;
      await devServer?.close();
      await app?.close();
      await graphdb?.stop();
    },
  };
}

/** Runs until Ctrl-C. */
export async function runDev(appDir: string, options: DevOptions, term: Terminal): Promise<void> {
  const session = await startDev(appDir, options, term);
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      term.info("\nStopping…");
      session.close().then(resolveStop, resolveStop);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/**
 * Fails with one line naming `flag` when `port` (0: any, never busy) cannot be listened on at `host`.
 * Another program may still take it before the session does; the listen itself then fails.
 */
async function assertPortFree(host: string, port: number, flag: string): Promise<void> {
  if (port === 0) return;
  const server = createNetServer();
  const error = await new Promise<NodeJS.ErrnoException | undefined>((done) => {
    server.once("error", (e: NodeJS.ErrnoException) => done(e));
    server.listen({ port, host, exclusive: true }, () => done(undefined));
  });
  if (error === undefined) {
    await new Promise((closed) => server.close(closed));
    return;
  }
  if (error.code === "EADDRINUSE") {
    throw new Error(`port ${port} is in use: stop what listens there, or choose another with ${flag} <port>`);
  }
  if (error.code === "EACCES") {
    throw new Error(`port ${port} needs privileges to listen on: choose another with ${flag} <port>`);
  }
  throw new Error(`cannot listen on ${host}:${port} (${error.message}): choose another with ${flag} <port>`);
}
