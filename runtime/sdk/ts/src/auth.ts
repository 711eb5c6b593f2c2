/// <reference path="./host.d.ts" />
/**
 * The user behind a call: the claims of the JWT that authorized it, on an endpoint declared
 * `"auth": "jwt"` in trellis.json (Modus's `auth.getJWTClaims`). The platform's gateway (or `trellis dev`)
 * has verified the token against the app's keys before the function runs.
 */
import { jwtClaims } from "trellis:app/host";

/**
 * The verified JWT claims of the call being served, parsed from JSON; `null` when it has none (it came
 * with an API key, on a public endpoint, or from the graph database's `@lambda` fields).
 *
 *     const claims = auth.getJWTClaims<{ sub: string; email?: string }>();
 *     if (!claims) throw new Error("sign in first");
 */
export function getJWTClaims<T = Record<string, unknown>>(): T | null {
  const text = jwtClaims();
  return text == null ? null : (JSON.parse(text) as T);
}
