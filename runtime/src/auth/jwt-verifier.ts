import { errors, type JWTPayload, type JWTVerifyOptions, jwtVerify } from "jose";
import { createGuardedFetch, type GuardedFetch, type OutboundFetch } from "../egress/guarded-fetch.ts";
import { JwksSource } from "./jwks-source.ts";
import { JWT_ENV, JwtSettingsError, readJwtSettings } from "./jwt-settings.ts";
import { invalidTimeClaim } from "./numeric-dates.ts";

/** Signature algorithms accepted: public-key ones only (a shared secret would have to live with the app). */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];
/** Longer bearer tokens are refused before any parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** Leeway for clocks that disagree a little, on `exp` and `nbf`. */
const CLOCK_TOLERANCE_S = 30;

/** A token that was not accepted; the message says why and is fit for the caller to see. */
export class JwtRejected extends Error {
  override name = "JwtRejected";
}

/** Verifies the bearer JWTs of an app's users against the keys its env vars declare (jwt-settings.ts). */
export interface JwtVerifier {
  /** The verified claims, or a JwtRejected error. */
  verify(token: string): Promise<JWTPayload>;
  /** Whether any key is configured (without keys no token is accepted). */
  readonly configured: boolean;
  /** What is wrong with the settings, if anything (for the app's owner, in logs). */
  readonly problem: string | undefined;
}

/** Whether a bearer token has a JWT's shape (three base64url parts), as opposed to an API key. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

export interface JwtVerifierOptions {
  /**
   * How JWKS endpoints are fetched: a guarded fetch (egress/guarded-fetch.ts). Default: under the
   * `deployed` egress policy with no allow entries; `trellis dev` passes a permissive one.
   */
  fetch?: OutboundFetch;
}

let deployedFetch: GuardedFetch | undefined;

/**
 * A verifier for the JWT settings in `env`. It never throws: settings that cannot be used make every
 * `verify` reject with the reason (and `problem` says it). Signature, `exp` (required) and `nbf` are
 * always checked; `iss` and `aud` when the settings name them.
 */
export function createJwtVerifier(
  env: Record<string, string | undefined>,
  verifierOptions: JwtVerifierOptions = {},
): JwtVerifier {
  let settings: ReturnType<typeof readJwtSettings>;
  try {
    settings = readJwtSettings(env);
  } catch (e) {
    if (!(e instanceof JwtSettingsError)) throw e;
    const problem = `the app's JWT settings are invalid: ${e.message}`;
    return { configured: false, problem, verify: () => Promise.reject(new JwtRejected(problem)) };
  }
  if (!settings) {
    const problem = `this app accepts no JWTs yet: set ${JWT_ENV.pems} or ${JWT_ENV.jwksEndpoints} in its env vars`;
    return { configured: false, problem, verify: () => Promise.reject(new JwtRejected(problem)) };
  }
  const options: JWTVerifyOptions = {
    algorithms: ALGORITHMS,
    clockTolerance: CLOCK_TOLERANCE_S,
    requiredClaims: ["exp"],
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
  };
  const pems = settings.pems.map((p) => p.key);
  const fetch = verifierOptions.fetch ?? (deployedFetch ??= createGuardedFetch({}));
  const jwks = settings.jwksEndpoints.map(
    (e) => new JwksSource(e.url, { maxAgeMs: settings.jwksMaxAgeMs, fetch }),
  );

  return {
    configured: true,
    problem: undefined,
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH || !looksLikeJwt(token)) throw new JwtRejected("malformed token");
      let unavailable: string | undefined;
      for (const key of pems) {
        const payload = await attempt(() => jwtVerify(token, key, options));
        if (payload) return payload;
      }
      for (const source of jwks) {
        try {
          const payload =
            (await attempt(async () => jwtVerify(token, await source.keySet(), options))) ??
            (await attempt(async () => jwtVerify(token, await source.keySet(true), options)));
          if (payload) return payload;
        } catch (e) {
          if (e instanceof JwtRejected) throw e;
          unavailable = (e as Error).message;
        }
      }
      throw new JwtRejected(
        unavailable && jwks.length > 0 && pems.length === 0
          ? `token not verified: ${unavailable}`
          : "invalid token signature (signed by none of the app's keys)",
      );
    },
  };
}

/**
 * One verification: the payload; undefined when this key (or key set) did not sign the token, so the next
 * may; a JwtRejected when the token is signed but not acceptable, or not a token at all.
 */
async function attempt(verify: () => Promise<{ payload: JWTPayload }>): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await verify();
    const claim = invalidTimeClaim(payload);
    if (claim !== undefined) {
      throw new JwtRejected(
        `token not accepted: "${claim}" is not a valid date (whole seconds since 1970, up to the year 9999)`,
      );
    }
    return payload;
  } catch (e) {
    if (e instanceof JwtRejected) throw e;
    if (e instanceof errors.JWTExpired) throw new JwtRejected("token expired");
    if (e instanceof errors.JWTClaimValidationFailed) {
      throw new JwtRejected(
        `token not accepted: ${e.claim === "nbf" ? "not valid yet" : `wrong or missing "${e.claim}"`}`,
      );
    }
    if (e instanceof errors.JOSEAlgNotAllowed)
      throw new JwtRejected("token signed with an algorithm this app does not accept");
    if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid)
      throw new JwtRejected("malformed token");
    // Not signed by this key: a signature mismatch, no key with the token's kid, a key of another type.
    if (e instanceof errors.JOSEError || e instanceof TypeError) return undefined;
    throw e;
  }
}
