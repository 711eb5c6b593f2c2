import type { FastifyReply, FastifyRequest } from "fastify";
import { splitSiteLabel } from "../deploy/preview-branch.ts";
import type { PlatformContext } from "../platform-context.ts";
import { APP_NAME, type AppRecord } from "../store/apps-table.ts";
import { siteLabelFromHost } from "./app-host.ts";
import { graphqlError } from "./graphql-error.ts";

/** The app a gateway request is for: its name as requested, and its record once found. */
export interface GatewayApp {
  name: string;
  record?: AppRecord;
  /** The preview asked for (`<app>--<preview>`), if any. */
  preview?: string;
  /** The deployment that serves the request: the app's live one, or the preview's. */
  deploymentId?: string | null;
  /** The endpoint path within the app (`/graphql`). */
  path?: string;
  /** The claims of the user JWT that authorized the request (set by `apiKeyAuth`); they reach its functions. */
  jwtClaims?: Record<string, unknown>;
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
    const inPath = (request.params as { app?: string }).app;
    const label = inPath ?? siteLabelFromHost(request.headers.host, appDomain);
    if (label === undefined) {
      return graphqlError(
        reply,
        404,
        `use https://<app>.${appDomain}/graphql or /apps/<app>/graphql`,
        "NOT_FOUND",
      );
    }
    const { app: name, preview } = splitSiteLabel(label);
    const path = request.url.split("?")[0].slice(inPath === undefined ? 0 : `/apps/${inPath}`.length);
    request.gatewayApp = { name, preview, path };
    const record = APP_NAME.test(name) ? await ctx.store.cachedApp(name) : undefined;
    if (!record) return graphqlError(reply, 404, `no app named "${name}" on this platform`, "NOT_FOUND");
    request.gatewayApp.record = record;
    request.gatewayApp.deploymentId = record.activeDeploymentId;
    if (preview !== undefined) {
      const target = await ctx.sites.target(name, preview);
      if (!target) {
        return graphqlError(reply, 404, `app "${name}" has no preview "${preview}"`, "NOT_FOUND");
      }
      request.gatewayApp.deploymentId = target.deploymentId;
    }
    return undefined;
  };
}

/** The app record `gatewayApp` found (the hooks after it and the routes only run when it did). */
export function requestedApp(request: FastifyRequest): AppRecord {
  const record = request.gatewayApp?.record;
  if (!record) throw new Error("gateway request without an app: register the gatewayApp hook first");
  return record;
}
