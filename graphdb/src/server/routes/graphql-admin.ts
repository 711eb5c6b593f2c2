/**
 * Dgraph's GraphQL administration: `POST /admin/schema` (the raw SDL), `POST /admin/schema/validate`, and
 * the `/admin` GraphQL endpoint (`getGQLSchema`, `updateGQLSchema`, `health`). With ACL these need a
 * guardian of the namespace; with an auth token (`--auth-token`), schema changes need it too.
 */

import { relative } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import { buildSchema, type ExecutionResult, GraphQLError, graphql } from "graphql";
import { DgraphError } from "../../core/errors.ts";
import { exportNamespace } from "../../engine/export-writer.ts";
import { GraphQLSchemaError, problemText } from "../../graphql/schema/schema-error.ts";
import { AUTH_TOKEN_HEADER, checkAuthToken } from "../auth-token.ts";
import { RequestError } from "../envelope.ts";
import { readGraphQLRequest, requestBody, requestNamespace } from "../graphql-request.ts";
import { headerValue } from "../header-value.ts";
import { sendJson } from "../reply.ts";
import { checkRouteAccess } from "../route-access.ts";
import type { ServerContext } from "../server-context.ts";
import { healthInfo } from "./health.ts";

const ADMIN_SCHEMA = buildSchema(`
type GQLSchema {
  id: ID!
  schema: String!
  generatedSchema: String!
}
input GQLSchemaPatch {
  schema: String!
}
input UpdateGQLSchemaInput {
  set: GQLSchemaPatch!
}
type UpdateGQLSchemaPayload {
  gqlSchema: GQLSchema
}
type NodeState {
  instance: String
  address: String
  status: String
  group: String
  version: String
  uptime: Int
  lastEcho: Int
  ongoing: [String]
  indexing: [String]
  ee_features: [String]
}
input ExportInput {
  format: String
  namespace: Int
  destination: String
}
type Response {
  code: String
  message: String
}
type ExportPayload {
  response: Response
  exportedFiles: [String]
  taskId: String
}
type Query {
  getGQLSchema: GQLSchema
  health: [NodeState]
}
type Mutation {
  updateGQLSchema(input: UpdateGQLSchemaInput!): UpdateGQLSchemaPayload
  export(input: ExportInput!): ExportPayload
}
`);

function errorsJson(messages: string[], code: string): string {
  return JSON.stringify({ errors: messages.map((message) => ({ message, extensions: { code } })) });
}

/** Guardian with ACL; the auth token when one is configured and the request changes the schema. */
async function authorize(ctx: ServerContext, request: FastifyRequest, changes: boolean): Promise<number> {
  if (changes) checkAuthToken(ctx.guards.authToken, headerValue(request.headers, AUTH_TOKEN_HEADER));
  await checkRouteAccess(ctx, request, "guardian");
  return requestNamespace(ctx, request);
}

function refusal(reply: FastifyReply, e: unknown): FastifyReply {
  const message = e instanceof Error ? e.message : String(e);
  const code = e instanceof RequestError ? 400 : 200;
  return sendJson(
    reply.code(code),
    errorsJson([message], e instanceof DgraphError ? "ErrorUnauthorized" : "Error"),
  );
}

/** `POST /admin/schema`: the body is the SDL. */
export function adminSchemaRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    if (request.method !== "POST") {
      request.raw.resume();
      return sendJson(reply.code(400), errorsJson(["Invalid method"], "Error"));
    }
    let namespace: number;
    let sdl: string;
    try {
      namespace = await authorize(ctx, request, true);
      sdl = await requestBody(ctx, request);
    } catch (e) {
      request.raw.resume();
      return refusal(reply, e);
    }
    try {
      await ctx.graphql.updateSchema(namespace, sdl);
      return sendJson(reply, JSON.stringify({ data: { code: "Success", message: "Done" } }));
    } catch (e) {
      const messages =
        e instanceof GraphQLSchemaError
          ? [e.problems.map(problemText).join("\n")]
          : [String((e as Error).message)];
      return sendJson(reply, errorsJson(messages, "Error"));
    }
  };
}

/** `POST /admin/schema/validate`: even success is written in error form, as Dgraph does. */
export function adminSchemaValidateRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    let sdl: string;
    try {
      await authorize(ctx, request, false);
      sdl = await requestBody(ctx, request);
    } catch (e) {
      request.raw.resume();
      return refusal(reply, e);
    }
    try {
      ctx.graphql.checkSchema(sdl);
      return sendJson(reply, errorsJson(["Schema is valid"], "success"));
    } catch (e) {
      const messages =
        e instanceof GraphQLSchemaError ? e.problems.map(problemText) : [String((e as Error).message)];
      return sendJson(reply.code(400), errorsJson(messages, "ErrorInvalidRequest"));
    }
  };
}

/** `POST /admin`: the administration GraphQL API. */
export function adminRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    if (request.method === "OPTIONS") return reply.send(Buffer.alloc(0));
    let namespace: number;
    let operation: Awaited<ReturnType<typeof readGraphQLRequest>>;
    try {
      operation = await readGraphQLRequest(ctx, request);
      const changes = /\bupdateGQLSchema\b/.test(operation.query);
      namespace = await authorize(ctx, request, changes);
    } catch (e) {
      request.raw.resume();
      return refusal(reply, e);
    }
    const result: ExecutionResult = await graphql({
      schema: ADMIN_SCHEMA,
      source: operation.query,
      variableValues: operation.variables ?? undefined,
      operationName: operation.operationName ?? undefined,
      rootValue: adminResolvers(ctx, namespace),
    });
    return sendJson(reply, JSON.stringify(result));
  };
}

function adminResolvers(ctx: ServerContext, namespace: number) {
  return {
    async getGQLSchema() {
      const stored = await ctx.graphql.storedSchema(namespace);
      if (stored === undefined) return null;
      const build = await ctx.graphql.current(namespace);
      return { id: stored.id, schema: stored.schema, generatedSchema: build?.generatedSchema ?? "" };
    },
    health() {
      return [{ ongoing: [], indexing: [], ee_features: [], ...healthInfo(ctx) }];
    },
    async export({ input }: { input: { format?: string; namespace?: number; destination?: string } }) {
      const format = (input.format ?? "rdf").toLowerCase();
      if (format !== "rdf" && format !== "json")
        throw new GraphQLError(`invalid export format: ${input.format}`);
      if (input.destination) {
        throw new GraphQLError(
          "exports are written to the server's --export directory; destination is not supported",
        );
      }
      if (input.namespace !== undefined && input.namespace !== null && input.namespace !== namespace) {
        throw new GraphQLError("only the namespace of the access token can be exported");
      }
      const graphqlSchema = (await ctx.graphql.storedSchema(namespace))?.schema;
      const result = await exportNamespace(ctx.engine, namespace, format, ctx.exportDir, graphqlSchema);
      return {
        response: { code: "Success", message: "Export completed." },
        exportedFiles: result.files.map((f) => relative(ctx.exportDir, f)),
        taskId: null,
      };
    },
    async updateGQLSchema({ input }: { input: { set: { schema: string } } }) {
      try {
        const { build, stored } = await ctx.graphql.updateSchema(namespace, input.set.schema);
        return {
          gqlSchema: { id: stored.id, schema: stored.schema, generatedSchema: build.generatedSchema },
        };
      } catch (e) {
        const text =
          e instanceof GraphQLSchemaError ? e.problems.map(problemText).join("\n") : (e as Error).message;
        throw new GraphQLError(`resolving updateGQLSchema failed because ${text}`);
      }
    },
  };
}
