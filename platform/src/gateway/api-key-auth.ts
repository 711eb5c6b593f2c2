import type { FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { bearerToken } from "../secrets/tokens.ts";
import { requestedApp } from "./gateway-app.ts";
import { graphqlError } from "./graphql-error.ts";

/** Minimum time between two `lastUsedAt` writes of one key. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * preHandler hook of the gateway (after `gatewayApp`): `Authorization: Bearer <API key>` of the requested
 * app, unrevoked; a GraphQL-shaped 401 otherwise. Endpoints declared `auth: "none"` in the serving
 * deployment's manifest need no key. Records the key's use (`lastUsedAt`) at most once per
 * TOUCH_INTERVAL_MS. The key itself never reaches the app (the gateway drops the header).
 */
export function apiKeyAuth(ctx: PlatformContext) {
  const touched = new Map<string, number>();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const app = requestedApp(request);
    const { deploymentId, path = "" } = request.gatewayApp ?? {};
    // An endpoint the app's manifest declares with `auth: "none"` is public.
    if (deploymentId && (await ctx.sites.config(app.name, deploymentId)).publicEndpoints.has(path))
      return undefined;
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined) {
      return graphqlError(
        reply,
        401,
        "missing API key: send Authorization: Bearer <API key> (create one in the console's API keys tab)",
        "UNAUTHENTICATED",
      );
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
