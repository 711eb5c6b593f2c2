/**
 * The access guards a server runs with, set up from its options the same way for HTTP and gRPC: the ACL
 * (when `acl` or `requireAuth` is on, which needs an `aclSecret`) and the poor-man's-auth token.
 */
import type { GraphEngine } from "../engine/engine-api.ts";
import { Acl } from "./acl.ts";
import type { Guards } from "./guarded-engine.ts";
import { LoginThrottle, type LoginThrottleOptions } from "./login-throttle.ts";

/** The access options both servers take (see HttpServerOptions and GrpcServerOptions). */
export interface AccessOptions {
  acl?: boolean;
  requireAuth?: boolean;
  aclSecret?: Uint8Array;
  aclAccessTtlMs?: number;
  aclRefreshTtlMs?: number;
  authToken?: string;
  /**
   * The throttle of failed logins (login-throttle.ts): its settings (defaults `DEFAULT_LOGIN_THROTTLE`),
   * an instance to share between the HTTP and gRPC servers, or `false` for none.
   */
  loginThrottle?: Partial<LoginThrottleOptions> | LoginThrottle | false;
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
  const throttle = options.loginThrottle;
  const loginThrottle =
    acl === undefined || throttle === false
      ? undefined
      : throttle instanceof LoginThrottle
        ? throttle
        : new LoginThrottle(throttle);
  return { acl, authToken: options.authToken || undefined, loginThrottle };
}
