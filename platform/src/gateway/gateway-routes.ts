import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { bearerToken } from "../secrets/tokens.ts";
import { APP_NAME } from "../store/metadata-store.ts";
import { appFromHost } from "./app-host.ts";

const graphqlError = (reply: FastifyReply, status: number, message: string, code: string) =>
  reply
    .code(status)
    .header("content-type", "application/json; charset=utf-8")
    .send({ errors: [{ message, extensions: { code } }] });

/** Minimum time between two `lastUsedAt` writes of one key. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The app gateway: `POST /apps/<app>/graphql`, and `POST /graphql` on host `<app>.<appDomain>`. Checks the
 * API key, then hands the request to the app's loaded deployment (cold-starting it if needed).
 */
export function gatewayRoutes(server: FastifyInstance, ctx: PlatformContext, appDomain: string): void {
  const touched = new Map<string, number>();

  const serve = async (app: string, request: FastifyRequest, reply: FastifyReply) => {
    const result = await handle(app, request, reply);
    ctx.metrics.gatewayRequests.inc({ app, status: String(reply.statusCode) });
    return result;
  };

  const handle = async (appName: string, request: FastifyRequest, reply: FastifyReply) => {
    const app = APP_NAME.test(appName) ? await ctx.store.cachedApp(appName) : undefined;
    if (!app) return graphqlError(reply, 404, `no app named "${appName}" on this platform`, "NOT_FOUND");
    const presented = bearerToken(request.headers.authorization);
    if (presented === undefined) {
      return graphqlError(
        reply,
        401,
        "missing API key: send Authorization: Bearer <API key> (create one in the console's API keys tab)",
        "UNAUTHENTICATED",
      );
    }
    const key = await ctx.store.cachedActiveApiKey(app.name, presented);
    if (!key) return graphqlError(reply, 401, "invalid or revoked API key", "UNAUTHENTICATED");
    const now = Date.now();
    if (now - (touched.get(key.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      touched.set(key.id, now);
      void ctx.store.touchApiKey(key.id).catch(() => {});
    }
    if (!app.activeDeploymentId) {
      return graphqlError(
        reply,
        503,
        `app "${app.name}" has no deployment yet: deploy it with \`trellis deploy\``,
        "NOT_DEPLOYED",
      );
    }
    let response: Response;
    try {
      response = await ctx.instances.fetch(app, toWebRequest(request));
    } catch (err) {
      request.log.error({ err, app: app.name }, "app failed");
      return graphqlError(
        reply,
        502,
        `app "${app.name}" failed to start: ${(err as Error).message}`,
        "APP_FAILED",
      );
    }
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") {
        reply.header(name, value);
      }
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };

  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { app: string } }>("/apps/:app/graphql", (request, reply) =>
      serve(request.params.app, request, reply),
    );
    scope.post("/graphql", (request, reply) => {
      const app = appFromHost(request.headers.host, appDomain);
      if (app === undefined) {
        return graphqlError(
          reply,
          404,
          `use https://<app>.${appDomain}/graphql or /apps/<app>/graphql`,
          "NOT_FOUND",
        );
      }
      return serve(app, request, reply);
    });
  });
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // The API key is the platform's business: it never reaches the app.
    if (value === undefined || name === "host" || name === "content-length" || name === "authorization")
      continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const body = request.body as Buffer | undefined;
  return new Request(`http://${request.headers.host ?? "localhost"}${request.url}`, {
    method: request.method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
}
