import type { FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { PlatformError } from "../platform-error.ts";
import { bearerToken, secretMatches } from "../secrets/tokens.ts";

/** Route config flag: the app's deploy token is accepted as well as the admin token. */
export interface AuthConfig {
  deployToken?: boolean;
}

/** What a presented credential turned out to be. */
export type CredentialCheck = "admin" | "deploy" | "invalid";

/** The outcome of `checkCredential`: the credential, or how long the client has to wait. */
export type CredentialVerdict = CredentialCheck | { retryAfterSeconds: number };

/**
 * onRequest hook of the control plane (and /metrics): `Authorization: Bearer <admin token>`, or the app's
 * deploy token on routes that allow it; throttled per client address (see `checkCredential`).
 */
export function adminAuth(ctx: PlatformContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined) {
      throw new PlatformError(
        "UNAUTHORIZED",
        "missing credentials: send Authorization: Bearer <admin token>",
      );
    }
    const config = request.routeOptions.config as AuthConfig;
    const app = (request.params as { app?: string }).app;
    const deployTokenAccepted = config.deployToken === true && app !== undefined;
    const verdict = await checkCredential(
      ctx,
      request,
      deployTokenAccepted ? "invalid admin or deploy token" : "invalid admin token",
      async () => {
        if (secretMatches(presented, ctx.adminToken)) return "admin";
        if (deployTokenAccepted && (await ctx.store.verifyDeployToken(app, presented))) return "deploy";
        return "invalid";
      },
    );
    if (typeof verdict === "object") {
      reply.header("retry-after", String(verdict.retryAfterSeconds));
      throw new PlatformError("TOO_MANY_REQUESTS", tooManyFailures(verdict.retryAfterSeconds));
    }
    if (verdict === "invalid") {
      throw new PlatformError(
        "UNAUTHORIZED",
        deployTokenAccepted
          ? "invalid token: use the admin token or this app's deploy token (rotate it in the console if lost)"
          : "invalid admin token",
      );
    }
  };
}

/**
 * Checks a presented credential through the platform's `AuthThrottle`: an address that failed too often
 * gets a wait instead of a check; every failure (and every refused attempt) is logged as a warning with
 * the address, route and reason, never the token. Only the admin token clears an address's failures: a
 * deploy token is a lesser credential, and letting it reset the count would let its holder guess the
 * admin token without ever waiting.
 */
export async function checkCredential(
  ctx: PlatformContext,
  request: FastifyRequest,
  failureReason: string,
  check: () => CredentialCheck | Promise<CredentialCheck>,
): Promise<CredentialVerdict> {
  const address = request.ip;
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split("?")[0]}`;
  const wait = ctx.authThrottle.retryAfterSeconds(address);
  if (wait > 0) {
    request.log.warn(
      { address, route, reason: "too many failed attempts", retryAfterSeconds: wait },
      "authentication refused",
    );
    return { retryAfterSeconds: wait };
  }
  const result = await ctx.authThrottle.checking(address, check);
  if (result === "admin") ctx.authThrottle.succeeded(address);
  if (result === "invalid") {
    const { failures, lockedForSeconds } = ctx.authThrottle.failed(address);
    request.log.warn(
      { address, route, reason: failureReason, failures, lockedForSeconds },
      "authentication failed",
    );
  }
  return result;
}

/** The message of a 429: what happened and when to try again. */
export function tooManyFailures(retryAfterSeconds: number): string {
  return (
    `too many failed attempts from your address: try again in ${retryAfterSeconds} s ` +
    "(each further failure doubles the wait; a success with the admin token after it clears the count)"
  );
}
