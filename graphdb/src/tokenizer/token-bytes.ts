/**
 * Byte encoding shared by the tokenizers: every index token is `[tokenizer id][payload]`, the payload
 * ordered so that byte order equals value order for sortable tokenizers.
 */

import { keyString } from "../store/keys.ts";

const encoder = new TextEncoder();

/** UTF-8 length of a string (lone surrogates count as U+FFFD, 3 bytes, as TextEncoder writes them). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** `[id][UTF-8 bytes of s]`; ASCII strings take a copy loop without TextEncoder. */
export function stringToken(id: number, s: string): Uint8Array {
  const len = s.length;
  let ascii = true;
  for (let i = 0; i < len; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const out = new Uint8Array(len + 1);
    out[0] = id;
    for (let i = 0; i < len; i++) out[i + 1] = s.charCodeAt(i);
    return out;
  }
  const out = new Uint8Array(utf8Length(s) + 1);
  out[0] = id;
  encoder.encodeInto(s, out.subarray(1));
  return out;
}

/** `keyString(stringToken(id, s))`, without the byte array for ASCII strings. */
export function stringTokenKey(id: number, s: string): string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return keyString(stringToken(id, s));
  return String.fromCharCode(id) + s;
}

/** `[id][payload]`. */
export function bytesToken(id: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 1);
  out[0] = id;
  out.set(payload, 1);
  return out;
}

/**
 * `[id][8 bytes]`: a signed 64-bit integer big-endian with the sign bit flipped, so negative values sort
 * before positive ones byte-wise. `n` must be a safe integer.
 */
export function int64Token(id: number, n: number): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = id;
  const view = new DataView(out.buffer);
  view.setBigInt64(1, BigInt(n));
  out[1] ^= 0x80;
  return out;
}

/**
 * `[id][8 bytes]`: IEEE-754 big-endian, order-preserving (positive: sign bit set; negative: all bits
 * inverted). -0 is folded into +0 so equal values give equal tokens. NaN is never stored (conversion rejects it).
 */
export function float64Token(id: number, f: number): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = id;
  const view = new DataView(out.buffer);
  view.setFloat64(1, f === 0 ? 0 : f);
  if (out[1] & 0x80) {
    for (let i = 1; i < 9; i++) out[i] = ~out[i] & 0xff;
  } else {
    out[1] |= 0x80;
  }
  return out;
}

/** Compares two tokens byte-wise (memcmp order), for tests and sorted scans. */
export function compareTokens(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i] - b[i];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Lower-case hex of a token, handy in logs and tests. */
export function tokenHex(t: Uint8Array): string {
  let s = "";
  for (const b of t) s += (b < 16 ? "0" : "") + b.toString(16);
  return s;
}
