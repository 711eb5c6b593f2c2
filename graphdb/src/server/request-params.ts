/**
 * Query-string parameters parsed with Go's `strconv` / `time` rules, as Dgraph's HTTP handlers do.
 * A bad value fails with Dgraph's text, e.g. `while parsing debug as bool: strconv.ParseBool: parsing "x":
 * invalid syntax`.
 */
import { goParseBool, goParseUint, goQuote, numErrorText } from "../types/strconv.ts";
import { RequestError } from "./envelope.ts";

/** Go caps durations at int64 nanoseconds. */
const MAX_DURATION_NS = 2 ** 63;

const durationUnits: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5
  μs: 1e3, // U+03BC
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's `time.ParseDuration`, returning nanoseconds. */
export function parseGoDuration(value: string): number {
  const invalid = () => new Error(`time: invalid duration ${goQuote(value, "json-x")}`);
  let s = value;
  let sign = 1;
  if (s.startsWith("-") || s.startsWith("+")) {
    if (s[0] === "-") sign = -1;
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") throw invalid();
  let total = 0;
  while (s !== "") {
    const number = /^(\d*)(\.(\d*))?/.exec(s);
    const whole = number?.[1] ?? "";
    const frac = number?.[3] ?? "";
    if (whole === "" && frac === "") throw invalid();
    s = s.slice(number?.[0].length ?? 0);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? "";
    if (unit === "") throw new Error(`time: missing unit in duration ${goQuote(value, "json-x")}`);
    const scale = durationUnits[unit];
    if (scale === undefined) {
      throw new Error(
        `time: unknown unit ${goQuote(unit, "json-x")} in duration ${goQuote(value, "json-x")}`,
      );
    }
    s = s.slice(unit.length);
    total += Number(`${whole || "0"}.${frac || "0"}`) * scale;
    if (total >= MAX_DURATION_NS) throw invalid();
  }
  return sign * total;
}

/** Query-string access with Go's `r.URL.Query().Get` semantics (first value, "" when absent). */
export class RequestParams {
  constructor(private readonly search: URLSearchParams) {}

  static fromUrl(url: string): RequestParams {
    const q = url.indexOf("?");
    return new RequestParams(new URLSearchParams(q < 0 ? "" : url.slice(q + 1)));
  }

  get(name: string): string {
    return this.search.get(name) ?? "";
  }

  has(name: string): boolean {
    return this.search.has(name);
  }

  bool(name: string): boolean {
    const value = this.get(name);
    if (value === "") return false;
    const b = goParseBool(value);
    if (typeof b === "string") {
      throw new RequestError(
        `while parsing ${name} as bool: ${numErrorText("ParseBool", value, b, "json-x")}`,
      );
    }
    return b;
  }

  /** A uint64 parameter as a number (0 when absent). */
  uint64(name: string): number {
    const value = this.get(name);
    if (value === "") return 0;
    const n = goParseUint(value);
    if (typeof n === "string") {
      throw new RequestError(
        `while parsing ${name} as uint64: ${numErrorText("ParseUint", value, n, "json-x")}`,
      );
    }
    return Number(n);
  }

  /** A Go duration parameter in milliseconds (0 when absent). */
  durationMs(name: string): number {
    const value = this.get(name);
    if (value === "") return 0;
    try {
      return parseGoDuration(value) / 1e6;
    } catch (e) {
      throw new RequestError(`while parsing ${name} as time.Duration: ${(e as Error).message}`);
    }
  }
}
