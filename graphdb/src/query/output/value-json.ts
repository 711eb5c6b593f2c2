/**
 * The JSON text of a value in a query result (Dgraph's valToBytes): ints as integers, floats `%f`,
 * strings Go-escaped (Dgraph's own stringJsonMarshal), datetimes RFC 3339; other types as
 * types/value-output.ts writes them; passwords never. A value on a `default`
 * predicate comes back as a string whatever type it was written with.
 */
import type { ScalarType, TypedValue } from "../../core/scalar.ts";
import { valueToJson } from "../../types/value-output.ts";
import { storedAs } from "../function-context.ts";
import { goFloat, goQuote, uidJson } from "./go-format.ts";

/** Go's zero time, which Dgraph prints as an empty string. */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * JSON text of a value, or undefined when Dgraph leaves it out (passwords, NaN/Inf floats).
 * `schemaType` is the predicate's type when known (a `default` predicate prints strings).
 */
export function valueJson(v: TypedValue, schemaType?: ScalarType): string | undefined {
  if (schemaType === "default" && v.type !== "default" && v.type !== "string") {
    const s = storedAs(v, "string");
    return s === undefined ? undefined : goQuote(String(s.value));
  }
  switch (v.type) {
    case "int": {
      const n = v.value as number;
      return n === 0 ? "0" : String(n);
    }
    case "float": {
      const f = v.value as number;
      return Number.isFinite(f) ? goFloat(f) : undefined;
    }
    case "bool":
      return v.value ? "true" : "false";
    case "string":
    case "default":
      return goQuote(String(v.value));
    case "datetime":
      return v.value === GO_ZERO_TIME ? '""' : goQuote(String(v.value));
    case "uid":
      return uidJson(v.value as number);
    default:
      return valueToJson(v);
  }
}
