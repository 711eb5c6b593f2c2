import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import type { DeploymentSource } from "../store/deployments-table.ts";
import type { AuthConfig } from "./admin-auth.ts";

const SOURCES = new Set<DeploymentSource>(["cli", "action", "api"]);

/** Deployments: upload (admin or deploy token), list, rollback. */
export function deploymentRoutes(api: FastifyInstance, ctx: PlatformContext, bodyLimit: number): void {
  api.get<{ Params: { app: string } }>("/api/apps/:app/deployments", async (request) => {
    const app = await ctx.store.requireApp(request.params.app);
    return { deployments: await ctx.store.listDeployments(app.name) };
  });

  api.post<{ Params: { app: string }; Body: Buffer }>(
    "/api/apps/:app/deployments",
    { bodyLimit, config: { deployToken: true } satisfies AuthConfig },
    async (request, reply) => {
      const header = String(request.headers["x-trellis-deploy-source"] ?? "api");
      const source = SOURCES.has(header as DeploymentSource) ? (header as DeploymentSource) : "api";
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const deployment = await ctx.deployer.deploy(request.params.app, body, source);
      // `endpoint` extends the contract so that deploy clients can print where the app answers.
      return reply.code(201).send({ deployment, endpoint: ctx.appUrl(request.params.app) });
    },
  );

  api.post<{ Params: { app: string; id: string } }>(
    "/api/apps/:app/deployments/:id/rollback",
    async (request) => {
      return { deployment: await ctx.deployer.rollback(request.params.app, request.params.id) };
    },
  );
}
