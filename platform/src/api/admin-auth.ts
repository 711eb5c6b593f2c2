import type { FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { PlatformError } from "../platform-error.ts";
import { bearerToken, secretMatches } from "../secrets/tokens.ts";

/** Route config flag: the app's deploy token is accepted as well as the admin token. */
export interface AuthConfig {
  deployToken?: boolean;
}

/** onRequest hook of the control plane: `Authorization: Bearer <admin token>` (or deploy token). */
export function adminAuth(ctx: PlatformContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined) {
      throw new PlatformError(
        "UNAUTHORIZED",
        "missing credentials: send Authorization: Bearer <admin token>",
      );
    }
    if (secretMatches(presented, ctx.adminToken)) return;
    const config = request.routeOptions.config as AuthConfig;
    const app = (request.params as { app?: string }).app;
    if (config.deployToken && app !== undefined && (await ctx.store.verifyDeployToken(app, presented)))
      return;
    throw new PlatformError(
      "UNAUTHORIZED",
      config.deployToken
        ? "invalid token: use the admin token or this app's deploy token (rotate it in the console if lost)"
        : "invalid admin token",
    );
  };
}
