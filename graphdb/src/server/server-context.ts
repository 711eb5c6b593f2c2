import type { Logger } from "pino";
import type { GraphEngine } from "../engine/engine-api.ts";
import type { Acl } from "./acl.ts";
import type { Guards } from "./guarded-engine.ts";

/** What the route handlers share: the engine, the access guards and a few server facts. */
export interface ServerContext {
  engine: GraphEngine;
  logger: Logger;
  guards: Guards;
  acl?: Acl;
  bodyLimit: number;
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
  /** CORS headers (plus `Connection: close` unless keep-alive was asked for) on every Dgraph response. */
  responseHeaders: Readonly<Record<string, string>>;
}

/** CORS headers Dgraph adds to the API endpoints, /health, /state and /ui/keywords. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With",
  "access-control-allow-credentials": "true",
};

/** Dgraph also sends `Connection: close` with them, ending every connection after one response. */
export function responseHeaders(keepAlive: boolean): Readonly<Record<string, string>> {
  return keepAlive ? CORS_HEADERS : { ...CORS_HEADERS, connection: "close" };
}
