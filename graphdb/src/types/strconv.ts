/**
 * Go `strconv` semantics, the one home for them: number and bool parsing with Go's grammar (base prefixes,
 * `_` separators, hex floats, `inf`/`nan`) and `*strconv.NumError` texts (Dgraph reports them verbatim, e.g.
 * `strconv.ParseInt: parsing "abc": invalid syntax`), `strconv.Unquote` of a double-quoted body, float
 * formatting, and Go's `%q` quoting. Parsers return the value or a {@link NumberFailure}; each caller
 * turns a failure into its own error class with {@link numErrorText}.
 */

/**
 * How a text is quoted in an error message:
 * - `go`: Go's `strconv.Quote` exactly (printable characters kept, others escaped: `\n`, `\x01`, `\u00ad`);
 * - `json`: `JSON.stringify` (control characters as `\u00XX`, everything else kept), the DQL and
 *   mutation parsers' texts;
 * - `json-x`: `json` with control characters as `\xXX`, the HTTP query-parameter texts.
 * They agree on printable text; callers keep the style their (pinned) error texts have always had.
 */
export type QuoteStyle = "go" | "json" | "json-x";

/** Go's `%q` of a string, in the given style (default: exactly Go's `strconv.Quote`). */
export function goQuote(s: string, style: QuoteStyle = "go"): string {
  if (style === "json") return JSON.stringify(s);
  if (style === "json-x") return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, "\\x$1");
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case "\\":
        out += "\\\\";
        continue;
      case "\x07":
        out += "\\a";
        continue;
      case "\b":
        out += "\\b";
        continue;
      case "\f":
        out += "\\f";
        continue;
      case "\n":
        out += "\\n";
        continue;
      case "\r":
        out += "\\r";
        continue;
      case "\t":
        out += "\\t";
        continue;
      case "\v":
        out += "\\v";
        continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += "\\ufffd"; // a lone surrogate is invalid UTF-8 once encoded
    } else if (cp === 0x20 || (cp > 0x20 && isPrintable(ch))) {
      out += ch;
    } else if (cp < 0x80) {
      out += `\\x${cp.toString(16).padStart(2, "0")}`;
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, "0")}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, "0")}`;
    }
  }
  return `${out}"`;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function isPrintable(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x7f) return cp > 0x20;
  return PRINTABLE.test(ch);
}

/** Why a Go number (or bool) parser failed: `invalid syntax` or `value out of range`. */
export type NumberFailure = "syntax" | "range";

/** Go's `*strconv.NumError` text: `strconv.ParseInt: parsing "x": invalid syntax`. */
export function numErrorText(
  fn: string,
  s: string,
  failure: NumberFailure,
  style: QuoteStyle = "go",
): string {
  const why = failure === "syntax" ? "invalid syntax" : "value out of range";
  return `strconv.${fn}: parsing ${goQuote(s, style)}: ${why}`;
}

function lower(c: number): number {
  return c | 0x20;
}

/** Value of a digit or letter (`a`/`A` = 10 … `z`/`Z` = 35); 99 for anything else. */
function digitValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = lower(c);
  if (l >= 97 && l <= 122) return l - 87;
  return 99;
}

/** Go's `underscoreOK`: `_` only between digits, or between a base prefix and a digit. */
function underscoreOK(s: string): boolean {
  let saw = "^";
  let i = 0;
  if (s.length >= 1 && (s[0] === "-" || s[0] === "+")) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === "0") {
    const p = lower(s.charCodeAt(1));
    if (p === 98 || p === 111 || p === 120) {
      i = 2;
      saw = "0";
      hex = p === 120;
    }
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (hex && lower(c) >= 97 && lower(c) <= 102)) {
      saw = "0";
      continue;
    }
    if (c === 95) {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MAX_UINT32 = 2 ** 32 - 1;

/**
 * `strconv.ParseUint(s, base, bitSize)` for base 0 (`0x`/`0o`/`0b` prefixes, a leading `0` for octal, `_`
 * separators) or base 10 (decimal digits only). As in Go, the first digit that overflows makes it a range
 * failure, whatever follows.
 */
export function goParseUint(s: string, base: 0 | 10 = 0, bitSize: 32 | 64 = 64): bigint | NumberFailure {
  if (s.length === 0) return "syntax";
  let radix = 10;
  let i = 0;
  if (base === 0 && s.charCodeAt(0) === 48) {
    const p = s.length >= 3 ? lower(s.charCodeAt(1)) : 0;
    if (p === 98) radix = 2;
    else if (p === 111) radix = 8;
    else if (p === 120) radix = 16;
    else radix = 8;
    i = radix === 8 && p !== 111 ? 1 : 2;
  }
  const maxSmall = bitSize === 32 ? MAX_UINT32 : Number.POSITIVE_INFINITY;
  const maxBig = bitSize === 32 ? BigInt(MAX_UINT32) : MAX_UINT64;
  let small = 0;
  let big: bigint | null = null;
  let underscores = false;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 95 && base === 0) {
      underscores = true;
      continue;
    }
    const d = digitValue(c);
    if (d >= radix) return "syntax";
    if (big === null) {
      const prev = small;
      small = prev * radix + d;
      if (small > maxSmall) return "range";
      if (small <= Number.MAX_SAFE_INTEGER) continue;
      big = BigInt(prev) * BigInt(radix) + BigInt(d);
    } else {
      big = big * BigInt(radix) + BigInt(d);
    }
    if (big > maxBig) return "range";
  }
  if (underscores && !underscoreOK(s)) return "syntax";
  return big ?? BigInt(small);
}

