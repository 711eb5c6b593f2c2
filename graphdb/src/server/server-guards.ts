/**
 * The access guards a server runs with, set up from its options the same way for HTTP and gRPC: the ACL
 * (when `acl` or `requireAuth` is on, which needs an `aclSecret`) and the poor-man's-auth token.
 */
import type { GraphEngine } from "../engine/engine-api.ts";
import { Acl } from "./acl.ts";
import type { Guards } from "./guarded-engine.ts";

/** The access options both servers take (see HttpServerOptions and GrpcServerOptions). */
export interface AccessOptions {
  acl?: boolean;
  requireAuth?: boolean;
  aclSecret?: Uint8Array;
  aclAccessTtlMs?: number;
  aclRefreshTtlMs?: number;
  authToken?: string;
}

/** Throws when ACL is asked for without a secret (or with one shorter than 32 bytes: see Acl). */
export function serverGuards(engine: GraphEngine, options: AccessOptions): Guards {
  let acl: Acl | undefined;
  if (options.acl || options.requireAuth) {
    if (!options.aclSecret) {
      throw new Error(
        `${options.requireAuth ? "requireAuth" : "ACL"} needs an aclSecret (at least 32 bytes) to sign and check JWTs`,
      );
    }
    acl = new Acl(engine, {
      secret: options.aclSecret,
      accessTtlMs: options.aclAccessTtlMs,
      refreshTtlMs: options.aclRefreshTtlMs,
    });
  }
  return { acl, authToken: options.authToken || undefined };
}
