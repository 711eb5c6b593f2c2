/**
 * `/graphql` — the generated GraphQL API of the request's namespace (POST JSON or `application/graphql`,
 * GET with query parameters for queries), and `/probe/graphql`. Answers are GraphQL responses, HTTP 200
 * even with errors, as Dgraph's.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type DocumentNode, getOperationAST, parse } from "graphql";
import { DgraphError } from "../../core/errors.ts";
import { RequestError } from "../envelope.ts";
import { readGraphQLRequest, requestNamespace } from "../graphql-request.ts";
import { sendJson } from "../reply.ts";
import type { ServerContext } from "../server-context.ts";

function errorJson(message: string): string {
  return JSON.stringify({ errors: [{ message }] });
}

export function graphqlRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    if (request.method === "OPTIONS") return reply.send(Buffer.alloc(0));
    if (request.method !== "GET" && request.method !== "POST") {
      request.raw.resume();
      return reply.code(405).send(Buffer.from(errorJson(`${request.method} is not supported`)));
    }
    try {
      const namespace = await requestNamespace(ctx, request);
      const operation = await readGraphQLRequest(ctx, request);
      if (operation.query.trim() === "")
        return sendJson(reply, errorJson("no query string supplied in request"));
      if (request.method === "GET" && isMutation(operation.query, operation.operationName)) {
        return sendJson(reply, errorJson("GET requests can only run queries, not mutations"));
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      return sendJson(reply, await ctx.graphql.executeJson(namespace, { ...operation, headers }));
    } catch (e) {
      if (request.method !== "GET") request.raw.resume();
      if (e instanceof RequestError || e instanceof DgraphError) {
        return sendJson(reply.code(e instanceof RequestError ? 400 : 200), errorJson(e.message));
      }
      ctx.logger.error({ err: e, reqId: request.id }, "graphql request failed");
      return sendJson(reply, errorJson((e as Error)?.message ?? String(e)));
    }
  };
}

function isMutation(query: string, operationName: string | null | undefined): boolean {
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch {
    return false;
  }
  return getOperationAST(doc, operationName ?? undefined)?.operation === "mutation";
}

/** `/probe/graphql`: Dgraph's health probe of the GraphQL layer. */
export function graphqlProbeRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    request.raw.resume();
    return sendJson(reply, JSON.stringify({ status: "up", schemaUpdateCounter: ctx.graphql.schemaUpdates }));
  };
}
