import { DgraphError } from "../core/errors.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { parseDateTime } from "./datetime.ts";
import { parseGeoJson } from "./geo.ts";
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from "./password.ts";
import {
  formatGoFloat,
  goParseBool,
  goParseFloat,
  goParseSafeInt,
  goQuote,
  type NumberFailure,
  numErrorText,
} from "./strconv.ts";

/**
 * Scalar conversion as Dgraph's `types.Convert` does it: values arriving in a mutation are converted to
 * the predicate's schema type on write, and function arguments (strings) to the predicate's type at query
 * time (`eq(age, "20")`).
 */

/** Thrown for a conversion Dgraph refuses; carries the Go-style text. */
class ConversionError extends Error {}

function cantConvert(from: ScalarType, to: ScalarType): ConversionError {
  return new ConversionError(`Cannot convert ${from} to type ${to}`);
}

const INT64_LIMIT = 2 ** 63;

function epochSecondsToIso(seconds: number, nanos: number): string {
  const ms = seconds * 1000 + Math.floor(nanos / 1e6);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    throw new ConversionError(`Time out of range: ${seconds}`);
  const base = new Date(seconds * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z for years 0–9999
  if (base.length !== 24) throw new ConversionError(`Time out of range: ${seconds}`);
  const frac = nanos === 0 ? "" : `.${String(nanos).padStart(9, "0").replace(/0+$/, "")}`;
  return `${base.slice(0, 19)}${frac}Z`;
}

function parseDateTimeText(s: string): string {
  const p = parseDateTime(s);
  if (p === null) throw new ConversionError(`parsing time ${goQuote(s)}: not a valid datetime`);
  return p.iso;
}

/** A Go parser's value, or a ConversionError with its `strconv` text. */
function parsed<T extends number | boolean>(fn: string, s: string, v: T | NumberFailure): T {
  if (typeof v === "string") throw new ConversionError(numErrorText(fn, s, v));
  return v;
}

function parseFloatStrict(s: string): number {
  const f = parsed("ParseFloat", s, goParseFloat(s));
  if (Number.isNaN(f)) throw new ConversionError("Got invalid value: NaN");
  if (!Number.isFinite(f)) throw new ConversionError(`Got invalid value: ${f > 0 ? "+Inf" : "-Inf"}`);
  return f;
}

const BIGFLOAT = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

function parseVector(s: string): number[] {
  const t = s.trim();
  if (!t.startsWith("[") || !t.endsWith("]"))
    throw new ConversionError(`Cannot parse ${goQuote(s)} as a vector`);
  const body = t.slice(1, -1).trim();
  if (body === "") return [];
  return body.split(/\s*,\s*|\s+/).map((part) => Math.fround(parseFloatStrict(part)));
}

function fromText(s: string, from: ScalarType, to: ScalarType): TypedValue {
  switch (to) {
    case "default":
    case "string":
    case "binary":
      return { type: to, value: s };
    case "int":
      return { type: "int", value: parsed("ParseInt", s, goParseSafeInt(s, 10)) };
    case "float":
      return { type: "float", value: parseFloatStrict(s) };
    case "bool":
      return { type: "bool", value: parsed("ParseBool", s, goParseBool(s)) };
    case "datetime":
      return { type: "datetime", value: parseDateTimeText(s) };
    case "geo":
      return { type: "geo", value: parseGeoJson(s) };
    case "password":
      if (s.length < MIN_PASSWORD_LENGTH) throw new ConversionError(PASSWORD_TOO_SHORT);
      return { type: "password", value: s };
    case "bigfloat":
      if (!BIGFLOAT.test(s)) throw new ConversionError(`Cannot parse ${goQuote(s)} as bigfloat`);
      return { type: "bigfloat", value: s };
    case "float32vector":
      return { type: "float32vector", value: parseVector(s) };
    case "uid":
      throw cantConvert(from, to);
  }
}

function fromInt(n: number, to: ScalarType): TypedValue {
  switch (to) {
    case "int":
      return { type: "int", value: n };
    case "float":
      return { type: "float", value: n };
    case "bool":
      return { type: "bool", value: n !== 0 };
    case "string":
    case "default":
      return { type: to, value: String(n) };
    case "bigfloat":
      return { type: "bigfloat", value: String(n) };
    case "datetime":
      return { type: "datetime", value: epochSecondsToIso(n, 0) };
    default:
      throw cantConvert("int", to);
  }
}

function fromFloat(f: number, to: ScalarType): TypedValue {
  switch (to) {
    case "float":
      return { type: "float", value: f };
    case "int": {
      if (Number.isNaN(f) || f >= INT64_LIMIT || f < -INT64_LIMIT)
        throw new ConversionError("Float out of int64 range");
      const n = Math.trunc(f);
      if (!Number.isSafeInteger(n)) throw new ConversionError("Float out of int64 range");
      return { type: "int", value: n === 0 ? 0 : n };
    }
    case "bool":
      return { type: "bool", value: f !== 0 };
    case "string":
    case "default":
      return { type: to, value: formatGoFloat(f, "G") };
    case "bigfloat":
      return { type: "bigfloat", value: formatGoFloat(f, "f") };
    case "datetime": {
      const secs = Math.trunc(f);
      const nanos = Math.trunc((f - secs) * 1e9);
      // Go's time.Unix normalises a negative fraction into the previous second
      return {
        type: "datetime",
        value: nanos < 0 ? epochSecondsToIso(secs - 1, nanos + 1e9) : epochSecondsToIso(secs, nanos),
      };
    }
    default:
      throw cantConvert("float", to);
  }
}

function fromBool(b: boolean, to: ScalarType): TypedValue {
  switch (to) {
    case "bool":
      return { type: "bool", value: b };
    case "int":
      return { type: "int", value: b ? 1 : 0 };
    case "float":
      return { type: "float", value: b ? 1 : 0 };
    case "string":
    case "default":
      return { type: to, value: b ? "true" : "false" };
    default:
      throw cantConvert("bool", to);
  }
}

function fromDateTime(iso: string, to: ScalarType): TypedValue {
  switch (to) {
    case "datetime":
      return { type: "datetime", value: parseDateTimeText(iso) };
    case "string":
    case "default":
      return { type: to, value: parseDateTimeText(iso) };
    case "int": {
      const p = parseDateTime(iso);
      if (p === null) throw new ConversionError(`parsing time ${goQuote(iso)}: not a valid datetime`);
      return { type: "int", value: Math.floor(p.epochMs / 1000) };
    }
    case "float": {
      const p = parseDateTime(iso);
      if (p === null) throw new ConversionError(`parsing time ${goQuote(iso)}: not a valid datetime`);
      return { type: "float", value: Math.floor(p.epochMs / 1000) + p.nanos / 1e9 };
    }
    default:
      throw cantConvert("datetime", to);
  }
}

/** Geo as text the way Dgraph writes it: GeoJSON with single quotes for double quotes. */
function geoText(g: unknown): string {
  return JSON.stringify(g).replaceAll('"', "'");
}

function convertUnchecked(v: TypedValue, to: ScalarType): TypedValue {
  const from = v.type;
  // Dgraph keeps a typed input as-is on a `default` predicate (ValidateAndConvert).
  if (to === "default" && from !== "default" && from !== "uid") {
    return from === "geo" ? { type: "geo", value: parseGeoJson(v.value) } : v;
  }
  switch (from) {
    case "default":
    case "string":
      return fromText(String(v.value), from, to);
    case "int":
      return fromInt(v.value as number, to);
    case "float":
      return fromFloat(v.value as number, to);
    case "bool":
      return fromBool(v.value as boolean, to);
    case "datetime":
      return fromDateTime(String(v.value), to);
    case "geo":
      if (to === "geo") return { type: "geo", value: parseGeoJson(v.value) };
      if (to === "string") return { type: to, value: geoText(parseGeoJson(v.value)) };
      throw cantConvert(from, to);
    case "password":
      if (to === "password" || to === "string" || to === "binary")
        return { type: to, value: String(v.value) };
      throw cantConvert(from, to);
    case "binary":
      if (to === "binary" || to === "string") return { type: to, value: String(v.value) };
      throw cantConvert(from, to);
    case "bigfloat":
      if (to === "bigfloat" || to === "string") return { type: to, value: String(v.value) };
      if (to === "float") return { type: "float", value: parseFloatStrict(String(v.value)) };
      throw cantConvert(from, to);
    case "float32vector":
      if (to === "float32vector") return v;
      if (to === "string") return { type: "string", value: `[${(v.value as number[]).join(", ")}]` };
      throw cantConvert(from, to);
    case "uid":
      if (to === "uid") return v;
      throw cantConvert(from, to);
  }
}

function wrap(err: unknown, to: ScalarType, predicate: string | undefined): never {
  if (err instanceof DgraphError)
    throw predicate ? new DgraphError(`${prefix(predicate, to)}${err.message}`) : err;
  if (err instanceof ConversionError) {
    throw new DgraphError(predicate ? `${prefix(predicate, to)}${err.message}` : err.message);
  }
  throw err;
}

function prefix(predicate: string, to: ScalarType): string {
  return `Input for predicate ${goQuote(predicate)} of type ${to}: `;
}

/**
 * Converts a value to a schema type (Dgraph `types.Convert`, plus the write-path rule that a typed value
 * is stored as-is on a `default` predicate). Highlights: a default/string `"110"` becomes int 110;
 * int ↔ float (float → int truncates); bool ↔ 0/1; datetime ↔ epoch seconds; text → geo parses GeoJSON.
 * A password is only validated (at least 6 characters) and returned in clear: hash it with hashPassword
 * before storing. Throws a DgraphError with Go's text (`strconv.ParseInt: parsing "abc": invalid syntax`,
 * `Cannot convert bool to type datetime`), prefixed by `Input for predicate "p" of type int: ` when the
 * predicate is given.
 */
export function convertValue(value: TypedValue, to: ScalarType, predicate?: string): TypedValue {
  try {
    return convertUnchecked(value, to);
  } catch (err) {
    return wrap(err, to, predicate);
  }
}

/**
 * Converts a query function's argument (always text: `eq(age, "20")`, `ge(date, "2000")`) to the
 * predicate's type. Password arguments (`checkpwd`) are passed through unvalidated; uid predicates have
 * no scalar arguments (`Attribute friend is not valid scalar type`).
 */
export function convertFunctionArg(arg: string, to: ScalarType, predicate?: string): TypedValue {
  if (to === "password") return { type: "password", value: arg };
  if (to === "uid") {
    throw new DgraphError(
      predicate ? `Attribute ${predicate} is not valid scalar type` : "Cannot convert string to type uid",
    );
  }
  return convertValue({ type: "string", value: arg }, to, predicate);
}
