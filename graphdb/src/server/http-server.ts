/**
 * Dgraph-compatible HTTP server over a GraphEngine: /query, /mutate, /commit, /alter, /login, /health,
 * /state, /assign (Zero's uid lease), /ui/keywords and /. Bodies are read raw (no Fastify parsing) so the routes control decoding,
 * limits and error texts exactly as Dgraph's handlers do.
 */

import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { type Logger, pino } from "pino";
import type { GraphEngine } from "../engine/engine-api.ts";
import { GraphQLService, type GraphQLServiceOptions } from "../graphql/graphql-service.ts";
import { apiEndpoint } from "./api-endpoint.ts";
import { DEFAULT_BODY_LIMIT } from "./body.ts";
import { ORIGINAL_CONTENT_TYPE } from "./content-type-header.ts";
import { type CorsOption, responseHeaders } from "./cors.ts";
import { DGRAPH_COMPAT_VERSION } from "./dgraph-compat-version.ts";
import { errorBody } from "./envelope.ts";
import {
  attachGraphQLWebSocket,
  DEFAULT_SUBSCRIPTION_LIMITS,
  type SubscriptionLimits,
} from "./graphql-websocket.ts";
import type { LoginThrottle, LoginThrottleOptions } from "./login-throttle.ts";
import { sendJson } from "./reply.ts";
import { alterHandler } from "./routes/alter.ts";
import { assignRoute } from "./routes/assign.ts";
import { commitHandler } from "./routes/commit.ts";
import { graphqlProbeRoute, graphqlRoute } from "./routes/graphql.ts";
import { adminRoute, adminSchemaRoute, adminSchemaValidateRoute } from "./routes/graphql-admin.ts";
import { healthRoute, stateRoute } from "./routes/health.ts";
import { loginHandler } from "./routes/login.ts";
import { mutateHandler } from "./routes/mutate.ts";
import { queryHandler } from "./routes/query.ts";
import { homeRoute, keywordsRoute } from "./routes/ui.ts";
import type { ServerContext } from "./server-context.ts";
import { serverGuards } from "./server-guards.ts";

export interface HttpServerOptions {
  /**
   * Enables ACL: /login (into a namespace), access JWTs on every DQL request, each served in its token's
   * namespace, groot/guardians in each namespace's graph.
   */
  acl?: boolean;
  /**
   * Every endpoint but /health and /login needs a valid access JWT: ACL (implied, so `aclSecret` is
   * required) plus /ui/keywords and the home page, which Dgraph leaves open.
   */
  requireAuth?: boolean;
  /**
   * Which web origins may read responses (CORS). Default: without ACL Dgraph's
   * `Access-Control-Allow-Origin: *`; with ACL no CORS headers. `"*"` is refused with ACL.
   */
  cors?: CorsOption;
  /** HMAC secret for the ACL JWTs (≥ 32 bytes); required when `acl` is on. */
  aclSecret?: Uint8Array;
  /** Access-token lifetime in ms (default 6 h). */
  aclAccessTtlMs?: number;
  /** Refresh-token lifetime in ms (default 30 days). */
  aclRefreshTtlMs?: number;
  /**
   * The throttle of failed logins (server/login-throttle.ts, on with ACL): its settings (defaults
   * `DEFAULT_LOGIN_THROTTLE`), one instance shared with the other transport's server, or `false` for none.
   */
  loginThrottle?: Partial<LoginThrottleOptions> | LoginThrottle | false;
  /** Shared secret required in `X-Dgraph-AuthToken` for /alter. */
  authToken?: string;
  /** Maximum request body in bytes, before and after gunzip (default 32 MiB). */
  bodyLimit?: number;
  /** Structured logger; requests are logged at debug, one line each. */
  logger?: Logger;
  /** Version reported by /health (default DGRAPH_COMPAT_VERSION). */
  version?: string;
  /**
   * Keep connections open between requests. Off by default: Dgraph answers every API request with
   * `Connection: close`; turn it on when clients (benchmarks, proxies) reuse connections.
   */
  keepAlive?: boolean;
  /** Where `/admin` `export` writes (default `./export`, as Dgraph's `--export`). */
  exportDir?: string;
  /**
   * GraphQL subscriptions (operations over WebSocket) running at once: per connection (default 100) and
   * on the server (default 10,000).
   */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /** The GraphQL API's options: lambda server, limits, time budget. */
  graphql?: GraphQLServiceOptions;
}

