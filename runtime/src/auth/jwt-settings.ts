/**
 * Where an app's `auth: "jwt"` endpoints get their keys and checks: the app's env vars, in Modus's shapes
 * under Trellis names (Modus reads `MODUS_PEMS` and `MODUS_JWKS_ENDPOINTS`):
 *
 * - `TRELLIS_JWT_PEMS`: a JSON object of PEM public keys or certificates (`{"main": "-----BEGIN PUBLIC
 *   KEY-----\n…"}`), or one PEM as is;
 * - `TRELLIS_JWT_JWKS_ENDPOINTS`: a JSON object of JWKS URLs (`{"auth0": "https://…/.well-known/jwks.json"}`),
 *   or one URL as is; https only, except on a loopback host;
 * - `TRELLIS_JWT_JWKS_REFRESH_MINUTES`: how long a fetched key set is used before it is fetched again
 *   (default 60; an unknown `kid` refetches sooner, at most every 30 seconds);
 * - `TRELLIS_JWT_ISSUER`, `TRELLIS_JWT_AUDIENCE`: the `iss` and `aud` a token must carry (optional; several
 *   accepted values separated by commas).
 */
import { createPublicKey, type KeyObject } from "node:crypto";

export const JWT_ENV = {
  pems: "TRELLIS_JWT_PEMS",
  jwksEndpoints: "TRELLIS_JWT_JWKS_ENDPOINTS",
  jwksRefreshMinutes: "TRELLIS_JWT_JWKS_REFRESH_MINUTES",
  issuer: "TRELLIS_JWT_ISSUER",
  audience: "TRELLIS_JWT_AUDIENCE",
} as const;

/** Bounds on what the env vars may declare: each key is tried in turn, each URL fetched. */
const MAX_PEMS = 16;
const MAX_JWKS_ENDPOINTS = 8;
const DEFAULT_REFRESH_MINUTES = 60;

export interface JwtSettings {
  /** Public keys from `TRELLIS_JWT_PEMS`, by name. */
  pems: { name: string; key: KeyObject }[];
  /** JWKS URLs from `TRELLIS_JWT_JWKS_ENDPOINTS`, by name. */
  jwksEndpoints: { name: string; url: URL }[];
  jwksMaxAgeMs: number;
  issuer?: string[];
  audience?: string[];
}

/** An env var of the JWT settings that cannot be used; the message names it and says how to fix it. */
export class JwtSettingsError extends Error {
  override name = "JwtSettingsError";
}

/** The JWT settings in `env`; undefined when it declares no key at all (no token can be verified). */
export function readJwtSettings(env: Record<string, string | undefined>): JwtSettings | undefined {
  const pems = namedValues(env, JWT_ENV.pems, (v) => v.trimStart().startsWith("-----BEGIN"), MAX_PEMS);
  const endpoints = namedValues(
    env,
    JWT_ENV.jwksEndpoints,
    (v) => /^https?:\/\//i.test(v),
    MAX_JWKS_ENDPOINTS,
  );
  if (pems.length === 0 && endpoints.length === 0) return undefined;
  return {
    pems: pems.map(({ name, value }) => ({ name, key: publicKey(name, value) })),
    jwksEndpoints: endpoints.map(({ name, value }) => ({ name, url: jwksUrl(name, value) })),
    jwksMaxAgeMs: refreshMinutes(env[JWT_ENV.jwksRefreshMinutes]) * 60_000,
    issuer: list(env[JWT_ENV.issuer]),
    audience: list(env[JWT_ENV.audience]),
  };
}

/** The values of a JSON-object variable (or of one bare value, `single` tells which), bounded in count. */
function namedValues(
  env: Record<string, string | undefined>,
  variable: string,
  single: (value: string) => boolean,
  max: number,
): { name: string; value: string }[] {
  const raw = env[variable]?.trim();
  if (!raw) return [];
  if (single(raw)) return [{ name: "default", value: raw }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new JwtSettingsError(`${variable} must be a JSON object of names to values, e.g. {"main": "…"}`);
  }
  const entries = Object.entries(parsed);
  if (entries.length > max) throw new JwtSettingsError(`${variable} declares more than ${max} entries`);
  return entries.map(([name, value]) => {
    if (typeof value !== "string" || value.trim() === "") {
      throw new JwtSettingsError(`${variable}: "${name}" must be a non-empty string`);
    }
    return { name, value: value.trim() };
  });
}

function publicKey(name: string, pem: string): KeyObject {
  try {
    const key = createPublicKey(pem.replaceAll("\\n", "\n"));
    if (key.asymmetricKeyType === undefined) throw new Error("not an asymmetric key");
    return key;
  } catch (e) {
    throw new JwtSettingsError(
      `${JWT_ENV.pems}: "${name}" is not a PEM public key or certificate (${(e as Error).message}); paste the issuer's "-----BEGIN PUBLIC KEY-----" block`,
    );
  }
}

/** A JWKS URL: https, or http on a loopback host only (keys fetched in clear could be replaced). */
function jwksUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new JwtSettingsError(`${JWT_ENV.jwksEndpoints}: "${name}" is not a URL`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname))) return url;
  throw new JwtSettingsError(
    `${JWT_ENV.jwksEndpoints}: "${name}" must be an https:// URL (http:// only on localhost): ${url.origin}`,
  );
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

function refreshMinutes(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_REFRESH_MINUTES;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 7 * 24 * 60) {
    throw new JwtSettingsError(
      `${JWT_ENV.jwksRefreshMinutes} must be a number of minutes between 0 and 10080`,
    );
  }
  return minutes;
}

function list(raw: string | undefined): string[] | undefined {
  const values = raw
    ?.split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  return values && values.length > 0 ? values : undefined;
}
