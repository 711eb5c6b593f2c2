import { DgraphError } from "../core/errors.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { parseDateTime } from "./datetime.ts";

/**
 * Total orders on values of one type, for `orderasc`/`orderdesc`, `min`/`max` and inequality filters:
 * strings by their UTF-8 bytes (Go string order), numbers numerically, booleans false < true,
 * datetimes by instant (zone offsets don't matter), uids numerically.
 */

/**
 * Compares two strings by UTF-8 byte order without encoding them. UTF-16 code-unit order differs only
 * where a surrogate (U+10000 and above) meets U+E000–U+FFFF; that case is remapped.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two datetime strings (normalised RFC 3339 or any accepted literal) by instant. */
export function compareDateTimes(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseDateTime(a);
  const pb = parseDateTime(b);
  if (pa === null || pb === null) return compareUtf8(a, b);
  return compareNumbers(pa.epochMs, pb.epochMs) || compareNumbers(pa.nanos % 1e6, pb.nanos % 1e6);
}

/** Types whose values have an order. */
export function isSortableType(t: ScalarType): boolean {
  return t !== "geo" && t !== "password" && t !== "float32vector";
}

/**
 * Compares two values of the same type (negative, zero, positive). int and float may be mixed (compared
 * numerically), as may string and default. Throws DgraphError for types without an order.
 */
export function compareValues(a: TypedValue, b: TypedValue): number {
  const ta = a.type;
  const tb = b.type;
  const numeric = (t: ScalarType) => t === "int" || t === "float" || t === "uid";
  if (numeric(ta) && numeric(tb)) return compareNumbers(a.value as number, b.value as number);
  const textual = (t: ScalarType) => t === "string" || t === "default" || t === "binary";
  if (textual(ta) && textual(tb)) return compareUtf8(String(a.value), String(b.value));
  if (ta !== tb) throw new DgraphError(`Cannot compare values of type ${ta} and ${tb}`);
  switch (ta) {
    case "bool":
      return (a.value ? 1 : 0) - (b.value ? 1 : 0);
    case "datetime":
      return compareDateTimes(String(a.value), String(b.value));
    case "bigfloat":
      return compareNumbers(Number(a.value), Number(b.value));
    default:
      throw new DgraphError(`Type ${ta} not supported for sorting`);
  }
}
