import { DgraphError } from "@trellis/graphdb";
import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { badRequest } from "./api-errors.ts";

/**
 * The console's Graph tab: DQL queries, the schema and drops, each in the app's own namespace of the
 * platform's graph database (created on first use), never another app's.
 */
export function graphRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  const namespaceOf = async (app: string) => {
    await ctx.store.requireApp(app);
    return (await ctx.namespaces.of(app)).namespace;
  };

  api.post<{ Params: { app: string }; Body: { query?: unknown; vars?: Record<string, string> } }>(
    "/api/apps/:app/graph/query",
    async (request) => {
      const query = request.body?.query;
      if (typeof query !== "string" || query.trim() === "") throw badRequest('send {"query": "<DQL>"}');
      const namespace = await namespaceOf(request.params.app);
      const res = await dql(() =>
        ctx.graph.query({ namespace, query, vars: request.body?.vars, readOnly: true }),
      );
      return { data: JSON.parse(res.json), extensions: { server_latency: res.latency, txn: res.txn } };
    },
  );

  api.get<{ Params: { app: string } }>("/api/apps/:app/graph/schema", async (request) => {
    const namespace = await namespaceOf(request.params.app);
    const res = await dql(() => ctx.graph.query({ namespace, query: "schema {}", readOnly: true }));
    const data = JSON.parse(res.json) as { schema?: unknown[]; types?: unknown[] };
    return { schema: data.schema ?? [], types: data.types ?? [] };
  });

  api.post<{ Params: { app: string }; Body: { allDataAndSchema?: unknown } }>(
    "/api/apps/:app/graph/drop",
    async (request) => {
      const { app } = request.params;
      const all = request.body?.allDataAndSchema === true;
      const namespace = await namespaceOf(app);
      await ctx.graph.alter(all ? { namespace, dropAll: true } : { namespace, dropOp: "DATA" });
      ctx.logger.warn({ app, namespace, allDataAndSchema: all }, "app graph data dropped from the console");
      return { ok: true };
    },
  );
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
