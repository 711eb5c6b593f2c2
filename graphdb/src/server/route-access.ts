/**
 * Access checks of the routes outside the DQL API (whose requests check theirs through guardEngine):
 * /state, /assign, `/health?all`, /ui/keywords and the home page.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { errorBodyFor, fromEngineError } from "./envelope.ts";
import { type AccessLevel, checkAccess } from "./guarded-engine.ts";
import { headerValue } from "./header-value.ts";
import { sendJson } from "./reply.ts";
import type { ServerContext } from "./server-context.ts";

/** Throws the ACL's error unless the request's token grants `access` (nothing is checked without ACL). */
export async function checkRouteAccess(
  ctx: ServerContext,
  request: FastifyRequest,
  access: AccessLevel,
): Promise<void> {
  await checkAccess(ctx.acl, headerValue(request.headers, ACCESS_TOKEN_HEADER), access);
}

/**
 * `checkRouteAccess`, answering a refusal itself (Dgraph's error envelope, HTTP 200); true when the route
 * may go on.
 */
export async function allowRoute(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: AccessLevel,
): Promise<boolean> {
  try {
    await checkRouteAccess(ctx, request, access);
    return true;
  } catch (e) {
    sendJson(reply, errorBodyFor(fromEngineError(e, "Error", false)));
    return false;
  }
}
