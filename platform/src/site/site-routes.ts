import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { splitSiteLabel } from "../deploy/preview-branch.ts";
import { siteLabelFromHost } from "../gateway/app-host.ts";
import type { PlatformContext } from "../platform-context.ts";
import { type SecurityOptions, siteSecurityHeaders } from "../security-headers.ts";
import { APP_NAME } from "../store/apps-table.ts";

/** Paths of an app host that stay the gateway's and the platform's, whatever the site holds. */
const RESERVED = /^\/(?:graphql(?:[/?]|$)|admin\/|apps\/|api\/)/;

/**
 * Static sites. `GET`/`HEAD` on `<app>.<appDomain>` (production) or `<app>--<preview>.<appDomain>` (a
 * preview) are answered from the serving deployment's `static/` files by an onRequest hook, before
 * routing, so that no route of the platform's own origin (the console's files) can shadow an app's
 * file. Apps without a site, and the app host's `/graphql`, are routed as before. `{app_url}/` —
 * `/apps/<app>/…` — redirects to the app's host: an app's pages never run on the console's origin.
 * Static files are public: no API key. Registered before the platform's security headers hook: site
 * responses carry their own set (`siteSecurityHeaders`), computed once.
 */
export function siteRoutes(server: FastifyInstance, ctx: PlatformContext, security: SecurityOptions): void {
  const { appDomain } = security;
  let securityHeaders: Record<string, string> | undefined;
  server.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const label = siteLabelFromHost(request.headers.host, appDomain);
    if (label === undefined || RESERVED.test(request.url)) return;
    const { app, preview } = splitSiteLabel(label);
    if (!APP_NAME.test(app)) return;
    const target = await ctx.sites.target(app, preview);
    if (!target) return;
    const site = await ctx.sites.site(app, target.deploymentId);
    if (!site) return;
    // The platform's public origin (of `appUrl`, known once listening) is where the console runs.
    securityHeaders ??= siteSecurityHeaders(security, new URL(ctx.appUrl(app)).origin);
    const response = await ctx.sites.respond(site, siteRequest(request));
    reply.code(response.status).headers(securityHeaders).headers(response.headers);
    return reply.send(response.body);
  });

  const redirect = async (
    request: FastifyRequest<{ Params: { app: string; "*"?: string } }>,
    reply: FastifyReply,
  ) => {
    const { app, preview } = splitSiteLabel(request.params.app);
    const target = APP_NAME.test(app) ? await ctx.sites.target(app, preview) : undefined;
    const site = target && (await ctx.sites.site(app, target.deploymentId));
    if (!site) {
      return reply.code(404).send({
        error: {
          code: "NOT_FOUND",
          message: `app "${request.params.app}" serves no pages: deploy a build with a front end`,
        },
      });
    }
    const rest = request.url.slice(`/apps/${request.params.app}`.length) || "/";
    return reply.redirect(`${ctx.siteUrl(app, preview)}${rest.startsWith("/") ? rest : `/${rest}`}`, 302);
  };
  server.get("/apps/:app", redirect);
  server.get("/apps/:app/*", redirect);
}

function siteRequest(request: FastifyRequest) {
  const encoding = request.headers["accept-encoding"];
  const match = request.headers["if-none-match"];
  return {
    method: request.method,
    url: request.url,
    acceptEncoding: Array.isArray(encoding) ? encoding.join(",") : encoding,
    ifNoneMatch: Array.isArray(match) ? match.join(",") : match,
  };
}
