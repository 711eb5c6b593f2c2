import { DgraphError } from "@trellis/graphdb";
import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { badRequest } from "./api-errors.ts";

/** The console's view of the platform's embedded graph database: DQL queries, schema, drop. */
export function graphRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  api.post<{ Body: { query?: unknown; vars?: Record<string, string> } }>(
    "/api/graph/query",
    async (request) => {
      const query = request.body?.query;
      if (typeof query !== "string" || query.trim() === "") throw badRequest('send {"query": "<DQL>"}');
      const res = await dql(() => ctx.graph.query({ query, vars: request.body?.vars, readOnly: true }));
      return { data: JSON.parse(res.json), extensions: { server_latency: res.latency, txn: res.txn } };
    },
  );

  api.get("/api/graph/schema", async () => {
    const res = await dql(() => ctx.graph.query({ query: "schema {}", readOnly: true }));
    const data = JSON.parse(res.json) as { schema?: unknown[]; types?: unknown[] };
    return { schema: data.schema ?? [], types: data.types ?? [] };
  });

  api.post<{ Body: { allDataAndSchema?: unknown } }>("/api/graph/drop", async (request) => {
    const all = request.body?.allDataAndSchema === true;
    await ctx.graph.alter(all ? { dropAll: true } : { dropOp: "DATA" });
    ctx.logger.warn({ allDataAndSchema: all }, "graph data dropped from the console");
    return { ok: true };
  });
}

/** Engine errors (bad DQL) are the caller's: 400 with Dgraph's message. */
async function dql<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof DgraphError) throw badRequest(e.message);
    throw e;
  }
}
