import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import { createGuardedFetch, type EgressOptions } from "@trellis/runtime";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { type Logger, pino } from "pino";
import { slashRoute } from "./admin/slash-route.ts";
import { activityRoutes } from "./api/activity-routes.ts";
import { adminAuth } from "./api/admin-auth.ts";
import { installApiErrorHandler } from "./api/api-errors.ts";
import { appRoutes } from "./api/app-routes.ts";
import { AuthThrottle, type AuthThrottleOptions } from "./api/auth-throttle.ts";
import { deploymentRoutes } from "./api/deployment-routes.ts";
import { envRoutes } from "./api/env-routes.ts";
import { federationRoutes } from "./api/federation-routes.ts";
import { graphRoutes } from "./api/graph-routes.ts";
import { keyRoutes } from "./api/key-routes.ts";
import type { AppRuntime } from "./app-runtime.ts";
import { DEFAULT_ARCHIVE_LIMITS } from "./deploy/build-archive.ts";
import { Deployer } from "./deploy/deployer.ts";
import { DeploymentStore } from "./deploy/deployment-store.ts";
import { displayHost } from "./display-host.ts";
import { AppInstances } from "./gateway/app-instances.ts";
import { gatewayRoutes } from "./gateway/gateway-routes.ts";
import { appLambdaCaller } from "./graph/app-lambdas.ts";
import { AppNamespaces } from "./graph/app-namespaces.ts";
import { openPlatformGraph } from "./graph/platform-graph.ts";
import type { GraphTenantLimits } from "./graph/tenant-bounds.ts";
import { PlatformMetrics } from "./metrics.ts";
import { metricsRoute, startMetricsListener } from "./metrics-endpoint.ts";
import type { PlatformContext } from "./platform-context.ts";
import { loadAdminToken } from "./secrets/admin-token.ts";
import { EnvCipher } from "./secrets/env-cipher.ts";
import { loadMasterKey } from "./secrets/master-key.ts";
import { securityHeaders } from "./security-headers.ts";
import { AppSites } from "./site/app-sites.ts";
import type { SiteLimits } from "./site/site-check.ts";
import { siteRoutes } from "./site/site-routes.ts";
import { siteUrl } from "./site/site-url.ts";
import { DEFAULT_RETENTION, type RetentionPolicy } from "./store/executions-table.ts";
import { MetadataStore } from "./store/metadata-store.ts";
import { openPgliteDb } from "./store/pglite-db.ts";
import { openPostgresDb } from "./store/postgres-db.ts";
import type { SqlDb } from "./store/sql-db.ts";
import { trustedProxies } from "./trust-proxy.ts";

