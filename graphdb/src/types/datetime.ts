/**
 * DateTime values as Dgraph parses and prints them (Go `time.Time`).
 *
 * Accepted input (Dgraph `types.ParseTime`: RFC 3339 first, then the zone-less and date-only layouts):
 * - `2006`, `2006-01`, `2006-01-02` (midnight UTC)
 * - `2006-01-02T15:04:05Z`, `2006-01-02T15:04:05+05:30`, with optional fractional seconds
 * - `2006-01-02T15:04:05[.frac]` (no zone = UTC)
 * - `2006-01-02 15:04:05[.frac] -0700 MST` (Go's `time.Time.String()` layout)
 *
 * Output (`iso`) is Go's RFC3339Nano as used by `time.Time.MarshalJSON`: `Z` for a zero offset, the offset
 * otherwise (`+05:30`), fractional seconds without trailing zeros. Go keeps nanoseconds; so does `iso`.
 */

export interface ParsedDateTime {
  /** Normalised RFC 3339 text, as Dgraph prints the value. */
  iso: string;
  /** Milliseconds since the Unix epoch (UTC), floored. Sub-millisecond digits live in `nanos`. */
  epochMs: number;
  /** Fraction of the second in nanoseconds (0 … 999 999 999). */
  nanos: number;
  /** Zone offset in minutes east of UTC (0 for `Z`). */
  offsetMinutes: number;
}

const DIGIT_0 = 48;

/** Reads `n` ASCII digits at `at`; -1 when any is not a digit or the input is too short. */
function digits(s: string, at: number, n: number): number {
  if (at + n > s.length) return -1;
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1];
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  offsetMinutes: number;
}

/**
 * Parses `.123` / `,123` fractional seconds at `at` (Go accepts both after a seconds field).
 * Returns [nanos, next index]; nanos -1 on a malformed fraction. Digits past the ninth are dropped, as Go does.
 */
function fraction(s: string, at: number): [number, number] {
  const c = s.charCodeAt(at);
  if (c !== 46 /* . */ && c !== 44 /* , */) return [0, at];
  let i = at + 1;
  let nanos = 0;
  let n = 0;
  while (i < s.length) {
    const d = s.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) break;
    if (n < 9) {
      nanos = nanos * 10 + d;
      n++;
    }
    i++;
  }
  if (i === at + 1) return [-1, i];
  for (; n < 9; n++) nanos *= 10;
  return [nanos, i];
}

/** `YYYY-MM-DD` at 0, validated. Fills year/month/day; false when invalid. */
function readDate(s: string, f: Fields): boolean {
  f.year = digits(s, 0, 4);
  if (f.year < 0 || s.charCodeAt(4) !== 45) return false;
  f.month = digits(s, 5, 2);
  if (f.month < 1 || f.month > 12 || s.charCodeAt(7) !== 45) return false;
  f.day = digits(s, 8, 2);
  return f.day >= 1 && f.day <= daysIn(f.year, f.month);
}

/** `HH:MM:SS[.frac]` at `at`; returns the index after it or -1. */
function readClock(s: string, at: number, f: Fields): number {
  f.hour = digits(s, at, 2);
  if (f.hour < 0 || f.hour > 23 || s.charCodeAt(at + 2) !== 58) return -1;
  f.minute = digits(s, at + 3, 2);
  if (f.minute < 0 || f.minute > 59 || s.charCodeAt(at + 5) !== 58) return -1;
  f.second = digits(s, at + 6, 2);
  if (f.second < 0 || f.second > 59) return -1;
  const [nanos, next] = fraction(s, at + 8);
  if (nanos < 0) return -1;
  f.nanos = nanos;
  return next;
}

/** A zone offset `+hh:mm` (colon) or `+hhmm` (no colon) at `at`; minutes east of UTC, or NaN. */
function readOffset(s: string, at: number, colon: boolean): number {
  const sign = s.charCodeAt(at);
  if (sign !== 43 && sign !== 45) return Number.NaN;
  const hh = digits(s, at + 1, 2);
  const mmAt = colon ? at + 4 : at + 3;
  if (colon && s.charCodeAt(at + 3) !== 58) return Number.NaN;
  const mm = digits(s, mmAt, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59) return Number.NaN;
  const minutes = hh * 60 + mm;
  return sign === 45 ? -minutes : minutes;
}

