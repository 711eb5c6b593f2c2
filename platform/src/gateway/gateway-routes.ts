import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { apiKeyAuth } from "./api-key-auth.ts";
import { gatewayApp, requestedApp } from "./gateway-app.ts";
import { graphqlError } from "./graphql-error.ts";

/**
 * The app gateway: `POST /apps/<app>/graphql`, and `POST /graphql` on host `<app>.<appDomain>`. Its hooks
 * find the app (`gatewayApp`) and check the API key (`apiKeyAuth`); the route then hands the request to
 * the app's loaded deployment (cold-starting it if needed). Every answer for a named app is counted.
 */
export function gatewayRoutes(server: FastifyInstance, ctx: PlatformContext, appDomain: string): void {
  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
    scope.decorateRequest("gatewayApp", null);
    scope.addHook("preHandler", gatewayApp(ctx, appDomain));
    scope.addHook("preHandler", apiKeyAuth(ctx));
    scope.addHook("onSend", async (request, reply, payload) => {
      const app = request.gatewayApp?.name;
      if (app !== undefined) ctx.metrics.gatewayRequests.inc({ app, status: String(reply.statusCode) });
      return payload;
    });
    scope.post("/apps/:app/graphql", (request, reply) => forward(ctx, request, reply));
    scope.post("/graphql", (request, reply) => forward(ctx, request, reply));
    // Endpoints the app's manifest declares at other paths.
    scope.post("/apps/:app/*", (request, reply) => forward(ctx, request, reply));
    // CORS preflights (OPTIONS): a public endpoint (`auth: "none"`) answers any origin; a keyed one is
    // refused before this (`apiKeyAuth`: a preflight carries no key).
    scope.options("/apps/:app/*", (request, reply) => preflight(ctx, request, reply));
    scope.route({
      method: ["POST", "OPTIONS"],
      url: "/*",
      constraints: { host: appHostPattern(appDomain) },
      handler: (request, reply) =>
        request.method === "OPTIONS" ? preflight(ctx, request, reply) : forward(ctx, request, reply),
    });
  });
}

/**
 * Whether the request is to one of the live deployment's public endpoints: anyone may call those, so any
 * origin's pages may too (CORS), the console's sandboxed thumbnail (an opaque origin) among them. No
 * credentials are involved: the answer is the same whoever asks.
 */
async function isPublicEndpoint(ctx: PlatformContext, request: FastifyRequest): Promise<boolean> {
  const { deploymentId, path = "" } = request.gatewayApp ?? {};
  if (!deploymentId) return false;
  return (await ctx.sites.config(requestedApp(request).name, deploymentId)).publicEndpoints.has(path);
}

async function preflight(ctx: PlatformContext, request: FastifyRequest, reply: FastifyReply) {
  if (!(await isPublicEndpoint(ctx, request))) return reply.code(404).send();
  return reply
    .code(204)
    .header("access-control-allow-origin", "*")
    .header("access-control-allow-methods", "POST, GET, OPTIONS")
    .header("access-control-allow-headers", "content-type, accept")
    .header("access-control-max-age", "600")
    .send();
}

/** Hands an authorised request to the app's live deployment and relays its response. */
async function forward(ctx: PlatformContext, request: FastifyRequest, reply: FastifyReply) {
  const app = requestedApp(request);
  const { preview, deploymentId, path = "", jwtClaims } = request.gatewayApp ?? {};
  if (!deploymentId) {
    return graphqlError(
      reply,
      503,
      `app "${app.name}" has no deployment yet: deploy it with \`trellis deploy\``,
      "NOT_DEPLOYED",
    );
  }
  if (path !== "/graphql" && !(await ctx.sites.config(app.name, deploymentId)).endpoints.has(path)) {
    return graphqlError(reply, 404, `app "${app.name}" declares no endpoint at ${path}`, "NOT_FOUND");
  }
  let response: Response;
  try {
    const target = preview === undefined ? undefined : { name: preview, deploymentId };
    response = await ctx.instances.fetch(
      app,
      toWebRequest(request),
      target,
      jwtClaims ? { jwtClaims } : {},
      path,
    );
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
  if (await isPublicEndpoint(ctx, request)) reply.header("access-control-allow-origin", "*");
  // Streamed, not buffered: the app's memory bounds hold the answer's bytes until they have left.
  return reply.send(
    response.body
      ? Readable.from(response.body as unknown as AsyncIterable<Uint8Array>, { objectMode: false })
      : "",
  );
}

/** Hosts `<label>.<appDomain>[:port]`, for routes only app hosts answer. */
function appHostPattern(appDomain: string): RegExp {
  const domain = appDomain.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^[a-z0-9-]{1,63}\\.${domain}(?::\\d+)?$`, "i");
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
