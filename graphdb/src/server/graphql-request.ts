/**
 * What the GraphQL endpoints share: the request's namespace (its access token's, with ACL; the galaxy
 * without) and the operation read from the body or the query string.
 */
import type { FastifyRequest } from "fastify";
import { GALAXY_NAMESPACE } from "../engine/namespace.ts";
import type { GraphQLRequest } from "../graphql/graphql-service.ts";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { decodeContent, parseMediaType, readRawBody } from "./body.ts";
import { ORIGINAL_CONTENT_TYPE } from "./content-type-header.ts";
import { RequestError } from "./envelope.ts";
import { headerValue } from "./header-value.ts";
import type { ServerContext } from "./server-context.ts";

/** The namespace a GraphQL request acts in. */
export async function requestNamespace(ctx: ServerContext, request: FastifyRequest): Promise<number> {
  return tokenNamespace(ctx, headerValue(request.headers, ACCESS_TOKEN_HEADER));
}

/** The namespace of an access token (the galaxy without ACL). */
export async function tokenNamespace(ctx: ServerContext, accessToken: string | undefined): Promise<number> {
  if (!ctx.acl) return GALAXY_NAMESPACE;
  return (await ctx.acl.verifyAccessToken(accessToken)).namespace;
}

export async function requestBody(ctx: ServerContext, request: FastifyRequest): Promise<string> {
  const raw = await readRawBody(request.raw, ctx.bodyLimit);
  return (await decodeContent(raw, request.headers, ctx.bodyLimit)).toString("utf8");
}

function parseVariables(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null || value === "") return null;
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) {
    throw new RequestError("variables must be a JSON object");
  }
  return parsed as Record<string, unknown> | null;
}

/** `{query, variables, operationName}` of a GET (query string) or POST (JSON or `application/graphql`). */
export async function readGraphQLRequest(
  ctx: ServerContext,
  request: FastifyRequest,
): Promise<GraphQLRequest> {
  try {
    if (request.method === "GET") {
      const params = new URL(request.raw.url ?? "/", "http://x").searchParams;
      return {
        query: params.get("query") ?? "",
        variables: parseVariables(params.get("variables")),
        operationName: params.get("operationName"),
      };
    }
    const media = parseMediaType(request.headers[ORIGINAL_CONTENT_TYPE] as string | undefined);
    const text = await requestBody(ctx, request);
    if (media.type === "application/graphql") return { query: text };
    if (media.type !== "application/json") {
      throw new RequestError(`Unrecognized Content-Type: ${media.type}`);
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new RequestError("Not a valid GraphQL request body");
    return {
      query: typeof body.query === "string" ? body.query : "",
      variables: parseVariables(body.variables),
      operationName: typeof body.operationName === "string" ? body.operationName : null,
    };
  } catch (e) {
    if (e instanceof SyntaxError) throw new RequestError(`Not a valid GraphQL request body: ${e.message}`);
    throw e;
  }
}

export { headerValue };
