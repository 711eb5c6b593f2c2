import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JwtRejected, type JwtVerifier, looksLikeJwt } from "../auth/jwt-verifier.ts";
import type { ExecutionRecord } from "../graphql/execution-record.ts";
import type { RequestAuth } from "../graphql/graphql-handler.ts";
import { startWebDevServer, type WebDevServer } from "../web/vite-dev-server.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import { DevMetrics } from "./dev-metrics.ts";
import { explorerCatalog } from "./explorer-catalog.ts";
import { explorerPageHtml } from "./explorer-page.ts";
import { foreignRequestReason } from "./request-origin.ts";

/**
 * The `trellis dev` HTTP server (default 127.0.0.1:8686): the app's GraphQL endpoints, the API explorer,
 * /health and /metrics. It holds no app of its own: `getApp()` returns whatever the watch loop last built,
 * so a rebuild swaps the app without restarting the server. GET/POST only, and only for its own pages and
 * clients without an Origin (curl, server-side code): cross-origin browser requests get 403 and no CORS
 * headers are sent (`foreignRequestReason`), so other web pages can neither call nor read it. With `web`,
 * every other path goes to the app's front end through Vite's dev server (middleware mode, its hot-reload
 * websocket on this same server), so the page and its `/graphql` share one origin.
 */
export interface DevApp {
  name: string;
  world: AppWorld;
  sdl: string;
  /** Serves a request to one of `endpoints` (its path: one that lists functions serves only those). */
  graphql: { fetch(req: Request, auth?: RequestAuth, endpointPath?: string): Promise<Response> };
  endpoints: { name: string; path: string; auth: "none" | "bearer-token" | "jwt" }[];
  /**
   * Checks the JWTs sent to `auth: "jwt"` endpoints, with the keys of the app's env (`createJwtVerifier`).
   * Like API keys, a token is not required in dev; one that is sent is verified once keys are configured,
   * and its claims reach the functions (`jwt-claims`). Without keys a token is not verified and its claims
   * do not reach them.
   */
  jwt?: JwtVerifier;
  testConnections(): Promise<ConnectionTestResult[]>;
}

export interface ConnectionTestResult {
  name: string;
  type: string;
  reachable: boolean;
  authenticated: boolean | null;
  detail: string;
  ms: number;
}

export interface BuildStatus {
  ok: boolean;
  message?: string;
  at: string;
}

export interface DevServerOptions {
  port: number;
  host?: string;
  getApp: () => DevApp | undefined;
  buildStatus?: () => BuildStatus;
  /** Metrics to expose; a fresh set by default. */
  metrics?: DevMetrics;
  /** Reported by /health; the runtime package version by default. */
  version?: string;
  /**
   * The app's front end, served at every other path: its Vite project folder (`web.root`, absolute), and
   * whether paths that match no file get index.html (`web.spaFallback`, default true).
   */
  web?: { root: string; spaFallback?: boolean };
}

export interface DevServer {
  url: string;
  metrics: DevMetrics;
  /** Counts a function execution in /metrics (wire to the GraphQL handler's `onExecution`). */
  recordExecution(e: ExecutionRecord): void;
  close(): Promise<void>;
}

