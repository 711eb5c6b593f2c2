/**
 * The one place for what /query, /mutate, /commit, /alter and /login share: CORS, the method check,
 * body reading (limit, gzip), the per-request guarded engine, error envelopes and gzip responses.
 * A route handler only turns an `ApiRequest` into a JSON body.
 */
import type { IncomingHttpHeaders } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { AUTH_TOKEN_HEADER } from "./auth-token.ts";
import { decodeContent, readRawBody } from "./body.ts";
import { errorBody, errorBodyFor, RequestError } from "./envelope.ts";
import { guardEngine, type RequestEngine } from "./guarded-engine.ts";
import { headerValue } from "./header-value.ts";
import { RequestParams } from "./request-params.ts";
import type { ServerContext } from "./server-context.ts";

const gzipAsync = promisify(gzip);

export interface ApiRequest {
  params: RequestParams;
  headers: IncomingHttpHeaders;
  /** The request body, size-limited and gunzipped; read at most once, when the handler asks. */
  body(): Promise<Buffer>;
  /** The engine behind this request's access checks. */
  engine: RequestEngine;
  /** The client's address (the TCP peer). */
  clientAddress: string;
  ctx: ServerContext;
}

export interface ApiResponse {
  /** Finished JSON text (already HTML-safe). */
  json: string;
  headers?: Record<string, string>;
}

export type ApiHandler = (req: ApiRequest) => Promise<ApiResponse>;

// Buffers, so Fastify sends the Content-Type exactly as set (it appends a charset to strings).
const EMPTY = Buffer.alloc(0);
const INVALID_METHOD = errorBody("Invalid method", "ErrorInvalidMethod", false);

/** Wraps a route handler with the behaviour common to Dgraph's API endpoints. */
export function apiEndpoint(ctx: ServerContext, handler: ApiHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    reply.header("content-type", "application/json");
    if (request.method === "OPTIONS") return reply.send(EMPTY);
    if (request.method !== "POST" && request.method !== "PUT") {
      request.raw.resume();
      return reply.code(400).send(Buffer.from(INVALID_METHOD));
    }

    const headers = request.headers;
    const params = RequestParams.fromUrl(request.raw.url ?? "");
    let body: Promise<Buffer> | undefined;
    const apiRequest: ApiRequest = {
      params,
      headers,
      ctx,
      clientAddress: request.ip,
      body: () => {
        body ??= readRawBody(request.raw, ctx.bodyLimit).then((raw) =>
          decodeContent(raw, headers, ctx.bodyLimit),
        );
        return body;
      },
      engine: guardEngine(ctx.engine, ctx.guards, {
        accessToken: headerValue(headers, ACCESS_TOKEN_HEADER),
        authToken: headerValue(headers, AUTH_TOKEN_HEADER),
        hash: params.get("hash"),
      }),
    };

    try {
      const response = await handler(apiRequest);
      if (response.headers) reply.headers(response.headers);
      // Like Dgraph's x.WriteResponse: only successful bodies are compressed.
      if ((headerValue(headers, "accept-encoding") ?? "").includes("gzip")) {
        reply.header("content-encoding", "gzip");
        return reply.send(await gzipAsync(response.json));
      }
      return reply.send(Buffer.from(response.json));
    } catch (e) {
      if (e instanceof RequestError) {
        if (e.unexpected !== undefined) {
          ctx.logger.warn({ err: e.unexpected, reqId: request.id }, "engine threw a non-DgraphError");
        }
        return reply.send(Buffer.from(errorBodyFor(e)));
      }
      ctx.logger.error({ err: e, reqId: request.id }, "request failed");
      return reply.send(Buffer.from(errorBody((e as Error)?.message ?? String(e), "Error", false)));
    } finally {
      if (!body) request.raw.resume();
    }
  };
}
