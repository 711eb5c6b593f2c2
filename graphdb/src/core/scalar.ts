/** Scalar types of the DQL schema language (case-insensitive in schema text, lower-case here). */
export type ScalarType =
  | "default"
  | "int"
  | "float"
  | "string"
  | "bool"
  | "datetime"
  | "geo"
  | "password"
  | "uid"
  | "binary"
  | "bigfloat"
  | "float32vector";

/**
 * A value as held by the engine. `value` is:
 * - default/string/password/binary/bigfloat: string (password: the stored hash)
 * - int: number (safe integer range, see MAX_SAFE_INT below), float: number
 * - bool: boolean
 * - datetime: string, normalised RFC 3339 as Dgraph prints it ("2006-01-02T15:04:05Z")
 * - geo: a GeoJSON object
 * - float32vector: number[]
 * - uid: number
 */
export interface TypedValue {
  type: ScalarType;
  value: string | number | boolean | object;
}

/** UIDs are JS numbers: exact up to 2^53-1, an explicit limit of this implementation. */
export const MAX_UID = Number.MAX_SAFE_INTEGER;