const DEFAULT_ENDPOINT = "/graphql";
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const ALLOWED_METHODS = "GET, POST, OPTIONS";
/** On every response: the explorer runs mutations on a click, so no other page may frame it. */
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
};

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const host = options.host ?? "127.0.0.1";
  const metrics = options.metrics ?? new DevMetrics();
  const version = options.version ?? runtimeVersion();

  /** Set once listening (requests arrive only then): the port the Origin check compares with. */
  const listening = { port: options.port };
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${(e as Error)?.message ?? e}` });
      else res.destroy();
    });
  });

  const web: WebDevServer | undefined = options.web && (await startWebDevServer(options.web, server));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const refused = foreignRequestReason(req, { host, port: listening.port });
    if (refused) return sendJson(res, 403, { error: refused });
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? `${host}`}`);
    const path = url.pathname;
    if (path === "/health" || path === "/metrics") return serveOps(path, method, res);

    const app = options.getApp();
    const endpointPaths = app ? app.endpoints.map((e) => e.path) : [DEFAULT_ENDPOINT];
    const route = endpointPaths.includes(path) ? path : path.startsWith("/explorer") ? "/explorer" : "other";
    const done = metrics.startRequest(method, route);
    res.on("close", () => done(res.statusCode));

    if (method === "OPTIONS") return void res.writeHead(204, { allow: ALLOWED_METHODS }).end();
    if (method !== "GET" && method !== "POST") {
      return sendJson(res, 405, { error: `method ${method} not allowed` }, { allow: ALLOWED_METHODS });
    }
    if (endpointPaths.includes(path)) return serveGraphQL(req, res, url, app);
    if (path === "/explorer" || path === "/explorer/") {
      if (method !== "GET") return sendJson(res, 405, { error: "use GET" }, { allow: "GET" });
      return send(res, 200, "text/html; charset=utf-8", explorerPageHtml());
    }
    if (path.startsWith("/explorer/api/"))
      return serveExplorerApi(path.slice("/explorer/api/".length), res, app);
    if (web) return web.handle(req, res, () => sendJson(res, 404, { error: `no route for ${path}` }));
    if (path === "/") return redirect(res, "/explorer/");
    if (path === "/favicon.ico") return void res.writeHead(204).end();
    return sendJson(res, 404, { error: `no route for ${path}` });
  }

  async function serveOps(path: string, method: string, res: ServerResponse): Promise<void> {
    if (method === "OPTIONS") return void res.writeHead(204).end();
    if (method !== "GET") return sendJson(res, 405, { error: "use GET" }, { allow: "GET" });
    if (path === "/metrics") {
      const { contentType, body } = await metrics.render();
      return send(res, 200, contentType, body);
    }
    const app = options.getApp();
    return sendJson(res, 200, {
      status: "ok",
      app: app?.name ?? null,
      environment: "dev",
      version,
      ...(options.buildStatus ? { build: options.buildStatus() } : {}),
    });
  }

  async function serveGraphQL(req: IncomingMessage, res: ServerResponse, url: URL, app: DevApp | undefined) {
    const accept = req.headers.accept ?? "";
    // A browser opening the endpoint gets the explorer (Modus does the same in dev).
    if (req.method === "GET" && !/json|event-stream/.test(accept) && !url.searchParams.has("query")) {
      return redirect(res, "/explorer/");
    }
    if (!app) {
      const status = options.buildStatus?.();
      const why = status
        ? status.ok
          ? "the app is being built"
          : `the last build failed: ${status.message ?? "unknown error"}`
        : "the app is being built";
      return sendJson(res, 503, {
        errors: [
          {
            message: `No app is loaded: ${why}. Fix the error and save; trellis dev rebuilds on change.`,
            extensions: { code: "APP_NOT_LOADED" },
          },
        ],
      });
    }
    const jwt = await checkJwt(req, url.pathname, app);
    if ("refused" in jwt) {
      return sendJson(res, 401, {
        errors: [{ message: jwt.refused, extensions: { code: "UNAUTHENTICATED" } }],
      });
    }
    const body = req.method === "POST" ? await readBody(req) : undefined;
    if (body === null) return sendJson(res, 413, { errors: [{ message: "request body too large" }] });
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    }
    const response = await app.graphql.fetch(
      new Request(url, { method: req.method, headers, ...(body ? { body: new Uint8Array(body) } : {}) }),
      jwt,
      url.pathname,
    );
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => {
      if (!k.startsWith("access-control-")) out[k] = v;
    });
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function serveExplorerApi(name: string, res: ServerResponse, app: DevApp | undefined) {
    const notLoaded = app ? undefined : "No app is loaded yet (see the terminal running trellis dev).";
    switch (name) {
      case "endpoints":
        return sendJson(res, 200, {
          endpoints: (app?.endpoints ?? [{ name: "default", path: DEFAULT_ENDPOINT, auth: "none" }]).map(
            (e) => ({
              type: "GraphQL",
              ...e,
            }),
          ),
        });
      case "functions":
        if (!app) return sendJson(res, 503, { functions: [], enums: {}, error: notLoaded });
        return sendJson(res, 200, { app: app.name, ...explorerCatalog(app.world) });
      case "connections": {
        if (!app) return sendJson(res, 503, { connections: [], error: notLoaded });
        try {
          return sendJson(res, 200, { connections: await app.testConnections() });
        } catch (e) {
          return sendJson(res, 500, {
            connections: [],
            error: `testing connections failed: ${(e as Error).message}`,
          });
        }
      }
      case "sdl":
        if (!app) return sendJson(res, 503, { error: notLoaded });
        return send(res, 200, "text/plain; charset=utf-8", app.sdl);
      default:
        return sendJson(res, 404, { error: `no explorer API "${name}"` });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch(async (e: unknown) => {
    await web?.close();
    throw e;
  });
  const address = server.address() as AddressInfo;
  listening.port = address.port;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}`,
    metrics,
    recordExecution: (e) => metrics.recordExecution(e),
    close: async () => {
      await web?.close();
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The JWT sent to an `auth: "jwt"` endpoint: its verified claims, why it is refused, or nothing when no
 * check applies.
 */
async function checkJwt(
  req: IncomingMessage,
  path: string,
  app: DevApp,
): Promise<RequestAuth | { refused: string }> {
  const endpoint = app.endpoints.find((e) => e.path === path);
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  if (endpoint?.auth !== "jwt" || !token || !looksLikeJwt(token) || !app.jwt?.configured) return {};
  try {
    return { jwtClaims: await app.jwt.verify(token) };
  } catch (e) {
    if (e instanceof JwtRejected) return { refused: `invalid API key or token: ${e.message}` };
    throw e;
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string, extra = {}): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  extra: Record<string, string> = {},
): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value), extra);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, "content-length": 0 }).end();
}

/** The request body, or null when it exceeds MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function runtimeVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}