/** Fast path of {@link goParseUint} for plain decimal or `0x` hex text up to 2^53-1; undefined otherwise. */
export function quickUint(s: string): number | undefined {
  const n = s.length;
  if (n === 0 || n > 15) return undefined;
  let v = 0;
  if (n > 2 && s.charCodeAt(0) === 48 && lower(s.charCodeAt(1)) === 120) {
    for (let i = 2; i < n; i++) {
      const d = digitValue(s.charCodeAt(i));
      if (d > 15) return undefined;
      v = v * 16 + d;
    }
    return v <= Number.MAX_SAFE_INTEGER ? v : undefined;
  }
  if (n > 1 && s.charCodeAt(0) === 48) return undefined; // octal or other prefix: slow path
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return v;
}

/** `strconv.ParseInt(s, base, bitSize)`: an optional sign, then {@link goParseUint}'s grammar. */
export function goParseInt(s: string, base: 0 | 10 = 0, bitSize: 32 | 64 = 64): bigint | NumberFailure {
  if (s.length === 0) return "syntax";
  let neg = false;
  let body = s;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    body = s.slice(1);
  }
  const mag = goParseUint(body, base, bitSize);
  if (typeof mag === "string") return mag;
  const limit = bitSize === 32 ? 1n << 31n : 1n << 63n;
  if (neg ? mag > limit : mag >= limit) return "range";
  return neg ? -mag : mag;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * {@link goParseInt} (64-bit) as a JS number: values inside int64 but beyond ±(2^53−1), which a number
 * can't hold exactly, are a range failure too (a limit of this implementation).
 */
export function goParseSafeInt(s: string, base: 0 | 10 = 0): number | NumberFailure {
  const v = goParseInt(s, base);
  if (typeof v === "string") return v;
  if (v > MAX_SAFE || v < -MAX_SAFE) return "range";
  return Number(v);
}

// Unambiguous patterns (the fraction is one optional group): a long non-matching text fails in linear time.
const DECIMAL_FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]((?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?)|(?:\.[0-9a-fA-F]+))[pP]([+-]?\d+)$/;

/**
 * `strconv.ParseFloat(s, 64)`: decimal (`1.5`, `.5`, `1e6`) and hexadecimal (`0x1.8p3`) floats, `_`
 * separators, `inf`/`infinity` (signed) and `nan` in any case. Overflow is a range failure.
 */
export function goParseFloat(s: string): number | NumberFailure {
  const special = specialFloat(s);
  if (special !== undefined) return special;
  let text = s;
  if (s.includes("_")) {
    if (!underscoreOK(s)) return "syntax";
    text = s.replaceAll("_", "");
  }
  let v: number;
  if (DECIMAL_FLOAT.test(text)) {
    v = Number(text);
  } else {
    const m = HEX_FLOAT.exec(text);
    if (m === null) return "syntax";
    v = hexFloat(m[2], Number(m[3]));
    if (m[1] === "-") v = -v;
  }
  return Number.isFinite(v) ? v : "range";
}

function specialFloat(s: string): number | undefined {
  let sign = 1;
  let t = s.toLowerCase();
  if (t === "nan") return Number.NaN;
  if (t[0] === "+" || t[0] === "-") {
    if (t[0] === "-") sign = -1;
    t = t.slice(1);
  }
  if (t === "inf" || t === "infinity") return sign * Number.POSITIVE_INFINITY;
  return undefined;
}

/** The value of a hex mantissa (`1.8`) times 2^exp; the mantissa's digits are read exactly. */
function hexFloat(mantissa: string, exp: number): number {
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const fracDigits = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Number(BigInt(`0x${digits}`)) * 2 ** (exp - 4 * fracDigits);
}

/** `strconv.ParseBool`: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False. */
export function goParseBool(s: string): boolean | NumberFailure {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false;
    default:
      return "syntax";
  }
}

