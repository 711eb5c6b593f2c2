/** Edges printed as Dgraph prints N-Quads in its error messages (`%+v` of an `api.NQuad`). */
import type { Facet } from "../core/facet.ts";
import type { ScalarType } from "../core/scalar.ts";
import { goQuote } from "../types/strconv.ts";
import type { EdgeObject, NodeRef } from "./edge.ts";

/** Text of a node reference as written in N-Quads (`0x1a`, `_:a`, `uid(v)`). */
export function nodeRefText(ref: NodeRef): string {
  switch (ref.kind) {
    case "uid":
      return `0x${ref.uid.toString(16)}`;
    case "blank":
      return `_:${ref.label}`;
    case "var":
      return `uid(${ref.name})`;
  }
}

const VALUE_FIELDS: Partial<Record<ScalarType, string>> = {
  default: "default_val",
  string: "str_val",
  int: "int_val",
  float: "double_val",
  bool: "bool_val",
  datetime: "datetime_val",
  geo: "geo_val",
  password: "password_val",
  binary: "bytes_val",
  bigfloat: "bigfloat_val",
  float32vector: "vfloat_val",
};

/** An edge in the shape of Dgraph's `%+v` of an `api.NQuad`, for error messages. */
export function formatNQuad(
  subject: NodeRef | null,
  predicate: string,
  object: EdgeObject,
  facets: Facet[],
): string {
  const parts = [
    `subject:${goQuote(subject === null ? "*" : nodeRefText(subject), "json")}`,
    `predicate:${goQuote(predicate, "json")}`,
  ];
  switch (object.kind) {
    case "node":
      parts.push(`object_id:${goQuote(nodeRefText(object.ref), "json")}`);
      break;
    case "valVar":
      parts.push(`object_id:${goQuote(`val(${object.name})`, "json")}`);
      break;
    case "star":
      parts.push(`object_value:{default_val:"*"}`);
      break;
    case "literal": {
      const v = object.value;
      const text =
        typeof v === "string" ? goQuote(v, "json") : typeof v === "object" ? JSON.stringify(v) : String(v);
      parts.push(`object_value:{${VALUE_FIELDS[object.type] ?? "default_val"}:${text}}`);
      if (object.lang !== undefined) parts.push(`lang:${goQuote(object.lang, "json")}`);
      break;
    }
  }
  for (const f of facets)
    parts.push(`facets:{key:${goQuote(f.key, "json")} val_type:${f.type.toUpperCase()}}`);
  return parts.join(" ");
}