export interface HttpServer {
  /** Prepares ACL state (groot) and starts listening; port 0 picks a free port. */
  listen(port: number, host: string): Promise<{ port: number }>;
  /** Stops accepting requests and waits for in-flight ones. Does not close the engine. */
  close(): Promise<void>;
}

const API_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

export function createHttpServer(engine: GraphEngine, options: HttpServerOptions = {}): HttpServer {
  const guards = serverGuards(engine, options);
  const { acl } = guards;
  const ctx: ServerContext = {
    engine,
    graphql: new GraphQLService(engine, options.graphql),
    logger: options.logger ?? pino({ level: "silent" }),
    acl,
    requireAuth: options.requireAuth ?? false,
    guards,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    exportDir: resolve(options.exportDir ?? "export"),
    version: options.version ?? DGRAPH_COMPAT_VERSION,
    startedAt: Date.now(),
    clusterId: randomUUID(),
    draining: false,
    address: "",
    responseHeaders: responseHeaders({
      cors: options.cors,
      acl: acl !== undefined,
      keepAlive: options.keepAlive ?? false,
    }),
  };
  const app = buildApp(ctx);
  const closeWebSockets = attachGraphQLWebSocket(app.server, ctx, {
    ...DEFAULT_SUBSCRIPTION_LIMITS,
    ...options.subscriptionLimits,
  });

  return {
    async listen(port, host) {
      if (acl) await acl.ensureGroot();
      await app.listen({ port, host });
      const address = app.server.address() as AddressInfo;
      ctx.address = `${host}:${address.port}`;
      return { port: address.port };
    },
    async close() {
      ctx.draining = true;
      closeWebSockets();
      await app.close();
    },
  };
}

/** Fastify gets no logger of its own: the server logs one line per request (debug) and errors, itself. */
function buildApp(ctx: ServerContext): FastifyInstance {
  const app = Fastify({
    exposeHeadRoutes: false,
    // Bodies are read by the routes themselves (see body.ts), so Fastify's limit never applies.
    bodyLimit: Number.MAX_SAFE_INTEGER,
  });

  app.removeAllContentTypeParsers();
  // Hand every body over unread; an empty Content-Type header would otherwise be a Fastify 415.
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));
  app.addHook("onRequest", async (request) => {
    // Fastify rejects malformed media types with a 500 before any route runs; the routes parse the header
    // themselves (Go's rules, Dgraph's error texts), so hand Fastify a neutral type and keep the original.
    const original = request.headers["content-type"];
    if (original === undefined) return;
    if (original !== "") request.headers[ORIGINAL_CONTENT_TYPE] = original;
    request.headers["content-type"] = "application/octet-stream";
  });

  app.addHook("onResponse", async (request, reply) => {
    ctx.logger.debug(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
        remote: request.ip,
      },
      "request",
    );
  });

  const endpoints = {
    "/query": queryHandler,
    "/mutate": mutateHandler,
    "/commit": commitHandler,
    "/alter": alterHandler,
    "/login": loginHandler,
  };
  for (const [url, handler] of Object.entries(endpoints)) {
    app.route({ method: [...API_METHODS], url, handler: apiEndpoint(ctx, handler) });
  }
  app.route({ method: [...API_METHODS], url: "/graphql", handler: graphqlRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/probe/graphql", handler: graphqlProbeRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/admin", handler: adminRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/admin/schema", handler: adminSchemaRoute(ctx) });
  app.route({
    method: [...API_METHODS],
    url: "/admin/schema/validate",
    handler: adminSchemaValidateRoute(ctx),
  });
  app.route({ method: [...API_METHODS], url: "/health", handler: healthRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/state", handler: stateRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/assign", handler: assignRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/ui/keywords", handler: keywordsRoute(ctx) });
  app.route({ method: [...API_METHODS], url: "/", handler: homeRoute(ctx) });

  app.setNotFoundHandler((request, reply) => {
    request.raw.resume();
    return reply.code(404).header("content-type", "text/plain; charset=utf-8").send("404 page not found\n");
  });
  app.setErrorHandler((error, request, reply) => {
    ctx.logger.error({ err: error, reqId: request.id }, "unhandled server error");
    return sendJson(reply.code(500), errorBody((error as Error)?.message ?? String(error), "Error", false));
  });
  return app;
}
