/// <reference path="./host.d.ts" />
/** App secrets: `get("API_TOKEN")` reads TRELLIS_APP_API_TOKEN on the host. Connection secrets never come here. */
import { appSecret } from "trellis:app/host";

/** Throws when the secret is not set. */
export function get(name: string): string {
  return appSecret(name);
}
