import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { exampleOperation, loadManifest, SCHEMA_FILE_NAME } from "@trellis/runtime";
import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import type { AppRecord } from "../store/apps-table.ts";
import { badRequest, notFound } from "./api-errors.ts";

/** The App of the API contract: the stored record plus live state from this node. */
export async function appView(ctx: PlatformContext, app: AppRecord) {
  const active = app.activeDeploymentId
    ? await ctx.store.getDeployment(app.name, app.activeDeploymentId)
    : undefined;
  return {
    name: app.name,
    url: ctx.appUrl(app.name),
    status: ctx.instances.state(app),
    activeDeploymentId: app.activeDeploymentId,
    createdAt: app.createdAt,
    lastRequestAt: ctx.instances.lastRequestAt(app.name),
    functions: active?.functions ?? [],
    /** A ready-to-run operation on the live deployment's schema (the console's curl example). */
    exampleOperation: active ? await exampleFor(ctx, app.name, active.id) : null,
    /** Where the live deployment's pages are served; null when it has no front end. */
    siteUrl: active?.site ? ctx.siteUrl(app.name) : null,
  };
}

/** Example operations by deployment id (a deployment's schema never changes). */
const examples = new Map<string, string>();

async function exampleFor(ctx: PlatformContext, app: string, deploymentId: string): Promise<string | null> {
  const known = examples.get(deploymentId);
  if (known !== undefined) return known;
  try {
    const buildDir = await ctx.files.buildDir(app, deploymentId);
    const sdl = await readFile(join(buildDir, SCHEMA_FILE_NAME), "utf8");
    // Functions a public endpoint serves are callable by anyone, so need no secret: the best example.
    const manifest = await loadManifest(buildDir).then(
      (m) => m.manifest,
      () => undefined,
    );
    const open = Object.values(manifest?.endpoints ?? {}).flatMap((e) =>
      e.auth === "none" ? (e.functions ?? []) : [],
    );
    const example = exampleOperation(sdl, open);
    if (examples.size >= 1000) examples.clear();
    examples.set(deploymentId, example);
    return example;
  } catch {
    return null;
  }
}

export function appRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  api.get("/api/session", async () => ({ ok: true }));

  api.get("/api/apps", async () => {
    const apps = await ctx.store.listApps();
    return { apps: await Promise.all(apps.map((a) => appView(ctx, a))) };
  });

  api.post<{ Body: { name?: unknown } }>("/api/apps", async (request, reply) => {
    const name = request.body?.name;
    if (typeof name !== "string") throw badRequest('send {"name": "<app name>"}');
    const { app, deployToken } = await ctx.store.createApp(name);
    // Its graph namespace now, in the background: its first cold start then never waits for the database
    // (busy, perhaps, with another tenant's work). Made on first use instead if this fails.
    ctx.namespaces
      .of(app.name)
      .catch((err) => request.log.warn({ err, app: app.name }, "graph namespace not made yet"));
    return reply.code(201).send({ app: await appView(ctx, app), deployToken });
  });

  api.get<{ Params: { app: string } }>("/api/apps/:app", async (request) => {
    return { app: await appView(ctx, await ctx.store.requireApp(request.params.app)) };
  });

  api.delete<{ Params: { app: string } }>("/api/apps/:app", async (request, reply) => {
    const { app } = request.params;
    if (!(await ctx.store.deleteApp(app))) throw notFound(`no app named "${app}"`);
    ctx.instances.invalidate(app, "deleted");
    await ctx.files.removeApp(app);
    // A new app of the same name must not find this one's data.
    await ctx.namespaces.drop(app);
    return reply.code(204).send();
  });

  api.post<{ Params: { app: string } }>("/api/apps/:app/deploy-token", async (request) => {
    return { deployToken: await ctx.store.rotateDeployToken(request.params.app) };
  });
}
