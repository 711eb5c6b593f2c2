import type { FastifyInstance } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { badRequest } from "./api-errors.ts";

type ActivityQuery = { limit?: string; before?: string; status?: string; function?: string };

/** Function executions of an app, newest first, a page at a time. */
export function activityRoutes(api: FastifyInstance, ctx: PlatformContext): void {
  api.get<{ Params: { app: string }; Querystring: ActivityQuery }>(
    "/api/apps/:app/activity",
    async (request) => {
      const app = await ctx.store.requireApp(request.params.app);
      const q = request.query;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw badRequest("limit must be 1-500");
      if (q.status !== undefined && q.status !== "success" && q.status !== "error") {
        throw badRequest("status must be success or error");
      }
      return ctx.store.listExecutions(app.name, {
        limit,
        before: q.before || undefined,
        status: q.status,
        function: q.function || undefined,
      });
    },
  );
}
