import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API keys (`trk_…`) and deploy tokens (`trd_…`): 32 random bytes, shown once, stored as SHA-256. A fast
 * hash is enough because the secrets are high-entropy (a slow hash is for passwords).
 */
export type TokenKind = "api-key" | "deploy-token";

const PREFIXES: Record<TokenKind, string> = { "api-key": "trk_", "deploy-token": "trd_" };

/** Whether `secret` has the form of a deploy token (`trd_…`): what a wrong one was trying to be. */
export function looksLikeDeployToken(secret: string): boolean {
  return secret.startsWith(PREFIXES["deploy-token"]);
}

/** Characters of a secret kept in clear for display (`trk_AbCd`). */
export const DISPLAY_PREFIX_LENGTH = 8;

export interface IssuedToken {
  secret: string;
  hash: Buffer;
  prefix: string;
}

export function issueToken(kind: TokenKind): IssuedToken {
  const secret = PREFIXES[kind] + randomBytes(32).toString("base64url");
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export function hashToken(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/** Constant-time equality of two byte strings of any length. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Constant-time comparison of a presented secret with an expected one (both hashed first). */
export function secretMatches(presented: string, expected: string): boolean {
  return sameBytes(hashToken(presented), hashToken(expected));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1];
}
