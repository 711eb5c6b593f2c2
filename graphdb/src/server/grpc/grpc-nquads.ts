/**
 * `api.NQuad` messages (`Mutation.set` / `Mutation.del`, e.g. dgraph-js `deleteEdges`) as N-Quad text, so they
 * go through the same parser, checks and error texts as `set_nquads` / `del_nquads`.
 */
import { DgraphError } from "../../core/errors.ts";
import type { ApiFacet, ApiNQuad, ApiValue } from "./grpc-proto.ts";

/** The object value dgraph-js's `deleteEdges` sends for "all values" (`<s> <p> * .`). */
const STAR_ALL = "_STAR_ALL";

const quote = (s: string) => JSON.stringify(s);

function unsupported(what: string): DgraphError {
  return new DgraphError(
    `${what} in an api.NQuad is not supported by this server; send the mutation as set_nquads/set_json`,
  );
}

/** A subject or object id: `0x1a` → `<0x1a>`, `_:a` and `uid(v)` as they are. */
function nodeText(id: string, what: string): string {
  if (id === "") throw new DgraphError(`empty required fields in NQuad: ${what}`);
  if (id === "*") return "*";
  if (id.startsWith("_:") || /^(uid|val)\(.*\)$/.test(id)) return id;
  return `<${id}>`;
}

function typed(text: string, type: string): string {
  return `${quote(text)}^^<${type}>`;
}

function float32Vector(bytes: Buffer): string {
  if (bytes.length % 4 !== 0) throw new DgraphError("invalid vfloat32_val: length is not a multiple of 4");
  const values: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) values.push(bytes.readFloatLE(i));
  return typed(`[${values.join(", ")}]`, "xs:[]float32");
}

function objectText(value: ApiValue, lang: string): string {
  const withLang = (literal: string) => (lang === "" ? literal : `${literal}@${lang}`);
  switch (value.val) {
    case undefined:
      return withLang('""');
    case "default_val":
      return value.default_val === STAR_ALL ? "*" : withLang(quote(value.default_val ?? ""));
    case "str_val":
      return lang === "" ? typed(value.str_val ?? "", "xs:string") : withLang(quote(value.str_val ?? ""));
    case "int_val":
      return typed(String(value.int_val ?? 0), "xs:int");
    case "bool_val":
      return typed(String(value.bool_val ?? false), "xs:boolean");
    case "double_val":
      return typed(String(value.double_val ?? 0), "xs:float");
    case "password_val":
      return typed(value.password_val ?? "", "xs:password");
    case "bytes_val":
      return typed((value.bytes_val ?? Buffer.alloc(0)).toString("base64"), "xs:base64Binary");
    case "uid_val":
      return `<0x${(value.uid_val ?? 0).toString(16)}>`;
    case "vfloat32_val":
      return float32Vector(value.vfloat32_val ?? Buffer.alloc(0));
    case "geo_val":
      throw unsupported("geo_val (WKB)");
    case "date_val":
    case "datetime_val":
      throw unsupported(value.val);
    case "bigfloat_val":
      throw unsupported("bigfloat_val");
  }
}

/** Facet values are encoded as Dgraph encodes them: int64/float64 little-endian, bool one byte. */
function facetText(facet: ApiFacet): string {
  const bytes = facet.value ?? Buffer.alloc(0);
  switch (facet.val_type) {
    case "STRING":
      return `${facet.key}=${quote(bytes.toString("utf8"))}`;
    case "INT":
      if (bytes.length !== 8) throw new DgraphError(`invalid int facet value for ${facet.key}`);
      return `${facet.key}=${bytes.readBigInt64LE(0)}`;
    case "FLOAT": {
      if (bytes.length !== 8) throw new DgraphError(`invalid float facet value for ${facet.key}`);
      const v = bytes.readDoubleLE(0);
      // A bare `3` would be typed int: keep the float type visible.
      return `${facet.key}=${Number.isInteger(v) ? v.toFixed(1) : String(v)}`;
    }
    case "BOOL":
      return `${facet.key}=${bytes.length > 0 && bytes[0] !== 0}`;
    default:
      throw unsupported(`facet ${facet.key} of type ${facet.val_type}`);
  }
}

/** One N-Quad line for an `api.NQuad`. */
export function nquadText(nq: ApiNQuad): string {
  const subject = nodeText(nq.subject, "subject");
  const predicate = nq.predicate === "*" ? "*" : `<${nq.predicate}>`;
  let object: string;
  if (nq.object_id !== "") object = nodeText(nq.object_id, "object");
  else if (nq.object_value) object = objectText(nq.object_value, nq.lang);
  else throw new DgraphError("no Object in NQuad.");
  const facets = nq.facets.length > 0 ? ` (${nq.facets.map(facetText).join(", ")})` : "";
  return `${subject} ${predicate} ${object}${facets} .`;
}

/** N-Quad text for a list of `api.NQuad`s (empty string for none). */
export function nquadsText(nquads: ApiNQuad[]): string {
  return nquads.map(nquadText).join("\n");
}
