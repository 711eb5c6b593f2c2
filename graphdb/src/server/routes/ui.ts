/** GET /ui/keywords (Ratel's autocompletion list) and GET / (the home text). */
import type { FastifyReply, FastifyRequest } from "fastify";
import { toJson } from "../envelope.ts";
import { sendJson } from "../reply.ts";
import { allowRoute } from "../route-access.ts";
import type { ServerContext } from "../server-context.ts";

/** Dgraph's fixed keyword list (61 words), all with an empty `type`. */
export const UI_KEYWORDS: readonly string[] = [
  "@cascade",
  "@facets",
  "@filter",
  "@if",
  "@normalize",
  "after",
  "allofterms",
  "alloftext",
  "and",
  "anyofterms",
  "anyoftext",
  "as",
  "avg",
  "ceil",
  "cond",
  "contains",
  "count",
  "delete",
  "eq",
  "exact",
  "exp",
  "expand",
  "first",
  "floor",
  "fulltext",
  "func",
  "ge",
  "gt",
  "index",
  "intersects",
  "le",
  "len",
  "ln",
  "logbase",
  "lt",
  "math",
  "max",
  "min",
  "mutation",
  "near",
  "ngram",
  "not",
  "offset",
  "or",
  "orderasc",
  "orderdesc",
  "pow",
  "recurse",
  "regexp",
  "reverse",
  "schema",
  "since",
  "set",
  "sqrt",
  "sum",
  "term",
  "tokenizer",
  "type",
  "uid",
  "within",
  "upsert",
];

const KEYWORDS_JSON = toJson({ keywords: UI_KEYWORDS.map((name) => ({ type: "", name })) });

export function keywordsRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(ctx.responseHeaders(request.headers.origin));
    if (request.method === "OPTIONS") return reply.send(Buffer.alloc(0));
    if (request.method !== "GET") {
      // Go's http.Error(w, "ErrorInvalidMethod", 400).
      return reply.code(400).header("content-type", "text/plain; charset=utf-8").send("ErrorInvalidMethod\n");
    }
    if (ctx.requireAuth && !(await allowRoute(ctx, request, reply, "token"))) return reply;
    return sendJson(reply, KEYWORDS_JSON);
  };
}

export function homeRoute(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    request.raw.resume();
    if (ctx.requireAuth && !(await allowRoute(ctx, request, reply, "token"))) return reply;
    return reply
      .header("content-type", "text/plain; charset=utf-8")
      .send("Dgraph browser is available for running separately using the dgraph-ratel binary");
  };
}