export interface PlatformOptions {
  /** HTTP(S) port (default 8787; 0 picks a free one). */
  port?: number;
  /** Listen address (default 0.0.0.0). */
  host?: string;
  /** Metadata (PGlite), deployments, graph database, keys (default ./data/platform). */
  dataDir?: string;
  /** Admin token; default TRELLIS_ADMIN_TOKEN, else `<dataDir>/admin-token` (generated). */
  adminToken?: string;
  /** PostgreSQL URL for shared metadata (default TRELLIS_DATABASE_URL); embedded PGlite when absent. */
  databaseUrl?: string;
  /** PostgreSQL schema holding the metadata tables (default: the server's search_path). */
  databaseSchema?: string;
  /** Idle time before an app scales to zero (default TRELLIS_IDLE_TIMEOUT_MS, else 5 minutes). */
  idleMs?: number;
  /** How often idle apps are looked for (default min(idleMs, 30 s)). */
  idleSweepMs?: number;
  /** Activity retention (default: newest 10,000 per app, 7 days); pruned every `retentionSweepMs`. */
  retention?: RetentionPolicy;
  retentionSweepMs?: number;
  /**
   * The embedded graph database (default on, HTTP :8080, gRPC :9080, on 127.0.0.1), in a worker thread
   * whose heap is bounded by `memoryMb` (default DEFAULT_GRAPH_MEMORY_MB).
   */
  graphdb?: {
    httpPort?: number;
    grpcPort?: number;
    host?: string;
    enabled?: boolean;
    memoryMb?: number;
    /** What one app's namespace may do (defaults: DEFAULT_GRAPH_TENANT_LIMITS, graph/tenant-bounds.ts). */
    limits?: Partial<GraphTenantLimits>;
  };
  /** PEM text or file paths; serves HTTPS when given. */
  tls?: { cert: string; key: string };
  /** The console's built files (default console/dist of this repo, when present). */
  consoleDir?: string;
  /** App hosts are `<app>.<appDomain>` (default localhost). */
  appDomain?: string;
  /** Base of app URLs shown to users (default: this server's URL). */
  publicUrl?: string;
  /** Deployments kept per app (default 10). */
  keepDeployments?: number;
  /** Live previews per app (default 20). */
  maxPreviews?: number;
  /** Largest deployment upload in bytes (default 64 MiB). */
  maxUploadBytes?: number;
  /** Bounds of an app's static site (default 10,000 files, 100 MiB: `DEFAULT_SITE_LIMITS`). */
  siteLimits?: SiteLimits;
  /**
   * A separate listener serving `/metrics` without a token, for Prometheus (default: none; `/metrics` on
   * the main port always takes the admin token). Its host defaults to 127.0.0.1.
   */
  metrics?: { port: number; host?: string };
  /**
   * Reverse proxies whose `X-Forwarded-For` is believed (Fastify `trustProxy`: addresses, CIDRs,
   * `loopback`…, comma-separated). Without it every client behind a proxy has the proxy's address, and
   * the per-address backoff of failed token checks would make them all wait together.
   */
  trustProxy?: string;
  /** Backoff of failed token checks per client address (defaults: `DEFAULT_AUTH_THROTTLE`). */
  authThrottle?: Partial<AuthThrottleOptions>;
  /**
   * Where deployed apps may connect (their http, relationaldb, graphdb and model connections, JWKS
   * endpoints, `@custom(http:)` fields of their graph schema). Default: the `deployed` policy, which
   * refuses loopback, private, link-local and this machine's own addresses; `allow` opens CIDRs, IPs or
   * hostnames, each with an optional port (`--egress-allow`, `TRELLIS_EGRESS_ALLOW`).
   */
  egress?: EgressOptions;
  runtime: AppRuntime;
  logger?: Logger;
}

