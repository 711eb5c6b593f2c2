/**
 * Access checks of the routes outside the DQL API (whose requests check theirs through guardEngine):
 * /state, /assign, `/health?all`, /ui/keywords and the home page.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { errorBodyFor, fromEngineError } from "./envelope.ts";
import { sendJson } from "./reply.ts";
import type { ServerContext } from "./server-context.ts";

/** Who may use a route: anyone with a valid token, guardians (of any namespace), galaxy guardians. */
export type RouteAccess = "token" | "guardian" | "galaxy-guardian";

function accessToken(request: FastifyRequest): string | undefined {
  const token = request.headers[ACCESS_TOKEN_HEADER];
  return Array.isArray(token) ? token[0] : token;
}

/** Throws the ACL's error unless the request's token grants `access` (nothing is checked without ACL). */
export async function checkRouteAccess(
  ctx: ServerContext,
  request: FastifyRequest,
  access: RouteAccess,
): Promise<void> {
  if (!ctx.acl) return;
  const claims = await ctx.acl.verifyAccessToken(accessToken(request));
  if (access === "guardian") ctx.acl.requireGuardian(claims);
  else if (access === "galaxy-guardian") ctx.acl.requireGalaxyGuardian(claims);
}

/**
 * `checkRouteAccess`, answering a refusal itself (Dgraph's error envelope, HTTP 200); true when the route
 * may go on.
 */
export async function allowRoute(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: RouteAccess,
): Promise<boolean> {
  try {
    await checkRouteAccess(ctx, request, access);
    return true;
  } catch (e) {
    sendJson(reply, errorBodyFor(fromEngineError(e, "Error", false)));
    return false;
  }
}
