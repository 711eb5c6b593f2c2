import type { FastifyInstance } from "fastify";
import { requiredVariables } from "../deploy/required-variables.ts";
import type { PlatformContext } from "../platform-context.ts";
import { maskValue } from "../secrets/env-cipher.ts";
import { badRequest, notFound } from "./api-errors.ts";

type EnvParams = { Params: { app: string; name: string } };

/** Env vars: values go in, only masks come out. Changing one reloads the app on its next request. */
export function envRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  api.get<{ Params: { app: string } }>("/api/apps/:app/env", async (request) => {
    const app = await ctx.store.requireApp(request.params.app);
    const vars = await ctx.store.listEnvVars(app.name);
    const required = app.activeDeploymentId
      ? await requiredVariables(await ctx.files.buildDir(app.name, app.activeDeploymentId)).catch(() => [])
      : [];
    const saved = new Set(vars.map((v) => v.name));
    return {
      vars: vars.map((v) => ({ name: v.name, maskedValue: maskValue(v.value), updatedAt: v.updatedAt })),
      required: required.map((r) => ({ ...r, set: saved.has(r.variable) })),
    };
  });

  api.put<EnvParams & { Body: { value?: unknown } }>("/api/apps/:app/env/:name", async (request) => {
    const { app, name } = request.params;
    const value = request.body?.value;
    if (typeof value !== "string") throw badRequest('send {"value": "<string>"}');
    await ctx.store.requireApp(app);
    const saved = await ctx.store.setEnvVar(app, name, value);
    ctx.instances.invalidate(app);
    return { var: { name: saved.name, maskedValue: maskValue(saved.value), updatedAt: saved.updatedAt } };
  });

  api.delete<EnvParams>("/api/apps/:app/env/:name", async (request, reply) => {
    const { app, name } = request.params;
    await ctx.store.requireApp(app);
    if (!(await ctx.store.deleteEnvVar(app, name))) throw notFound(`app "${app}" has no env var ${name}`);
    ctx.instances.invalidate(app);
    return reply.code(204).send();
  });
}
