import { randomBytes, type ScryptOptions, scrypt, scryptSync, timingSafeEqual } from "node:crypto";
import { DgraphError } from "../core/errors.ts";

/**
 * Password values. Dgraph stores bcrypt hashes; this implementation stores scrypt hashes as
 * `scrypt$<salt base64>$<hash base64>` (N=16384, r=8, p=1, 16-byte salt, 32-byte key) and never
 * returns them in query results.
 */

export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_TOO_SHORT = "Password too short, i.e. should have at least 6 chars";

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = "scrypt";

/** Hashes a clear-text password for storage; throws Dgraph's error when it is shorter than 6 characters. */
export function hashPassword(plain: string): string {
  if (plain.length < MIN_PASSWORD_LENGTH) throw new DgraphError(PASSWORD_TOO_SHORT);
  const salt = randomBytes(SALT_BYTES);
  const hash = scryptSync(plain, salt, KEY_BYTES);
  return `${PREFIX}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/**
 * Whether `candidate` is the password stored as `stored` (a hashPassword result), compared in constant
 * time. A malformed stored value never matches.
 */
export function checkPassword(stored: string, candidate: string): boolean {
  const parts = stored.split("$");
  if (parts.length !== 3 || parts[0] !== PREFIX) return false;
  const salt = Buffer.from(parts[1], "base64");
  const expected = Buffer.from(parts[2], "base64");
  if (salt.length === 0 || expected.length !== KEY_BYTES) return false;
  const actual = scryptSync(candidate, salt, KEY_BYTES);
  return timingSafeEqual(actual, expected);
}

/** hashPassword, hashing on libuv's thread pool instead of the calling thread. */
export async function hashPasswordAsync(plain: string): Promise<string> {
  if (plain.length < MIN_PASSWORD_LENGTH) throw new DgraphError(PASSWORD_TOO_SHORT);
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(plain, salt);
  return `${PREFIX}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

function scryptAsync(plain: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(plain, salt, KEY_BYTES, {} satisfies ScryptOptions, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** checkPassword, hashing on libuv's thread pool instead of the calling thread. */
export async function checkPasswordAsync(stored: string, candidate: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 3 || parts[0] !== PREFIX) return false;
  const salt = Buffer.from(parts[1], "base64");
  const expected = Buffer.from(parts[2], "base64");
  if (salt.length === 0 || expected.length !== KEY_BYTES) return false;
  const actual = await scryptAsync(candidate, salt);
  return timingSafeEqual(actual, expected);
}