function parseFields(s: string, f: Fields): boolean {
  const len = s.length;
  if (len === 4) {
    f.year = digits(s, 0, 4);
    return f.year >= 0;
  }
  if (len === 7) {
    f.year = digits(s, 0, 4);
    f.month = digits(s, 5, 2);
    return f.year >= 0 && s.charCodeAt(4) === 45 && f.month >= 1 && f.month <= 12;
  }
  if (!readDate(s, f)) return false;
  if (len === 10) return true;
  const sep = s.charCodeAt(10);
  if (sep === 84 /* T */) {
    const end = readClock(s, 11, f);
    if (end < 0) return false;
    if (end === len) return true; // zone-less layout: UTC
    if (s.charCodeAt(end) === 90 /* Z */) return end + 1 === len;
    if (end + 6 !== len) return false;
    const off = readOffset(s, end, true);
    if (Number.isNaN(off)) return false;
    f.offsetMinutes = off;
    return true;
  }
  if (sep === 32 /* space */) {
    // Go's `2006-01-02 15:04:05.999999999 -0700 MST`
    const end = readClock(s, 11, f);
    if (end < 0 || s.charCodeAt(end) !== 32) return false;
    if (end + 6 > len) return false;
    const off = readOffset(s, end + 1, false);
    if (Number.isNaN(off)) return false;
    f.offsetMinutes = off;
    const zoneAt = end + 6;
    if (zoneAt === len) return false;
    if (s.charCodeAt(zoneAt) !== 32) return false;
    return isZoneName(s, zoneAt + 1);
  }
  return false;
}

/**
 * Go's `MST` layout element (time.parseTimeZone): 3 upper-case letters, 4 ending in `T` (or `WITA`, `ChST`,
 * `MeST`), 5 ending in `T`, `GMT` with an optional signed hour, or a numeric `+07`-style name. The whole
 * rest of the input must be the zone name.
 */
function isZoneName(s: string, at: number): boolean {
  const z = s.slice(at);
  if (z.length < 3) return false;
  if (z === "ChST" || z === "MeST" || z === "WITA") return true;
  if (z.startsWith("GMT")) return /^GMT([+-](1[0-4]|[1-9]))?$/.test(z);
  if (z.charCodeAt(0) === 43 || z.charCodeAt(0) === 45) return /^[+-]\d\d(\d\d)?$/.test(z);
  if (!/^[A-Z]{3,5}$/.test(z)) return false;
  return z.length === 3 || z.charCodeAt(z.length - 1) === 84 /* T */;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad4(n: number): string {
  return n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : String(n);
}

/** Fractional seconds as Go prints them in RFC3339Nano: `.` + up to 9 digits, trailing zeros removed. */
function fractionText(nanos: number): string {
  if (nanos === 0) return "";
  let t = String(nanos).padStart(9, "0");
  let end = t.length;
  while (t.charCodeAt(end - 1) === DIGIT_0) end--;
  t = t.slice(0, end);
  return `.${t}`;
}

function offsetText(minutes: number): string {
  if (minutes === 0) return "Z";
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/**
 * Parses a datetime literal in any layout Dgraph accepts; null when none matches (Go's time.Parse range
 * checks apply: month 1–12, day within the month, hour < 24, minute and second < 60).
 */
export function parseDateTime(s: string): ParsedDateTime | null {
  const f: Fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanos: 0, offsetMinutes: 0 };
  if (!parseFields(s, f)) return null;
  const days = daysFromCivil(f.year, f.month, f.day);
  const localSec = days * 86400 + f.hour * 3600 + f.minute * 60 + f.second;
  const epochSec = localSec - f.offsetMinutes * 60;
  const iso =
    `${pad4(f.year)}-${pad2(f.month)}-${pad2(f.day)}T${pad2(f.hour)}:${pad2(f.minute)}:${pad2(f.second)}` +
    `${fractionText(f.nanos)}${offsetText(f.offsetMinutes)}`;
  return {
    iso,
    epochMs: epochSec * 1000 + Math.floor(f.nanos / 1e6),
    nanos: f.nanos,
    offsetMinutes: f.offsetMinutes,
  };
}

/**
 * Nanoseconds since the Unix epoch of a datetime (a stored normalised value or any accepted literal):
 * the exact instant, for total ordering. Throws a TypeError when the text is not a datetime.
 */
export function epochNanos(value: string): bigint {
  const p = parseDateTime(value);
  if (p === null) throw new TypeError(`not a datetime: ${value}`);
  const sec = Math.floor(p.epochMs / 1000);
  return BigInt(sec) * 1_000_000_000n + BigInt(p.nanos);
}

/**
 * An order-preserving 12-byte key of an instant: epoch seconds as int64 big-endian with the sign bit
 * flipped, then nanoseconds as uint32 big-endian. Byte order = time order, whatever the zone offset.
 */
export function sortableDateTime(p: ParsedDateTime): Uint8Array {
  const out = new Uint8Array(12);
  const view = new DataView(out.buffer);
  const sec = BigInt(Math.floor(p.epochMs / 1000));
  view.setBigUint64(0, BigInt.asUintN(64, sec) ^ 0x8000_0000_0000_0000n);
  view.setUint32(8, p.nanos);
  return out;
}

/** UTC calendar fields of an instant (what Dgraph's year/month/day/hour tokenizers index: `t.UTC()`). */
export function utcFields(epochMs: number): { year: number; month: number; day: number; hour: number } {
  const d = new Date(epochMs);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours() };
}
