import { JwtRejected, looksLikeJwt } from "@trellis/runtime";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { bearerToken } from "../secrets/tokens.ts";
import { AppJwtVerifiers } from "./app-jwt-verifiers.ts";
import { requestedApp } from "./gateway-app.ts";
import { graphqlError } from "./graphql-error.ts";

/** Minimum time between two `lastUsedAt` writes of one key. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * preHandler hook of the gateway (after `gatewayApp`): `Authorization: Bearer <API key>` of the requested
 * app, unrevoked; a GraphQL-shaped 401 otherwise. Endpoints declared `auth: "none"` in the serving
 * deployment's manifest need no key; on endpoints declared `auth: "jwt"` a JWT of the app's users, valid
 * for the keys of its env vars (`TRELLIS_JWT_PEMS`, `TRELLIS_JWT_JWKS_ENDPOINTS`), does as well as a key.
 * Records the key's use (`lastUsedAt`) at most once per TOUCH_INTERVAL_MS. Neither the key nor the token
 * reaches the app (the gateway drops the header); a verified token's claims do (`gatewayApp.jwtClaims`, for
 * the functions' `jwt-claims` host call).
 */
export function apiKeyAuth(ctx: PlatformContext) {
  const touched = new Map<string, number>();
  const jwtVerifiers = new AppJwtVerifiers(ctx.store, ctx.outboundFetch);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const app = requestedApp(request);
    const { deploymentId, path = "" } = request.gatewayApp ?? {};
    const config = deploymentId ? await ctx.sites.config(app.name, deploymentId) : undefined;
    // An endpoint the app's manifest declares with `auth: "none"` is public.
    if (config?.publicEndpoints.has(path)) return undefined;
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined) {
      return graphqlError(
        reply,
        401,
        config?.jwtEndpoints.has(path)
          ? "missing credentials: send Authorization: Bearer <API key or user JWT>"
          : "missing API key: send Authorization: Bearer <API key> (create one in the console's API keys tab)",
        "UNAUTHENTICATED",
      );
    }
    if (config?.jwtEndpoints.has(path) && looksLikeJwt(presented)) {
      const verifier = await jwtVerifiers.forApp(app.name);
      try {
        const claims = await verifier.verify(presented);
        if (request.gatewayApp) request.gatewayApp.jwtClaims = claims;
        return undefined;
      } catch (e) {
        if (!(e instanceof JwtRejected)) throw e;
        if (verifier.problem) request.log.warn({ app: app.name }, verifier.problem);
        return graphqlError(reply, 401, `invalid API key or token: ${e.message}`, "UNAUTHENTICATED");
      }
    }
    const key = await ctx.store.cachedActiveApiKey(app.name, presented);
    if (!key) return graphqlError(reply, 401, "invalid or revoked API key", "UNAUTHENTICATED");
    const now = Date.now();
    if (now - (touched.get(key.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      touched.set(key.id, now);
      void ctx.store.touchApiKey(key.id).catch(() => {});
    }
    return undefined;
  };
}
