import type { FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { PlatformError } from "../platform-error.ts";
import { bearerToken, looksLikeDeployToken, secretMatches } from "../secrets/tokens.ts";
import { type Credential, credentialKey } from "./auth-throttle.ts";

/** Route config flag: the app's deploy token is accepted as well as the admin token. */
export interface AuthConfig {
  deployToken?: boolean;
}

/** What a presented credential turned out to be. */
export type CredentialCheck = "admin" | "deploy" | "invalid";

/** The outcome of `checkCredential`: the credential, or a 429 (how long to wait, and why). */
export type CredentialVerdict = CredentialCheck | { retryAfterSeconds: number; message: string };

/**
 * onRequest hook of the control plane (and /metrics): `Authorization: Bearer <admin token>`, or the app's
 * deploy token on routes that allow it; throttled per client address and per credential (see
 * `checkCredential`).
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
      credentialTried(presented, deployTokenAccepted ? app : undefined),
      deployTokenAccepted ? "invalid admin or deploy token" : "invalid admin token",
      async () => {
        if (secretMatches(presented, ctx.adminToken)) return "admin";
        if (deployTokenAccepted && (await ctx.store.verifyDeployToken(app, presented))) return "deploy";
        return "invalid";
      },
    );
    if (typeof verdict === "object") {
      reply.header("retry-after", String(verdict.retryAfterSeconds));
      throw new PlatformError("TOO_MANY_REQUESTS", verdict.message);
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
 * The credential a presented token tries: app `app`'s deploy token when it has a deploy token's form
 * (`trd_…`) and the route takes that app's deploy token, else the admin token.
 */
export function credentialTried(presented: string, app: string | undefined): Credential {
  return app !== undefined && looksLikeDeployToken(presented) ? { kind: "deploy", app } : { kind: "admin" };
}

/**
 * Checks a presented credential through the platform's `AuthThrottle`. An address over its allowance gets
 * a wait instead of a check (never the platform's own addresses: see `AuthThrottle`); a wrong token for a
 * credential over its allowance gets a wait too, while the right one is always accepted. Every failure and
 * every refused attempt is logged as a warning with the address, route, credential and reason, never the
 * token, and counted in the metrics. Only the admin token clears an address's failures: a deploy token is
 * a lesser credential, and letting it reset the count would let its holder guess the admin token without
 * ever waiting.
 */
export async function checkCredential(
  ctx: PlatformContext,
  request: FastifyRequest,
  credential: Credential,
  failureReason: string,
  check: () => CredentialCheck | Promise<CredentialCheck>,
): Promise<CredentialVerdict> {
  const address = request.ip;
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split("?")[0]}`;
  const logged = { address, route, credential: credentialKey(credential) };
  const wait = ctx.authThrottle.retryAfterSeconds(address);
  if (wait > 0) {
    request.log.warn(
      { ...logged, reason: "too many failed attempts from this address", retryAfterSeconds: wait },
      "authentication refused",
    );
    ctx.metrics.authThrottled.inc({ credential: credential.kind, by: "address" });
    return { retryAfterSeconds: wait, message: tooManyFailures(wait) };
  }
  const result = await ctx.authThrottle.checking(address, check);
  if (result === "admin") ctx.authThrottle.succeeded(address);
  if (result !== "invalid") return result;
  const outcome = ctx.authThrottle.failed(address, credential);
  ctx.metrics.authFailures.inc({ credential: credential.kind });
  const counts = {
    failures: outcome.address?.failures,
    lockedForSeconds: outcome.address?.lockedForSeconds,
    credentialFailures: outcome.credential.failures,
  };
  if (outcome.refusedForSeconds > 0) {
    const seconds = outcome.refusedForSeconds;
    request.log.warn(
      {
        ...logged,
        ...counts,
        reason: "too many wrong tokens for this credential",
        retryAfterSeconds: seconds,
      },
      "authentication refused",
    );
    ctx.metrics.authThrottled.inc({ credential: credential.kind, by: "credential" });
    return { retryAfterSeconds: seconds, message: tooManyWrongTokens(credential, seconds) };
  }
  request.log.warn(
    {
      ...logged,
      ...counts,
      reason: failureReason,
      credentialLockedForSeconds: outcome.credential.lockedForSeconds,
    },
    "authentication failed",
  );
  return result;
}

/** The message of a 429 for an address: what happened and when to try again. */
export function tooManyFailures(retryAfterSeconds: number): string {
  return (
    `too many failed attempts from your address: try again in ${retryAfterSeconds} s ` +
    "(each further failure doubles the wait; a success with the admin token after it clears the count)"
  );
}

/** The message of a 429 for a credential: wrong tokens for it wait, the right one never does. */
export function tooManyWrongTokens(credential: Credential, retryAfterSeconds: number): string {
  const name = credential.kind === "admin" ? "the admin token" : `app "${credential.app}"'s deploy token`;
  return (
    `too many wrong tokens for ${name} (from all addresses): this token is wrong, and wrong ones are ` +
    `refused for ${retryAfterSeconds} s; the right token is always accepted (check the one you send, or ` +
    "rotate it in the console if lost)"
  );
}
