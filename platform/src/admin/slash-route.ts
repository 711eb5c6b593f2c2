import type { FastifyInstance, FastifyReply } from "fastify";
import { buildSchema, type ExecutionResult, graphql } from "graphql";
import { checkCredential, tooManyFailures } from "../api/admin-auth.ts";
import type { PlatformContext } from "../platform-context.ts";
import { secretMatches } from "../secrets/tokens.ts";

/** The hosted admin API: a GraphQL schema with the one mutation the spec defines. */
const ADMIN_SCHEMA = buildSchema(`
  type Query { health: String }
  type Mutation { dropData(allData: Boolean, allDataAndSchema: Boolean): DropDataPayload }
  type DropDataPayload { response: Response }
  type Response { code: String message: String }
`);

const errors = (reply: FastifyReply, status: number, message: string, code: string) =>
  reply.code(status).send({ errors: [{ message, extensions: { code } }] });

/**
 * `POST /admin/slash` (`X-Auth-Token: <admin token>`, `Content-Type: application/graphql`):
 * `dropData(allData: true)` drops the data and keeps the schema; `allDataAndSchema: true` drops both.
 * Wrong tokens count towards the same per-address backoff as the control plane's (429 + Retry-After).
 */
export function slashRoute(server: FastifyInstance, ctx: PlatformContext): void {
  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
    scope.post<{ Body: string }>("/admin/slash", async (request, reply) => {
      const token = request.headers["x-auth-token"];
      if (typeof token !== "string" || token === "") {
        return errors(
          reply,
          401,
          "missing X-Auth-Token header: send the platform's admin token",
          "UNAUTHENTICATED",
        );
      }
      const verdict = await checkCredential(ctx, request, "invalid X-Auth-Token", () =>
        secretMatches(token, ctx.adminToken) ? "admin" : "invalid",
      );
      if (typeof verdict === "object") {
        reply.header("retry-after", String(verdict.retryAfterSeconds));
        return errors(reply, 429, tooManyFailures(verdict.retryAfterSeconds), "TOO_MANY_REQUESTS");
      }
      if (verdict === "invalid") {
        return errors(reply, 401, "invalid X-Auth-Token: send the platform's admin token", "UNAUTHENTICATED");
      }
      const { query, variables } = graphqlRequest(request.headers["content-type"], request.body ?? "");
      const result: ExecutionResult = await graphql({
        schema: ADMIN_SCHEMA,
        source: query,
        variableValues: variables,
        rootValue: {
          health: () => "ok",
          dropData: async (args: { allData?: boolean | null; allDataAndSchema?: boolean | null }) => {
            if (args.allDataAndSchema === true) await ctx.graph.alter({ dropAll: true });
            else if (args.allData === true) await ctx.graph.alter({ dropOp: "DATA" });
            else throw new Error("dropData needs allData: true or allDataAndSchema: true");
            ctx.logger.warn({ ...args }, "graph data dropped via /admin/slash");
            return { response: { code: "Success", message: "Done" } };
          },
        },
      });
      return reply.code(result.errors && !result.data ? 400 : 200).send(result);
    });
  });
}

/** `application/graphql` carries the document itself; `application/json` a `{query, variables}` object. */
function graphqlRequest(
  contentType: string | undefined,
  body: string,
): { query: string; variables?: Record<string, unknown> } {
  if ((contentType ?? "").includes("application/json")) {
    try {
      const parsed = JSON.parse(body) as { query?: string; variables?: Record<string, unknown> };
      return { query: parsed.query ?? "", variables: parsed.variables };
    } catch {
      return { query: body };
    }
  }
  return { query: body };
}
