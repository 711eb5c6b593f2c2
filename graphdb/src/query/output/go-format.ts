/**
 * Scalar text exactly as Dgraph's JSON encoder writes it (Go): strings through Go's HTML-safe
 * `encoding/json` escaping, floats through `fmt.Sprintf("%f")`, uids as `%#x`.
 */

const HEX = "0123456789abcdef";

/** 1 for ASCII bytes Go writes as-is inside a JSON string with HTML escaping on. */
const SAFE = new Uint8Array(128);
for (let c = 0x20; c < 128; c++) SAFE[c] = 1;
SAFE[0x22] = 0; // "
SAFE[0x5c] = 0; // \
SAFE[0x3c] = 0; // <
SAFE[0x3e] = 0; // >
SAFE[0x26] = 0; // &

function escapeFrom(s: string, start: number): string {
  let out = s.slice(0, start);
  let run = start;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (SAFE[c] === 1) continue;
      out += s.slice(run, i);
      run = i + 1;
      if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += "\\\\";
      else if (c === 0x0a) out += "\\n";
      else if (c === 0x0d) out += "\\r";
      else if (c === 0x09) out += "\\t";
      else out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      continue;
    }
    if (c === 0x2028 || c === 0x2029) {
      out += s.slice(run, i) + (c === 0x2028 ? "\\u2028" : "\\u2029");
      run = i + 1;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A well-formed pair passes; a lone surrogate is what Go sees as invalid UTF-8: U+FFFD.
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      out += s.slice(run, i) + "\\ufffd";
      run = i + 1;
    }
  }
  return out + s.slice(run);
}

/** A JSON string literal as Go's `encoding/json` writes it with HTML escaping (Dgraph's stringJsonMarshal). */
export function goQuote(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 ? SAFE[c] === 0 : c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) {
      return `"${escapeFrom(s, i)}"`;
    }
  }
  return `"${s}"`;
}

/** A JSON object key as Dgraph writes it: raw, only made safe for JSON syntax. */
export function goKey(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c < 0x20) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * Go's `fmt.Sprintf("%f", f)`: six decimals, exact decimal expansion of the double, round half to
 * even on exact ties. NaN/±Inf have no JSON form: callers drop such values (as Dgraph does).
 */
export function goFloat(f: number): string {
  if (!Number.isFinite(f)) return "";
  const neg = f < 0 || Object.is(f, -0);
  const a = Math.abs(f);
  let body: string;
  if (a >= 1e21) {
    // Integral at this magnitude: exact digits through BigInt.
    body = `${BigInt(a).toString()}.000000`;
  } else if (Number.isInteger(a * 128) && !Number.isInteger(a * 64)) {
    // Exactly representable with a 5 in the 7th decimal: a tie, which Go rounds to even.
    // a = k/128 with k odd, so a·10^6 = k·15625/2 = n + 1/2 with n = (k·15625 − 1)/2.
    const k = BigInt(a * 128);
    const n = (k * 15625n - 1n) / 2n;
    body = fixed6(n % 2n === 0n ? n : n + 1n);
  } else {
    body = a.toFixed(6);
  }
  return neg ? `-${body}` : body;
}

/** n / 1e6 written with six decimals, n a non-negative integer. */
function fixed6(n: bigint): string {
  const s = n.toString().padStart(7, "0");
  return `${s.slice(0, s.length - 6)}.${s.slice(s.length - 6)}`;
}

/** Dgraph's uid text: `0x` + lower-case hex. */
export function uidHex(uid: number): string {
  return `0x${uid.toString(16)}`;
}

/** The JSON text of a uid: `"0x1"`. */
export function uidJson(uid: number): string {
  return `"0x${uid.toString(16)}"`;
}
