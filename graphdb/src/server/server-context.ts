import type { Logger } from "pino";
import type { GraphEngine } from "../engine/engine-api.ts";
import type { GraphQLService } from "../graphql/graphql-service.ts";
import type { Acl } from "./acl.ts";
import type { ResponseHeaders } from "./cors.ts";
import type { Guards } from "./guarded-engine.ts";

/** What the route handlers share: the engine, the access guards and a few server facts. */
export interface ServerContext {
  engine: GraphEngine;
  /** The generated GraphQL API of each namespace (`/graphql`, `/admin`). */
  graphql: GraphQLService;
  logger: Logger;
  guards: Guards;
  acl?: Acl;
  /**
   * Every endpoint but /health and /login needs a valid access token (ACL is on): /ui/keywords and the
   * home page too, which Dgraph serves to anyone.
   */
  requireAuth: boolean;
  bodyLimit: number;
  /** Where `/admin` `export` writes (Dgraph's `--export`). */
  exportDir: string;
  /** Reported by /health, e.g. "v25.0.0-trellis". */
  version: string;
  /** ms since the epoch. */
  startedAt: number;
  /** Random id reported as the cluster id by /state. */
  clusterId: string;
  /** True once shutdown has begun: /health answers 503. */
  draining: boolean;
  /** "host:port" the server listens on (for /health and /state). */
  address: string;
  /**
   * CORS headers by the request's Origin (see cors.ts), plus `Connection: close` unless keep-alive was
   * asked for, on every Dgraph response.
   */
  responseHeaders: ResponseHeaders;
}
