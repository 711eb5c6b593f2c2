import { APP_NAME } from "../store/apps-table.ts";

/** The first label of an app host: `shop--feature` from `shop--feature.localhost:8787` (app `shop`, preview `feature`). */
export function siteLabelFromHost(host: string | undefined, appDomain: string): string | undefined {
  const name = (host ?? "").replace(/:\d+$/, "").toLowerCase();
  const suffix = `.${appDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(label) ? label : undefined;
}

/** `my-app` from `my-app.localhost:8787`. */
export function appFromHost(host: string | undefined, appDomain: string): string | undefined {
  const name = (host ?? "").replace(/:\d+$/, "").toLowerCase();
  const suffix = `.${appDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const app = name.slice(0, -suffix.length);
  return APP_NAME.test(app) ? app : undefined;
}
