import { GALAXY_NAMESPACE } from "@trellis/graphdb";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { buildSchema, type ExecutionResult, graphql } from "graphql";
import { checkCredential, credentialTried } from "../api/admin-auth.ts";
import { appFromHost } from "../gateway/app-host.ts";
import type { PlatformContext } from "../platform-context.ts";
import { secretMatches } from "../secrets/tokens.ts";
import { APP_NAME } from "../store/apps-table.ts";

/** The hosted admin API: a GraphQL schema with the one mutation the spec defines. */
const ADMIN_SCHEMA = buildSchema(`
  type Query { health: String }
  type Mutation { dropData(allData: Boolean, allDataAndSchema: Boolean): DropDataPayload }
  type DropDataPayload { response: Response }
  type Response { code: String message: String }
`);

const errors = (reply: FastifyReply, status: number, message: string, code: string) =>
  reply.code(status).send({ errors: [{ message, extensions: { code } }] });

type DropArgs = { allData?: boolean | null; allDataAndSchema?: boolean | null };

/**
 * `POST {app_url}/admin/slash` — `/apps/<app>/admin/slash`, or `/admin/slash` on host `<app>.<appDomain>` —
 * acts on that app's graph namespace only; `X-Auth-Token` is the platform's admin token or the app's
 * deploy token. `POST /admin/slash` on the platform's own host acts on every app's namespace (not the
 * operator's namespace 0), with the admin token only. `Content-Type: application/graphql` (or JSON):
 * `dropData(allData: true)` drops the data and keeps the schema; `allDataAndSchema: true` drops both.
 * Namespaces and their logins stay. Wrong tokens count towards the per-address and per-credential backoff (429 + Retry-After; see
 * `AuthThrottle`).
 */
export function slashRoute(server: FastifyInstance, ctx: PlatformContext, appDomain: string): void {
  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => done(null, body));
    scope.post<{ Body: string }>("/admin/slash", (request, reply) =>
      slash(ctx, request, reply, appFromHost(request.headers.host, appDomain)),
    );
    scope.post<{ Params: { app: string }; Body: string }>("/apps/:app/admin/slash", (request, reply) =>
      slash(ctx, request, reply, request.params.app),
    );
  });
}

async function slash(
  ctx: PlatformContext,
  request: FastifyRequest<{ Body: string }>,
  reply: FastifyReply,
  appName: string | undefined,
) {
  const token = request.headers["x-auth-token"];
  const expected =
    appName === undefined ? "the platform's admin token" : "the admin token or the app's deploy token";
  if (typeof token !== "string" || token === "") {
    return errors(reply, 401, `missing X-Auth-Token header: send ${expected}`, "UNAUTHENTICATED");
  }
  const app =
    appName !== undefined && APP_NAME.test(appName) ? await ctx.store.cachedApp(appName) : undefined;
  const credential = credentialTried(token, app?.name);
  const verdict = await checkCredential(ctx, request, credential, "invalid X-Auth-Token", async () => {
    if (secretMatches(token, ctx.adminToken)) return "admin";
    if (app && (await ctx.store.verifyDeployToken(app.name, token))) return "admin";
    return "invalid";
  });
  if (typeof verdict === "object") {
    reply.header("retry-after", String(verdict.retryAfterSeconds));
    return errors(reply, 429, verdict.message, "TOO_MANY_REQUESTS");
  }
  if (verdict === "invalid")
    return errors(reply, 401, `invalid X-Auth-Token: send ${expected}`, "UNAUTHENTICATED");
  if (appName !== undefined && !app) {
    return errors(reply, 404, `no app named "${appName}" on this platform`, "NOT_FOUND");
  }
  const namespaces = async () =>
    app
      ? [(await ctx.namespaces.of(app.name)).namespace]
      : (await ctx.graph.listNamespaces()).filter((ns) => ns !== GALAXY_NAMESPACE);
  const { query, variables } = graphqlRequest(request.headers["content-type"], request.body ?? "");
  const result: ExecutionResult = await graphql({
    schema: ADMIN_SCHEMA,
    source: query,
    variableValues: variables,
    rootValue: {
      health: () => "ok",
      dropData: async (args: DropArgs) => {
        if (args.allDataAndSchema !== true && args.allData !== true) {
          throw new Error("dropData needs allData: true or allDataAndSchema: true");
        }
        const all = args.allDataAndSchema === true;
        const dropped = await namespaces();
        for (const namespace of dropped) {
          await ctx.graph.alter(all ? { namespace, dropAll: true } : { namespace, dropOp: "DATA" });
        }
        ctx.logger.warn(
          { ...args, app: app?.name ?? "*", namespaces: dropped },
          "graph data dropped via /admin/slash",
        );
        return { response: { code: "Success", message: "Done" } };
      },
    },
  });
  return reply.code(result.errors && !result.data ? 400 : 200).send(result);
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
