/** GET|POST /health and /state — node health and (single-node) cluster membership. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { toJson } from "../envelope.ts";
import { sendJson } from "../reply.ts";
import { RequestParams } from "../request-params.ts";
import { allowRoute } from "../route-access.ts";
import type { ServerContext } from "../server-context.ts";

const NOT_READY = "Please retry again, server is not ready to accept requests";

/** One `pb.HealthInfo` entry for this node, omitempty fields left out. */
export function healthInfo(ctx: ServerContext) {
  const now = Date.now();
  return {
    instance: "alpha",
    address: ctx.address,
    status: "healthy",
    group: "1",
    version: ctx.version,
    uptime: Math.floor((now - ctx.startedAt) / 1000),
    lastEcho: Math.floor(now / 1000),
    ...(ctx.acl ? { ee_features: ["acl"] } : {}),
    max_assigned: ctx.engine.maxAssignedTs(),
  };
}

export function healthRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    const params = RequestParams.fromUrl(request.raw.url ?? "");
    if (ctx.draining && !params.has("live")) {
      return reply.code(503).header("content-type", "text/plain; charset=utf-8").send(NOT_READY);
    }
    // Under ACL, `/health?all` is for guardians; plain /health stays open (probes, client version checks).
    if (params.has("all") && !(await allowRoute(ctx, request, reply, "guardian"))) return reply;
    return sendJson(reply, toJson([healthInfo(ctx)]));
  };
}

/** Predicate names for the /state tablets, read through the engine's schema query. */
async function predicates(ctx: ServerContext): Promise<string[]> {
  try {
    const res = await ctx.engine.query({ query: "schema {}" });
    const parsed = JSON.parse(res.json) as { schema?: { predicate: string }[] };
    return (parsed.schema ?? []).map((p) => p.predicate);
  } catch {
    return [];
  }
}

export function stateRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    // Cluster state names the galaxy's predicates and the leases of every namespace: galaxy guardians only.
    if (!(await allowRoute(ctx, request, reply, "galaxy-guardian"))) return reply;
    const maxTs = String(ctx.engine.maxAssignedTs());
    const member = (groupId: number, addr: string) => ({
      id: "1",
      groupId,
      addr,
      leader: true,
      amDead: false,
      lastUpdate: String(Math.floor(ctx.startedAt / 1000)),
      learner: false,
      clusterInfoOnly: false,
      forceGroupId: false,
    });
    const tablets: Record<string, unknown> = {};
    for (const predicate of await predicates(ctx)) {
      tablets[predicate] = {
        groupId: 1,
        predicate,
        force: false,
        onDiskBytes: "0",
        remove: false,
        readOnly: false,
        moveTs: "0",
        uncompressedBytes: "0",
      };
    }
    const state = {
      counter: maxTs,
      groups: {
        "1": {
          members: { "1": member(1, ctx.address) },
          tablets,
          snapshotTs: maxTs,
          checksum: "0",
          checkpointTs: "0",
        },
      },
      zeros: { "1": member(0, ctx.address) },
      maxUID: String(ctx.engine.maxLeasedUid()),
      maxTxnTs: maxTs,
      maxNsID: String(Math.max(...ctx.engine.listNamespaces())),
      maxRaftId: "1",
      removed: [],
      cid: ctx.clusterId,
      license: null,
      namespaces: {},
    };
    return sendJson(reply, toJson(state));
  };
}
