/**
 * GET /assign?what=uids&num=N — leases N uids (Dgraph Zero's `/assign`). Trellis is Alpha and Zero in one
 * process, so a loader asks the same server; it names the leased nodes `<0x…>` in its mutations and never
 * waits for another batch to create a node (Dgraph's live loader xidmap).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { goParseUint } from "../../types/strconv.ts";
import { errorBody, fromEngineError, toJson, type WireErrorCode } from "../envelope.ts";
import { sendJson } from "../reply.ts";
import { RequestParams } from "../request-params.ts";
import { checkRouteAccess } from "../route-access.ts";
import type { ServerContext } from "../server-context.ts";

function fail(reply: FastifyReply, status: number, code: WireErrorCode, message: string): FastifyReply {
  return sendJson(reply.code(status), errorBody(message, code, false));
}

export function assignRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    reply.header("content-type", "application/json");
    request.raw.resume();
    if (request.method === "OPTIONS") return reply.send(Buffer.alloc(0));
    if (request.method !== "GET") return fail(reply, 400, "ErrorInvalidMethod", "Invalid method");
    // Zero's port has no ACL; here it shares Alpha's, so leasing is for guardians (of any namespace: uids
    // are shared by all, as in Dgraph) when ACL is on.
    if (ctx.acl) {
      try {
        await checkRouteAccess(ctx, request, "guardian");
      } catch (e) {
        const err = fromEngineError(e, "Error", false);
        return fail(reply, 200, err.code, err.message);
      }
    }
    const params = RequestParams.fromUrl(request.raw.url ?? "");
    const numText = params.get("num");
    if (numText === "") return fail(reply, 400, "ErrorInvalidRequest", "num not passed");
    const num = goParseUint(numText);
    if (typeof num === "string") return fail(reply, 400, "ErrorInvalidRequest", "Error while parsing num");
    const what = params.get("what");
    if (what !== "uids") {
      const message =
        what === "timestamps" || what === "nsids"
          ? `Assigning ${what} over HTTP is not supported by this server`
          : `Invalid what: [${what}]. Must be one of: [uids, timestamps, nsids]`;
      return fail(reply, 200, "Error", message);
    }
    if (num === 0n) return fail(reply, 200, "Error", "Nothing to be leased");
    if (num > BigInt(MAX_UIDS_PER_LEASE)) {
      return fail(reply, 200, "Error", `Cannot lease more than ${MAX_UIDS_PER_LEASE} uids at once`);
    }
    try {
      const { startId, endId } = ctx.engine.assignUids(Number(num));
      // protojson of pb.AssignedIds with EmitUnpopulated: uint64 fields as strings.
      return sendJson(reply, toJson({ startId: String(startId), endId: String(endId), readOnly: "0" }));
    } catch (e) {
      const err = fromEngineError(e, "Error", false);
      return fail(reply, 200, err.code, err.message);
    }
  };
}

/** One lease at most this many uids, so a typo cannot exhaust the uid space. */
export const MAX_UIDS_PER_LEASE = 10_000_000;
