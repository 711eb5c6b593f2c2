import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import type { DeploymentRecord, DeploymentSource } from "../store/deployments-table.ts";
import type { AuthConfig } from "./admin-auth.ts";

const SOURCES = new Set<DeploymentSource>(["cli", "action", "api"]);

/**
 * Deployments: upload (admin or deploy token), list, rollback, remove (by id, or a branch's preview by
 * the branch's name). An upload with `X-Trellis-Deploy-Branch` naming a branch other than main is that
 * branch's preview.
 */
export function deploymentRoutes(api: FastifyInstance, ctx: PlatformContext, bodyLimit: number): void {
  /** A deployment as the API shows it: with its preview's URL when it is a live preview. */
  const shown = (app: string, d: DeploymentRecord) => ({
    ...d,
    previewUrl: d.status === "preview" && d.preview ? ctx.siteUrl(app, d.preview) : null,
  });

  api.get<{ Params: { app: string } }>("/api/apps/:app/deployments", async (request) => {
    const app = await ctx.store.requireApp(request.params.app);
    return { deployments: (await ctx.store.listDeployments(app.name)).map((d) => shown(app.name, d)) };
  });

  api.post<{ Params: { app: string }; Body: Buffer }>(
    "/api/apps/:app/deployments",
    { bodyLimit, config: { deployToken: true } satisfies AuthConfig },
    async (request, reply) => {
      const { app } = request.params;
      const header = String(request.headers["x-trellis-deploy-source"] ?? "api");
      const source = SOURCES.has(header as DeploymentSource) ? (header as DeploymentSource) : "api";
      const branch = request.headers["x-trellis-deploy-branch"];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const deployment = await ctx.deployer.deploy(
        app,
        body,
        source,
        typeof branch === "string" ? branch : undefined,
      );
      // `endpoint` extends the contract so that deploy clients can print where the app answers.
      const endpoint = deployment.preview
        ? `${ctx.siteUrl(app, deployment.preview)}/graphql`
        : ctx.appUrl(app);
      // And where its pages are, when it has a front end (a preview's pages are at its preview URL).
      const siteUrl = deployment.site ? ctx.siteUrl(app, deployment.preview ?? undefined) : null;
      return reply.code(201).send({ deployment: shown(app, deployment), endpoint, siteUrl });
    },
  );

  api.post<{ Params: { app: string; id: string } }>(
    "/api/apps/:app/deployments/:id/rollback",
    async (request) => {
      return { deployment: await ctx.deployer.rollback(request.params.app, request.params.id) };
    },
  );

  api.delete<{ Params: { app: string; id: string } }>(
    "/api/apps/:app/deployments/:id",
    { config: { deployToken: true } satisfies AuthConfig },
    async (request) => {
      const removed = await ctx.deployer.remove(request.params.app, request.params.id);
      return { deployment: removed };
    },
  );

  // The preview of a branch, by the branch's name (the deploy action's `remove-preview`, on branch deletion).
  api.delete<{ Params: { app: string; branch: string } }>(
    "/api/apps/:app/previews/:branch",
    { config: { deployToken: true } satisfies AuthConfig },
    async (request) => {
      const removed = await ctx.deployer.removePreview(request.params.app, request.params.branch);
      return { deployment: shown(request.params.app, removed) };
    },
  );
}