export interface RunningPlatform {
  url: string;
  adminToken: string;
  /** Where the admin token is kept; empty when it came from the options or the environment. */
  adminTokenFile: string;
  /** The embedded graph database's addresses (empty when not served) and the operator's groot password file. */
  graphdb: { httpUrl: string; grpcTarget: string; grootPasswordFile: string };
  /** The token-less metrics listener's `/metrics` URL; empty when `metrics` was not given. */
  metricsUrl: string;
  /** Unloads idle apps now (the sweeper does it periodically); returns their names. */
  sweepIdle(now?: number): string[];
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 5 * 60_000;

/** Starts the control plane, the app gateway, /admin/slash, the console and the embedded graph database. */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const logger =
    options.logger ?? pino({ name: "trellis-platform", level: process.env.TRELLIS_LOG_LEVEL ?? "info" });
  const dataDir = resolve(options.dataDir ?? "./data/platform");
  await mkdir(dataDir, { recursive: true });
  const idleMs = options.idleMs ?? envNumber("TRELLIS_IDLE_TIMEOUT_MS") ?? DEFAULT_IDLE_MS;
  const { token: adminToken, file: adminTokenFile } = await loadAdminToken(dataDir, options.adminToken);
  const masterKey = await loadMasterKey(dataDir);
  const cipher = new EnvCipher(masterKey);
  const databaseUrl = options.databaseUrl ?? process.env.TRELLIS_DATABASE_URL;
  const sql: SqlDb = databaseUrl
    ? await openPostgresDb(databaseUrl, { schema: options.databaseSchema })
    : await openPgliteDb(join(dataDir, "metadata"));
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse())
      await close().catch((err) => logger.warn({ err }, "shutdown step failed"));
  };
  try {
    const store = await MetadataStore.open(sql, cipher);
    closers.push(() => store.close());
    // Throws on an allow entry it cannot read, before anything serves.
    const egress = options.egress ?? {};
    const outboundFetch = createGuardedFetch(egress);
    closers.push(() => outboundFetch.close());

    const metrics = new PlatformMetrics();
    const graphOptions = options.graphdb ?? {};
    const graph = await openPlatformGraph({
      dataDir,
      masterKey,
      logger,
      serve: graphOptions.enabled !== false,
      httpPort: graphOptions.httpPort ?? 8080,
      grpcPort: graphOptions.grpcPort ?? 9080,
      host: graphOptions.host ?? "127.0.0.1",
      memoryMb: graphOptions.memoryMb,
      limits: graphOptions.limits,
      onRestart: () => metrics.graphRestarts.inc(),
      // Called once serving (ctx is set by then): the functions of the app owning the namespace.
      lambda: (request) => appLambdaCaller(ctx)(request),
      egress,
    });
    closers.push(() => graph.close());
    const graphdb = {
      httpUrl: graph.httpUrl,
      grpcTarget: graph.grpcTarget,
      grootPasswordFile: graph.grootPasswordFile,
    };
    const namespaces = await AppNamespaces.open(
      graph.operations,
      join(dataDir, "graph-namespaces.json"),
      masterKey,
      logger,
    );

    const files = new DeploymentStore(dataDir);
    const instances = new AppInstances({
      store,
      runtime: options.runtime,
      files,
      metrics,
      logger,
      idleMs,
      egress,
      // An app's graphdb connections to this machine reach its own namespace, as its groot.
      graphConnection: async (app) => {
        const { namespace, password } = await namespaces.of(app);
        return graph.connectionString(namespace, password);
      },
    });
    closers.push(() => instances.close());
    namespaces.onLost((app) => instances.invalidate(app));
    const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_ARCHIVE_LIMITS.maxCompressedBytes;
    const sites = new AppSites({ store, files, limits: options.siteLimits });
    const deployer = new Deployer({
      sites,
      siteLimits: options.siteLimits,
      store,
      runtime: options.runtime,
      files,
      instances,
      logger,
      keep: options.keepDeployments,
      maxPreviews: options.maxPreviews,
      limits: { ...DEFAULT_ARCHIVE_LIMITS, maxCompressedBytes: maxUploadBytes },
    });

    const https = options.tls ? { cert: pem(options.tls.cert), key: pem(options.tls.key) } : null;
    const server: FastifyInstance = Fastify({
      loggerInstance: logger,
      logController: new LogController({ disableRequestLogging: true }),
      https,
      trustProxy: options.trustProxy === undefined ? undefined : trustedProxies(options.trustProxy),
    }) as never;
    closers.push(() => server.close());
    let baseUrl = "";
    const ctx: PlatformContext = {
      store,
      instances,
      deployer,
      files,
      metrics,
      logger,
      graph: graph.operations,
      exportDir: join(dataDir, "exports"),
      namespaces,
      adminToken,
      authThrottle: new AuthThrottle(options.authThrottle),
      outboundFetch,
      appUrl: (app) => `${options.publicUrl ?? baseUrl}/apps/${app}/graphql`,
      sites,
      siteUrl: (app, preview) =>
        siteUrl(options.publicUrl ?? baseUrl, options.appDomain ?? "localhost", app, preview),
    };
    await registerRoutes(server, ctx, options, maxUploadBytes);

    const address = await server.listen({ port: options.port ?? 8787, host: options.host ?? "0.0.0.0" });
    const port = new URL(address).port;
    baseUrl = `${https ? "https" : "http"}://${displayHost(options.host ?? "0.0.0.0")}:${port}`;
    let metricsUrl = "";
    if (options.metrics) {
      const listener = await startMetricsListener(
        metrics.registry,
        options.metrics.port,
        options.metrics.host ?? "127.0.0.1",
      );
      closers.push(() => listener.close());
      metricsUrl = listener.url;
    }

    const sweepMs = options.idleSweepMs ?? Math.min(idleMs, 30_000);
    const idleTimer = setInterval(() => instances.sweepIdle(), sweepMs).unref();
    closers.push(async () => clearInterval(idleTimer));
    const retention = options.retention ?? DEFAULT_RETENTION;
    const pruneTimer = setInterval(
      () =>
        void store.pruneExecutions(retention).catch((err) => logger.warn({ err }, "activity pruning failed")),
      options.retentionSweepMs ?? 10 * 60_000,
    ).unref();
    closers.push(async () => clearInterval(pruneTimer));

    logger.info(
      {
        url: baseUrl,
        dataDir,
        metadata: databaseUrl ? "postgresql" : "pglite",
        egress: { mode: egress.mode ?? "deployed", allow: egress.allow ?? [] },
        ...graphdb,
        ...(metricsUrl ? { metricsUrl } : {}),
      },
      "trellis platform listening",
    );
    return {
      url: baseUrl,
      adminToken,
      adminTokenFile,
      graphdb,
      metricsUrl,
      sweepIdle: (now) => instances.sweepIdle(now),
      close: closeAll,
    };
  } catch (e) {
    await closeAll();
    if (closers.length === 0) await sql.close().catch(() => {});
    throw e;
  }
}

