/**
 * Dgraph's gRPC API (`api.Dgraph`: Login, Query, Alter, CommitOrAbort, CheckVersion, and v25's
 * CreateNamespace, DropNamespace, ListNamespaces) over a GraphEngine, so the unchanged `dgraph-js` client
 * and Dgraph's other gRPC clients work. It calls the same engine as the HTTP server — one engine, two
 * transports: a transaction begun over HTTP can be continued over gRPC — and the same access checks
 * (`guardEngine`): the ACL JWT comes in the `accessjwt` metadata (each call runs in its namespace), the
 * poor-man's-auth secret in `auth-token`. With ACL every method but Login and CheckVersion needs a token.
 *
 * Each method is one file under methods/ (a handler over the shared GrpcContext); this file assembles them.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { type Logger, pino } from "pino";
import type { GraphEngine } from "../../engine/engine-api.ts";
import { DEFAULT_BODY_LIMIT } from "../body.ts";
import { DGRAPH_COMPAT_VERSION } from "../dgraph-compat-version.ts";
import type { LoginThrottle, LoginThrottleOptions } from "../login-throttle.ts";
import { serverGuards } from "../server-guards.ts";
import type { GrpcContext } from "./grpc-context.ts";
import { dgraphServiceDefinition } from "./grpc-proto.ts";
import { alter } from "./methods/alter.ts";
import { checkVersion } from "./methods/check-version.ts";
import { commitOrAbort } from "./methods/commit-or-abort.ts";
import { login } from "./methods/login.ts";
import { createNamespace, dropNamespace, listNamespaces } from "./methods/namespaces.ts";
import { query } from "./methods/query.ts";
import { serviceWithCodecs } from "./service-codecs.ts";
import { unary } from "./unary-call.ts";

export interface GrpcServerOptions {
  /**
   * Enables ACL: Login (into a namespace), access JWTs on every call but Login and CheckVersion, each
   * served in its token's namespace, groot/guardians in each namespace's graph.
   */
  acl?: boolean;
  /** Every method but Login and CheckVersion needs a valid access JWT: the same as `acl` (implied) here. */
  requireAuth?: boolean;
  /** HMAC secret for the ACL JWTs (≥ 32 bytes); required when `acl` is on. Use the HTTP server's. */
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
  /** Shared secret required in the `auth-token` metadata for Alter. */
  authToken?: string;
  /**
   * Largest request message in bytes (default 32 MiB, as the HTTP body limit). Bigger messages are
   * refused with RESOURCE_EXHAUSTED `Received message larger than max (N vs. LIMIT)`. Responses are not
   * limited (clients set their own receive limit; dgraph-js's default is 4 MiB).
   */
  maxMessageBytes?: number;
  /** Structured logger; calls are logged at debug, one line each. */
  logger?: Logger;
  /** Tag reported by CheckVersion (default DGRAPH_COMPAT_VERSION). */
  version?: string;
}

export interface GrpcServer {
  /** Prepares ACL state (groot) and starts listening; port 0 picks a free port. */
  listen(port: number, host: string): Promise<{ port: number }>;
  /** Stops accepting calls and waits (up to 5 s) for in-flight ones. Does not close the engine. */
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 5_000;

export function createGrpcServer(engine: GraphEngine, options: GrpcServerOptions = {}): GrpcServer {
  const guards = serverGuards(engine, options);
  const ctx: GrpcContext = {
    engine,
    guards,
    logger: options.logger ?? pino({ level: "silent" }),
    version: options.version ?? DGRAPH_COMPAT_VERSION,
  };
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(maxMessageBytes) || maxMessageBytes <= 0) {
    throw new Error(`maxMessageBytes must be a positive integer, got ${maxMessageBytes}`);
  }

  const server = new Server({
    "grpc.max_receive_message_length": maxMessageBytes,
    "grpc.max_send_message_length": -1,
    // Channelz bookkeeping costs ~15 µs per call and nothing here reads it.
    "grpc.enable_channelz": 0,
  });
  server.addService(serviceWithCodecs(dgraphServiceDefinition()), {
    Login: unary(ctx, "Login", login),
    Query: unary(ctx, "Query", query),
    Alter: unary(ctx, "Alter", alter),
    CommitOrAbort: unary(ctx, "CommitOrAbort", commitOrAbort),
    CheckVersion: unary(ctx, "CheckVersion", checkVersion),
    CreateNamespace: unary(ctx, "CreateNamespace", createNamespace),
    DropNamespace: unary(ctx, "DropNamespace", dropNamespace),
    ListNamespaces: unary(ctx, "ListNamespaces", listNamespaces),
  });

  let listening = false;
  return {
    async listen(port, host) {
      if (guards.acl) await guards.acl.ensureGroot();
      const address = host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
      const bound = await new Promise<number>((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (err, actual) =>
          err ? reject(err) : resolve(actual),
        );
      });
      listening = true;
      return { port: bound };
    },
    async close() {
      if (!listening) {
        server.forceShutdown();
        return;
      }
      listening = false;
      await shutDown(server, ctx.logger);
    },
  };
}

/** Lets in-flight calls finish, for up to SHUTDOWN_GRACE_MS; then cancels them. */
function shutDown(server: Server, logger: Logger): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      logger.warn("gRPC calls still running after the grace period: cancelling them");
      server.forceShutdown();
      resolve();
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
