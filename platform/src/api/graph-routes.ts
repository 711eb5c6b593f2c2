import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { DgraphError, GraphQLSchemaError } from "@trellis/graphdb";
import type { FastifyInstance } from "fastify";
import * as tar from "tar";
import type { PlatformContext } from "../platform-context.ts";
import { badRequest } from "./api-errors.ts";

/**
 * The console's Graph tab: DQL queries, the schema and drops, and the generated GraphQL API (its schema
 * and an explorer), each in the app's own namespace of the platform's graph database (created on first
 * use), never another app's.
 */
export function graphRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  // The database's GraphQL service keeps each namespace's built schema and reads the stored SDL again
  // after every commit, so a drop or an update through another path is seen at once. Its @lambda fields
  // call the functions of the app owning the namespace.
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
      const res = await dql(() => ctx.graph.query(namespace, query, request.body?.vars));
      return { data: JSON.parse(res.json), extensions: { server_latency: res.latency, txn: res.txn } };
    },
  );

  api.get<{ Params: { app: string } }>("/api/apps/:app/graph/schema", async (request) => {
    const namespace = await namespaceOf(request.params.app);
    const res = await dql(() => ctx.graph.query(namespace, "schema {}"));
    const data = JSON.parse(res.json) as { schema?: unknown[]; types?: unknown[] };
    return { schema: data.schema ?? [], types: data.types ?? [] };
  });

  api.get<{ Params: { app: string }; Querystring: { format?: string } }>(
    "/api/apps/:app/graph/export",
    async (request, reply) => {
      const { app } = request.params;
      const format = request.query.format ?? "rdf";
      if (format !== "rdf" && format !== "json") throw badRequest('format must be "rdf" or "json"');
      const namespace = await namespaceOf(app);
      // Inside the data directory: the only place the platform may write under Node's permission model.
      await mkdir(ctx.exportDir, { recursive: true, mode: 0o700 });
      const work = await mkdtemp(join(ctx.exportDir, "export-"));
      const cleanup = () => void rm(work, { recursive: true, force: true });
      try {
        const result = await ctx.graph.exportNamespace(namespace, format, work);
        const folder = basename(result.folder);
        // Streamed from the files on disk (an export can be large); the folder goes once it is sent.
        const archive = Readable.from(
          tar.create({ gzip: true, cwd: work, portable: true }, [
            folder,
          ]) as unknown as AsyncIterable<Uint8Array>,
        );
        archive.once("close", cleanup);
        ctx.logger.info({ app, namespace, format }, "app graph exported from the console");
        return reply
          .header("content-type", "application/gzip")
          .header("content-disposition", `attachment; filename="${app}-${folder}.tar.gz"`)
          .send(archive);
      } catch (e) {
        cleanup();
        throw e;
      }
    },
  );

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

  api.get<{ Params: { app: string } }>("/api/apps/:app/graph/graphql-schema", async (request) => {
    const namespace = await namespaceOf(request.params.app);
    const stored = await ctx.graph.storedGraphQLSchema(namespace);
    if (stored === undefined) return { schema: null, generatedSchema: null };
    let generatedSchema: string | null = null;
    try {
      generatedSchema = (await ctx.graph.currentGraphQLSchema(namespace))?.generatedSchema ?? null;
    } catch (err) {
      // A stored schema this version no longer builds: still show it, so it can be fixed.
      request.log.warn({ err, app: request.params.app }, "stored GraphQL schema does not build");
    }
    return { schema: stored.schema, generatedSchema };
  });

  api.put<{ Params: { app: string }; Body: { schema?: unknown } }>(
    "/api/apps/:app/graph/graphql-schema",
    async (request, reply) => {
      const sdl = request.body?.schema;
      if (typeof sdl !== "string") throw badRequest('send {"schema": "<GraphQL SDL>"}');
      const { app } = request.params;
      const namespace = await namespaceOf(app);
      try {
        const { generatedSchema } = await ctx.graph.updateGraphQLSchema(namespace, sdl);
        ctx.logger.info({ app, namespace }, "app GraphQL schema updated from the console");
        return { ok: true, generatedSchema };
      } catch (e) {
        if (!(e instanceof DgraphError)) throw e;
        // The previous schema keeps serving: the service changes nothing when it rejects one.
        const problems =
          e instanceof GraphQLSchemaError
            ? e.problems.map((p) => ({ message: p.message, line: p.line ?? null, column: p.column ?? null }))
            : [{ message: e.message, line: null, column: null }];
        return reply.code(400).send({
          error: { code: "BAD_REQUEST", message: `the GraphQL schema is not valid: ${e.message}`, problems },
        });
      }
    },
  );

  api.post<{
    Params: { app: string };
    Body: { query?: unknown; variables?: unknown; operationName?: unknown };
  }>("/api/apps/:app/graph/graphql", async (request, reply) => {
    const { query, variables, operationName } = request.body ?? {};
    if (typeof query !== "string" || query.trim() === "") throw badRequest('send {"query": "<GraphQL>"}');
    if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) {
      throw badRequest('"variables" must be a JSON object');
    }
    if (operationName != null && typeof operationName !== "string") {
      throw badRequest('"operationName" must be a string');
    }
    const namespace = await namespaceOf(request.params.app);
    // The response's JSON text, as the database wrote it.
    const text = await ctx.graph.executeGraphQL(namespace, {
      query,
      variables: (variables ?? null) as Record<string, unknown> | null,
      operationName: operationName ?? null,
    });
    return reply.type("application/json; charset=utf-8").send(text);
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
