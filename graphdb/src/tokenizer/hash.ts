import type { TypedValue } from "../core/scalar.ts";
import { keyString } from "../store/keys.ts";
import { stringToken } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";

/**
 * FNV-1a 64-bit hash of the UTF-8 bytes of `s` (offset basis 0xcbf29ce484222325, prime 0x100000001b3;
 * lone surrogates hash as U+FFFD), written big-endian into `out` at `at`. Computed on two 32-bit halves
 * without allocating. The algorithm and byte order are part of the on-disk index format: never change them.
 */
export function fnv1a64Into(s: string, out: Uint8Array, at: number): void {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  // One byte: lo ^= byte, then (hi,lo) *= 2^40 + 0x1b3 (mod 2^64). Written out at each use (no closure):
  // this runs for every byte of every hashed value.
  let b = 0;
  let n = 0;
  const bytes = [0, 0, 0, 0];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      bytes[0] = c;
      n = 1;
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          i++;
        } else c = 0xfffd;
      }
      if (c < 0x800) {
        bytes[0] = 0xc0 | (c >> 6);
        bytes[1] = 0x80 | (c & 0x3f);
        n = 2;
      } else if (c < 0x10000) {
        bytes[0] = 0xe0 | (c >> 12);
        bytes[1] = 0x80 | ((c >> 6) & 0x3f);
        bytes[2] = 0x80 | (c & 0x3f);
        n = 3;
      } else {
        bytes[0] = 0xf0 | (c >> 18);
        bytes[1] = 0x80 | ((c >> 12) & 0x3f);
        bytes[2] = 0x80 | ((c >> 6) & 0x3f);
        bytes[3] = 0x80 | (c & 0x3f);
        n = 4;
      }
    }
    for (let k = 0; k < n; k++) {
      b = bytes[k];
      lo = (lo ^ b) >>> 0;
      const loProduct = lo * 0x1b3;
      const carry = Math.floor(loProduct / 0x100000000);
      hi = (Math.imul(hi, 0x1b3) + ((lo << 8) >>> 0) + carry) >>> 0;
      lo = loProduct >>> 0;
    }
  }
  out[at] = hi >>> 24;
  out[at + 1] = (hi >>> 16) & 0xff;
  out[at + 2] = (hi >>> 8) & 0xff;
  out[at + 3] = hi & 0xff;
  out[at + 4] = lo >>> 24;
  out[at + 5] = (lo >>> 16) & 0xff;
  out[at + 6] = (lo >>> 8) & 0xff;
  out[at + 7] = lo & 0xff;
}

/**
 * `hash`: one 9-byte token `[0x0B][FNV-1a 64 of the UTF-8 string]`. Dgraph uses a 256-bit BLAKE2b and
 * treats the index as exact; a 64-bit hash can collide (and FNV can be forced to), so this one is lossy:
 * hits are re-checked against the stored value.
 */
export const hashTokenizer: Tokenizer = {
  name: "hash",
  id: TokenizerId.hash,
  sortable: false,
  lossy: true,
  allowedTypes: ["string"],
  tokens: (value: TypedValue): Uint8Array[] => [hashToken(value.value as string)],
  tokenKeys: (value: TypedValue): string[] => [keyString(hashToken(value.value as string))],
};

function hashToken(s: string): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = TokenizerId.hash;
  fnv1a64Into(s, out, 1);
  return out;
}

/**
 * `sha256` (Dgraph, for persisted GraphQL queries): values start with a 64-character hex SHA-256; that
 * prefix is the token. Shorter values are not indexed.
 */
export const sha256Tokenizer: Tokenizer = {
  name: "sha256",
  id: TokenizerId.sha256,
  sortable: false,
  lossy: false,
  allowedTypes: ["string"],
  tokens(value: TypedValue): Uint8Array[] {
    const s = value.value as string;
    return s.length < 64 ? [] : [stringToken(TokenizerId.sha256, s.slice(0, 64))];
  },
};
