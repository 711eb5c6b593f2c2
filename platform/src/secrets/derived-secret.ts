import { hkdfSync } from "node:crypto";

/**
 * A secret derived from the master key for one purpose (HKDF-SHA256, the purpose as `info`), as 64 hex
 * characters. The same key and purpose always give the same secret, so it needs no storage of its own;
 * different purposes give unrelated secrets, and none of them reveals the key.
 */
export function deriveSecret(masterKey: Uint8Array, purpose: string): string {
  return Buffer.from(hkdfSync("sha256", masterKey, new Uint8Array(0), `trellis:${purpose}`, 32)).toString(
    "hex",
  );
}
