import { APP_NAME } from "../store/apps-table.ts";

/** `my-app` from `my-app.localhost:8787`. */
export function appFromHost(host: string | undefined, appDomain: string): string | undefined {
  const name = (host ?? "").replace(/:\d+$/, "").toLowerCase();
  const suffix = `.${appDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return undefined;
  const app = name.slice(0, -suffix.length);
  return APP_NAME.test(app) ? app : undefined;
}