/**
 * Go's `strconv.Unquote` of a double-quoted string body (the text between the quotes): `\a \b \f \n \r \t \v
 * \\ \"`, `\xNN`, octal `\NNN`, `\uXXXX`, `\UXXXXXXXX`. Returns null where Go reports `invalid syntax`
 * (`\'` in a double-quoted string, surrogate or out-of-range code points, a dangling backslash). A `\xNN`
 * or octal byte ≥ 0x80 is not valid UTF-8 on its own; it becomes U+FFFD, as when Go's output is printed.
 */
export function goUnquoteBody(s: string): string | null {
  let from = s.indexOf("\\");
  if (from < 0) return s;
  const parts: string[] = [];
  let start = 0;
  while (from >= 0) {
    parts.push(s.slice(start, from));
    const e = s.charCodeAt(from + 1);
    let next = from + 2;
    let cp: number;
    switch (e) {
      case 97:
        cp = 7;
        break;
      case 98:
        cp = 8;
        break;
      case 102:
        cp = 12;
        break;
      case 110:
        cp = 10;
        break;
      case 114:
        cp = 13;
        break;
      case 116:
        cp = 9;
        break;
      case 118:
        cp = 11;
        break;
      case 92:
        cp = 92;
        break;
      case 34:
        cp = 34;
        break;
      case 120:
      case 117:
      case 85: {
        const n = e === 120 ? 2 : e === 117 ? 4 : 8;
        cp = hexValue(s, next, n);
        if (cp < 0) return null;
        next += n;
        if (e === 120 && cp >= 0x80) cp = 0xfffd;
        else if (e !== 120 && (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) return null;
        break;
      }
      default: {
        if (e >= 48 && e <= 55) {
          cp = octalValue(s, from + 1);
          if (cp < 0 || cp > 255) return null;
          next = from + 4;
          if (cp >= 0x80) cp = 0xfffd;
          break;
        }
        return null;
      }
    }
    parts.push(String.fromCodePoint(cp));
    start = next;
    from = s.indexOf("\\", next);
  }
  parts.push(s.slice(start));
  return parts.join("");
}

function hexValue(s: string, at: number, n: number): number {
  if (at + n > s.length) return -1;
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = digitValue(s.charCodeAt(i));
    if (d > 15) return -1;
    v = v * 16 + d;
  }
  return v;
}

function octalValue(s: string, at: number): number {
  if (at + 3 > s.length) return -1;
  let v = 0;
  for (let i = at; i < at + 3; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 7) return -1;
    v = v * 8 + d;
  }
  return v;
}

/** Shortest round-trip decimal digits of |f| (f finite, non-zero) and the decimal point position. */
function shortestDigits(f: number): { digits: string; dp: number } {
  const [mantissa, exponent] = Math.abs(f).toExponential().split("e");
  return { digits: mantissa.replace(".", ""), dp: Number(exponent) + 1 };
}

function fixedFromDigits(digits: string, dp: number): string {
  if (dp <= 0) return `0.${"0".repeat(-dp)}${digits}`;
  if (dp >= digits.length) return digits + "0".repeat(dp - digits.length);
  return `${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

function expFromDigits(digits: string, dp: number, e: string): string {
  const exp = dp - 1;
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const abs = Math.abs(exp);
  return `${mant}${e}${exp < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`;
}

/**
 * `strconv.FormatFloat(f, fmt, -1, 64)`: the shortest digits that round-trip, in Go's `e`/`E` (`1e+06`),
 * `f` (`1000000`) or `g`/`G` format (exponent form when the decimal exponent is < -4 or >= 6:
 * `1e+06`, `123456`, `1e-05`, `0.0001`).
 */
export function formatGoFloat(f: number, fmt: "e" | "E" | "f" | "g" | "G"): string {
  if (Number.isNaN(f)) return "NaN";
  if (f === Number.POSITIVE_INFINITY) return "+Inf";
  if (f === Number.NEGATIVE_INFINITY) return "-Inf";
  const sign = f < 0 || Object.is(f, -0) ? "-" : "";
  const e = fmt === "E" || fmt === "G" ? "E" : "e";
  if (f === 0) return sign + (fmt === "e" || fmt === "E" ? `0${e}+00` : "0");
  const { digits, dp } = shortestDigits(f);
  switch (fmt) {
    case "e":
    case "E":
      return sign + expFromDigits(digits, dp, e);
    case "f":
      return sign + fixedFromDigits(digits, dp);
    default: {
      const exp = dp - 1;
      return sign + (exp < -4 || exp >= 6 ? expFromDigits(digits, dp, e) : fixedFromDigits(digits, dp));
    }
  }
}

/** Go `fmt.Sprintf("%f", f)`: fixed notation with exactly six decimals (`1.500000`, `1000000.000000`). */
export function formatGoFixed6(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  if (Math.abs(f) < 1e21) {
    const s = f.toFixed(6);
    return Object.is(f, -0) ? `-${s}` : s;
  }
  return `${BigInt(f).toString()}.000000`; // doubles this large are integers
}
