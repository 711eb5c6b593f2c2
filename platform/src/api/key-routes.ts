import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { badRequest, notFound } from "./api-errors.ts";

/** API keys of an app: the secret is returned once, at creation. */
export function keyRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  api.get<{ Params: { app: string } }>("/api/apps/:app/keys", async (request) => {
    const app = await ctx.store.requireApp(request.params.app);
    return { keys: await ctx.store.listApiKeys(app.name) };
  });

  api.post<{ Params: { app: string }; Body: { name?: unknown } }>(
    "/api/apps/:app/keys",
    async (request, reply) => {
      const app = await ctx.store.requireApp(request.params.app);
      const name = request.body?.name ?? "default";
      if (typeof name !== "string" || name.length > 100) throw badRequest('send {"name": "<key name>"}');
      const { key, secret } = await ctx.store.createApiKey(app.name, name);
      return reply.code(201).send({ key, secret });
    },
  );

  api.delete<{ Params: { app: string; id: string } }>("/api/apps/:app/keys/:id", async (request, reply) => {
    const { app, id } = request.params;
    await ctx.store.requireApp(app);
    if (!(await ctx.store.revokeApiKey(app, id))) throw notFound(`app "${app}" has no API key ${id}`);
    return reply.code(204).send();
  });
}
