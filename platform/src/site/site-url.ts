import { PREVIEW_SEPARATOR } from "../deploy/preview-branch.ts";

/**
 * Where an app's pages are served: the platform's scheme and port, on the app's own host
 * (`http://shop.localhost:8787`, a preview `http://shop--feature-x.localhost:8787`), so each app's pages
 * have an origin of their own, apart from the console's and other apps'.
 */
export function siteUrl(baseUrl: string, appDomain: string, app: string, preview?: string): string {
  const base = new URL(baseUrl);
  const label = preview === undefined ? app : `${app}${PREVIEW_SEPARATOR}${preview}`;
  return `${base.protocol}//${label}.${appDomain}${base.port ? `:${base.port}` : ""}`;
}
