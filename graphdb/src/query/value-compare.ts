/**
 * Ordering and equality of typed values as Dgraph's `types.Less`, `types.Equal` and `types.CompareVals`
 * define them: only values of the same type compare (default and string are one class), strings by
 * UTF-8 bytes, datetimes by instant.
 */
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { compareDateTimes, compareUtf8 } from "../types/value-compare.ts";

function textual(t: ScalarType): boolean {
  return t === "string" || t === "default";
}

/** True when the two types can be ordered against each other. */
function comparableTypes(a: ScalarType, b: ScalarType): boolean {
  return a === b || (textual(a) && textual(b));
}

/**
 * True for the normalised UTC form values are stored in (`2006-01-02T15:04:05[.frac]Z`): two such texts
 * order like their instants when compared as text (the date-time prefix, then the fraction digits).
 */
function isUtcText(s: string): boolean {
  const n = s.length;
  return (
    n >= 20 &&
    s.charCodeAt(n - 1) === 90 /* Z */ &&
    s.charCodeAt(10) === 84 /* T */ &&
    s.charCodeAt(4) === 45 /* - */ &&
    (n === 20 || s.charCodeAt(19) === 46) /* . */
  );
}

/**
 * Datetime order by instant. Stored values are normalised, so the common case (both in UTC) compares
 * the texts without parsing; other forms go through `compareDateTimes`.
 */
export function compareDateTimeValues(a: string, b: string): number {
  if (a === b) return 0;
  if (isUtcText(a) && isUtcText(b)) {
    for (let i = 0; i < 19; i++) {
      const d = a.charCodeAt(i) - b.charCodeAt(i);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    // Same second: the fraction digits after "." (missing digits are 0; Go keeps nine).
    const fa = a.length - 21;
    const fb = b.length - 21;
    const n = Math.min(9, Math.max(fa, fb));
    for (let k = 0; k < n; k++) {
      const d = (k < fa ? a.charCodeAt(20 + k) : 48) - (k < fb ? b.charCodeAt(20 + k) : 48);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    return 0;
  }
  return compareDateTimes(a, b);
}

function sameClassCompare(a: TypedValue, b: TypedValue): number {
  switch (a.type) {
    case "int":
    case "float":
    case "uid":
      return (a.value as number) - (b.value as number);
    case "datetime":
      return compareDateTimeValues(a.value as string, b.value as string);
    case "bool":
      return (a.value ? 1 : 0) - (b.value ? 1 : 0);
    case "bigfloat":
      return Number(a.value) - Number(b.value);
    default:
      return compareUtf8(String(a.value), String(b.value));
  }
}

/**
 * Total order for sorting: same-class values by value; int against float numerically; otherwise by
 * type name (deterministic, never used by well-typed data).
 */
export function compareTyped(a: TypedValue, b: TypedValue): number {
  if (comparableTypes(a.type, b.type)) return sameClassCompare(a, b);
  if ((a.type === "int" || a.type === "float") && (b.type === "int" || b.type === "float")) {
    return (a.value as number) - (b.value as number);
  }
  return a.type < b.type ? -1 : 1;
}

/** Dgraph's `types.Less`: undefined where Dgraph reports an error (different or unordered types). */
export function lessTyped(a: TypedValue, b: TypedValue): boolean | undefined {
  if (!comparableTypes(a.type, b.type)) return undefined;
  switch (a.type) {
    case "geo":
    case "password":
    case "binary":
    case "float32vector":
    case "bool":
      return undefined;
    default:
      return sameClassCompare(a, b) < 0;
  }
}

/** Dgraph's `types.Equal`: undefined for different types. */
export function equalTyped(a: TypedValue, b: TypedValue): boolean | undefined {
  if (!comparableTypes(a.type, b.type)) return undefined;
  switch (a.type) {
    case "geo":
    case "float32vector":
      return JSON.stringify(a.value) === JSON.stringify(b.value);
    default:
      return sameClassCompare(a, b) === 0;
  }
}

/** Dgraph's `types.CompareVals(op, stored, arg)` for eq/le/lt/ge/gt. */
export function compareVals(op: string, stored: TypedValue, arg: TypedValue): boolean {
  if (op === "eq") return equalTyped(stored, arg) === true;
  if (!comparableTypes(stored.type, arg.type)) return false;
  const c = sameClassCompare(stored, arg);
  switch (op) {
    case "lt":
      return c < 0;
    case "le":
      return c <= 0;
    case "gt":
      return c > 0;
    case "ge":
      return c >= 0;
    default:
      return false;
  }
}

/** `between(pred, lo, hi)`: lo <= v <= hi. */
export function compareBetween(v: TypedValue, lo: TypedValue, hi: TypedValue): boolean {
  return compareVals("ge", v, lo) && compareVals("le", v, hi);
}
