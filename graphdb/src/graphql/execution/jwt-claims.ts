/**
 * The JWT of a GraphQL request, verified as the schema's `# Dgraph.Authorization` says, and its claims as
 * `@auth` rules see them: every claim of the token, with those under the `Namespace` claim (an object, or
 * a JSON string of one) taking precedence. Errors carry Dgraph's texts ("unable to parse jwt token:…",
 * "a valid JWT is required but was not provided", the audience errors); a request without a token has no
 * claims, unless `ClosedByDefault` refuses it.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { decodeProtectedHeader, type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import type { AuthorizationConfig, JsonWebKeyEntry } from "../schema/authorization-config.ts";
import { invalidTimeClaim } from "./numeric-dates.ts";
import {
  DEFAULT_MAX_REMOTE_ANSWER_BYTES,
  fetchFailure,
  type OutboundFetch,
  readBoundedText,
} from "./outbound-fetch.ts";

export type Claims = Readonly<Record<string, unknown>>;

/** How long a JWK set fetch may take. */
const JWKS_TIMEOUT_MS = 10_000;

/** The request's JWT, if any (a `Bearer ` prefix is dropped). */
function tokenOf(
  config: AuthorizationConfig,
  headers: Record<string, string | undefined>,
): string | undefined {
  let value = headers[config.header];
  if (value === undefined) {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === config.header) value = v;
  }
  if (value === undefined || value === "") return undefined;
  if (value.toLowerCase().startsWith("bearer ")) {
    const parts = value.split(" ");
    if (parts.length !== 2) throw new Error(`invalid Bearer-formatted header value for JWT (${value})`);
    return parts[1];
  }
  return value;
}

/**
 * The verified claims of the request, or undefined without a token (or without authorization settings).
 * Throws with Dgraph's text when the token is refused.
 */
export async function verifiedClaims(
  config: AuthorizationConfig | undefined,
  headers: Record<string, string | undefined>,
  outbound: JwksFetch = {},
): Promise<Claims | undefined> {
  if (config === undefined) return undefined;
  const token = tokenOf(config, headers);
  if (token === undefined) {
    if (config.closedByDefault) throw new Error("a valid JWT is required but was not provided");
    return undefined;
  }
  let payload: JWTPayload;
  try {
    payload =
      config.jwkUrls.length > 0
        ? await verifyWithJwks(config, token, outbound)
        : await verifyWithKey(config, token);
  } catch (e) {
    if (e instanceof JwksFetchError) throw new Error(e.message);
    throw new Error(`unable to parse jwt token:${reason(e)}`);
  }
  const claim = invalidTimeClaim(payload);
  if (claim !== undefined) {
    throw new Error(
      `unable to parse jwt token:token has invalid claims: "${claim}" is not whole seconds since 1970 up to the year 9999`,
    );
  }
  checkAudience(config, payload);
  return claimsOf(config, payload);
}

class JwksFetchError extends Error {}

/** How JWK sets are fetched: the service's outbound fetch and answer limit (defaults: `fetch`, 32 MiB). */
export interface JwksFetch {
  fetch?: OutboundFetch;
  maxAnswerBytes?: number;
}

async function verifyWithKey(config: AuthorizationConfig, token: string): Promise<JWTPayload> {
  const alg = headerAlg(token);
  if (alg !== config.algo) throw new Error(`unexpected signing method: Expected ${config.algo} Found ${alg}`);
  const { payload } = await jwtVerify(token, config.key as KeyObject | Uint8Array, {
    algorithms: [config.algo],
  });
  return payload;
}

function headerAlg(token: string): string {
  if (token.split(".").length !== 3) throw new Error("token contains an invalid number of segments");
  const header = decodeProtectedHeader(token);
  return typeof header.alg === "string" ? header.alg : "";
}

