import type { FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../platform-context.ts";
import { APP_NAME, type AppRecord } from "../store/apps-table.ts";
import { appFromHost } from "./app-host.ts";
import { graphqlError } from "./graphql-error.ts";

/** The app a gateway request is for: its name as requested, and its record once found. */
export interface GatewayApp {
  name: string;
  record?: AppRecord;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set on gateway requests by the `gatewayApp` hook; null elsewhere. */
    gatewayApp?: GatewayApp | null;
  }
}

/**
 * preHandler hook of the gateway: finds the app a request is for, from `/apps/<app>/graphql` or from the
 * host `<app>.<appDomain>` of `POST /graphql`, and keeps it on `request.gatewayApp`; a 404 when there is
 * no such app. The hooks after it (`apiKeyAuth`) and the route rely on `request.gatewayApp.record`.
 */
export function gatewayApp(ctx: PlatformContext, appDomain: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const name = (request.params as { app?: string }).app ?? appFromHost(request.headers.host, appDomain);
    if (name === undefined) {
      return graphqlError(
        reply,
        404,
        `use https://<app>.${appDomain}/graphql or /apps/<app>/graphql`,
        "NOT_FOUND",
      );
    }
    request.gatewayApp = { name };
    const record = APP_NAME.test(name) ? await ctx.store.cachedApp(name) : undefined;
    if (!record) return graphqlError(reply, 404, `no app named "${name}" on this platform`, "NOT_FOUND");
    request.gatewayApp.record = record;
    return undefined;
  };
}

/** The app record `gatewayApp` found (the hooks after it and the routes only run when it did). */
export function requestedApp(request: FastifyRequest): AppRecord {
  const record = request.gatewayApp?.record;
  if (!record) throw new Error("gateway request without an app: register the gatewayApp hook first");
  return record;
}