async function registerRoutes(
  server: FastifyInstance,
  ctx: PlatformContext,
  options: PlatformOptions,
  maxUploadBytes: number,
): Promise<void> {
  const security = { https: Boolean(options.tls), appDomain: options.appDomain ?? "localhost" };
  // Sites first: their answers skip the per-request security headers hook for a precomputed set.
  siteRoutes(server, ctx, security);
  await securityHeaders(server, security);
  metricsRoute(server, ctx);
  server.get("/health", async () => ({ status: "ok" }));

  await server.register(async (api) => {
    installApiErrorHandler(api);
    api.addContentTypeParser(
      ["application/gzip", "application/x-gzip", "application/octet-stream", "application/x-tar"],
      { parseAs: "buffer", bodyLimit: maxUploadBytes },
      (_req, body, done) => done(null, body),
    );
    api.addHook("onRequest", adminAuth(ctx));
    appRoutes(api, ctx);
    envRoutes(api, ctx);
    keyRoutes(api, ctx);
    deploymentRoutes(api, ctx, maxUploadBytes);
    activityRoutes(api, ctx);
    graphRoutes(api, ctx);
    federationRoutes(api, ctx);
  });
  gatewayRoutes(server, ctx, options.appDomain ?? "localhost");
  slashRoute(server, ctx, options.appDomain ?? "localhost");

  const consoleDir = options.consoleDir ?? defaultConsoleDir();
  if (consoleDir && existsSync(join(consoleDir, "index.html"))) {
    await server.register(fastifyStatic, { root: resolve(consoleDir), wildcard: false });
    // The console is a single-page app: unknown GET paths outside the APIs get index.html.
    server.setNotFoundHandler((request, reply) => {
      const path = request.url.split("?")[0];
      if (request.method === "GET" && !/^\/(api|apps|admin)\//.test(path))
        return reply.sendFile("index.html");
      return reply
        .code(404)
        .send({ error: { code: "NOT_FOUND", message: `no route ${request.method} ${path}` } });
    });
  } else {
    server.setNotFoundHandler((request, reply) =>
      reply
        .code(404)
        .send({ error: { code: "NOT_FOUND", message: `no route ${request.method} ${request.url}` } }),
    );
  }
}

/**
 * The console's Vite build: in a checkout of the repository (the package's src/ is there), console/dist;
 * in the published package, console-dist/, built into it when the package is packed
 * (scripts/package-assets.mjs).
 */
function defaultConsoleDir(): string | undefined {
  const inCheckout = existsSync(fileURLToPath(new URL("../src/", import.meta.url)));
  const dir = fileURLToPath(new URL(inCheckout ? "../../console/dist" : "../console-dist", import.meta.url));
  return existsSync(join(dir, "index.html")) ? dir : undefined;
}

/** PEM text as given, or read from the file it names. */
function pem(value: string): string {
  return value.includes("-----BEGIN") ? value : readFileSync(value, "utf8");
}

function envNumber(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`${name} must be a number of milliseconds, got "${value}"`);
  return n;
}