/** Tries each JWK URL's key set in turn; the last failure is reported when none verifies the token. */
async function verifyWithJwks(
  config: AuthorizationConfig,
  token: string,
  outbound: JwksFetch,
): Promise<JWTPayload> {
  const alg = headerAlg(token);
  const kid = decodeProtectedHeader(token).kid;
  if (kid === undefined) throw new Error("kid not present in JWT");
  let last: unknown;
  for (const url of config.jwkUrls) {
    const keys = await jwkSet(config, url, outbound);
    const jwk = keys.find((k) => k.kid === kid);
    if (jwk === undefined) {
      last = new Error("Invalid kid");
      continue;
    }
    try {
      const key =
        jwk.kty === "oct"
          ? Buffer.from(String(jwk.k), "base64url")
          : createPublicKey({ key: jwk as never, format: "jwk" });
      const { payload } = await jwtVerify(token, key, { algorithms: [jwk.alg ?? alg] });
      return payload;
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** A URL's JWK set, fetched (with a timeout) when not cached or when its `max-age` ran out. */
async function jwkSet(
  config: AuthorizationConfig,
  url: string,
  outbound: JwksFetch,
): Promise<JsonWebKeyEntry[]> {
  const cached = config.jwksCache.get(url);
  if (cached !== undefined && cached.expires > Date.now()) return cached.keys;
  try {
    let res: Response;
    try {
      res = await (outbound.fetch ?? fetch)(url, {
        signal: AbortSignal.timeout(JWKS_TIMEOUT_MS),
        redirect: "error",
      });
    } catch (e) {
      throw new Error(fetchFailure(e));
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const maxBytes = outbound.maxAnswerBytes ?? DEFAULT_MAX_REMOTE_ANSWER_BYTES;
    const body = JSON.parse(await readBoundedText(res, maxBytes, `the JWK set at ${url}`)) as {
      keys?: JsonWebKeyEntry[];
    };
    const keys = Array.isArray(body.keys) ? body.keys : [];
    const maxAge = /max-age=(\d+)/i.exec(res.headers.get("cache-control") ?? "");
    const expires = maxAge === null ? Number.POSITIVE_INFINITY : Date.now() + Number(maxAge[1]) * 1000;
    config.jwksCache.set(url, { keys, expires });
    return keys;
  } catch (e) {
    throw new JwksFetchError(`while refreshing JWK from the URL: ${(e as Error).message}`);
  }
}

/** A Go duration's text (`1h0m5s`, `42s`) for a number of seconds. */
function goDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h${m}m${rest}s`;
  if (m > 0) return `${m}m${rest}s`;
  return `${rest}s`;
}

/** jose's errors, worded as the Go JWT library Dgraph uses words them. */
function reason(e: unknown): string {
  if (e instanceof joseErrors.JWTExpired) {
    const exp = typeof e.payload.exp === "number" ? e.payload.exp : Date.now() / 1000;
    return `token is expired by ${goDuration(Date.now() / 1000 - exp)}`;
  }
  if (e instanceof joseErrors.JWTClaimValidationFailed && e.claim === "nbf") return "token is not valid yet";
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return "signature is invalid";
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return e.message;
  return e instanceof Error ? e.message : String(e);
}

function checkAudience(config: AuthorizationConfig, payload: JWTPayload): void {
  const aud = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (aud.length === 0) return;
  if (config.audience === undefined) throw new Error("audience value was expected but not provided");
  if (!aud.some((a) => config.audience?.includes(a))) {
    throw new Error("JWT `aud` value doesn't match with the audience");
  }
}

function claimsOf(config: AuthorizationConfig, payload: JWTPayload): Claims {
  const claims: Record<string, unknown> = { ...payload };
  let own = claims[config.namespace];
  delete claims[config.namespace];
  if (typeof own === "string") {
    try {
      own = JSON.parse(own);
    } catch {
      throw new Error(`unable to parse jwt token:${config.namespace} is not a JSON object`);
    }
  }
  if (own !== null && typeof own === "object" && !Array.isArray(own)) Object.assign(claims, own);
  return claims;
}
