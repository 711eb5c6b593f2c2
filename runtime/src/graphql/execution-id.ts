import { randomBytes } from "node:crypto";

/**
 * Execution ids in the spirit of `rs/xid` (what Modus uses): 12 bytes written as 20 base32hex characters
 * (`0-9a-v`), time-sortable. Layout: 6 bytes of milliseconds since the epoch, a 3-byte per-process counter
 * (random start) and 3 random bytes. base32hex preserves byte order, so ids sort by creation time (and by
 * counter within a millisecond).
 */

const ALPHABET = "0123456789abcdefghijklmnopqrstuv";
let counter = randomBytes(3).readUIntBE(0, 3);

/** A new 20-character, time-sortable execution id. */
export function newExecutionId(now: number = Date.now()): string {
  const bytes = Buffer.alloc(12);
  bytes.writeUIntBE(now, 0, 6);
  counter = (counter + 1) & 0xffffff;
  bytes.writeUIntBE(counter, 6, 3);
  randomBytes(3).copy(bytes, 9);
  return encodeBase32Hex(bytes);
}

/** The creation time encoded in an id from `newExecutionId`. */
export function executionIdTime(id: string): Date {
  let n = 0n;
  for (const ch of id) n = (n << 5n) | BigInt(ALPHABET.indexOf(ch));
  // 20 chars carry 100 bits for 96 bits of data: the last 4 bits are padding.
  return new Date(Number(n >> (4n + 48n)));
}

function encodeBase32Hex(bytes: Buffer): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  n <<= 4n; // pad 96 bits to 100 = 20 × 5
  let out = "";
  for (let i = 19; i >= 0; i--) out += ALPHABET[Number((n >> BigInt(i * 5)) & 31n)];
  return out;
}
