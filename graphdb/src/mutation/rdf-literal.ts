/**
 * Typed RDF literals (`"value"^^<xs:int>`): the type IRIs Dgraph accepts, and the conversion of the literal
 * text to the declared scalar type that Dgraph does at parse time.
 */
import { DgraphError } from "../core/errors.ts";
import type { ScalarType } from "../core/scalar.ts";
import { parseDateTime } from "../types/datetime.ts";
import { goParseBool, goParseFloat, goParseSafeInt, goQuote } from "../types/strconv.ts";
import type { EdgeObject } from "./edge.ts";
import { normaliseGeoJson } from "./geojson.ts";
import { trimGoSpace } from "./go-space.ts";
import { numError } from "./num-error.ts";

const XSD = "http://www.w3.org/2001/XMLSchema#";

/** `^^<type>` IRIs Dgraph accepts and the scalar type each declares. */
const RDF_TYPES = new Map<string, ScalarType>([
  ["xs:password", "password"],
  ["xs:string", "string"],
  ["xs:date", "datetime"],
  ["xs:dateTime", "datetime"],
  ["xs:int", "int"],
  ["xs:integer", "int"],
  ["xs:positiveInteger", "int"],
  ["xs:boolean", "bool"],
  ["xs:double", "float"],
  ["xs:float", "float"],
  ["xs:base64Binary", "binary"],
  ["xs:decimal", "bigfloat"],
  ["geo:geojson", "geo"],
  ["xs:[]float32", "float32vector"],
  [`${XSD}string`, "string"],
  [`${XSD}dateTime`, "datetime"],
  [`${XSD}date`, "datetime"],
  [`${XSD}int`, "int"],
  [`${XSD}positiveInteger`, "int"],
  [`${XSD}integer`, "int"],
  [`${XSD}boolean`, "bool"],
  [`${XSD}double`, "float"],
  [`${XSD}float`, "float"],
  [`${XSD}gYear`, "datetime"],
  [`${XSD}gYearMonth`, "datetime"],
]);

/** A `"value"^^<type>` literal, converted as Dgraph converts it at parse time. */
export function typedLiteral(value: string, typeIri: string, lang: string | undefined): EdgeObject {
  if (typeIri === "*") throw new DgraphError("itemObject can't be *");
  const type = RDF_TYPES.get(typeIri);
  if (type === undefined) throw new DgraphError(`unrecognized rdf type ${typeIri}`);
  if (value === "" && type !== "string") throw new DgraphError("invalid ObjectValue");
  const converted = convertLiteral(value, type);
  if (lang !== undefined) return { kind: "literal", type, value: converted, lang };
  return { kind: "literal", type, value: converted };
}

const BIGFLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[Ii]nf)$/;

function convertLiteral(s: string, type: ScalarType): string | number | boolean | object {
  switch (type) {
    case "int": {
      const v = goParseSafeInt(s);
      if (typeof v === "string") throw numError("ParseInt", s, v);
      return v;
    }
    case "float": {
      const v = goParseFloat(s);
      if (typeof v === "string") throw numError("ParseFloat", s, v);
      if (Number.isNaN(v)) throw new DgraphError("Got invalid value: NaN");
      return v;
    }
    case "bool": {
      const v = goParseBool(s);
      if (typeof v === "string") throw numError("ParseBool", s, v);
      return v;
    }
    case "datetime": {
      const v = parseDateTime(s);
      if (v === null) throw new DgraphError(`parsing time ${goQuote(s, "json")}: not a valid datetime`);
      return v.iso;
    }
    case "geo": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(s);
      } catch {
        parsed = undefined;
      }
      const geo = normaliseGeoJson(parsed, (n) => (typeof n === "number" ? n : undefined));
      if (geo === null) throw new DgraphError(`could not parse geojson value ${goQuote(s, "json")}`);
      return geo;
    }
    case "bigfloat":
      if (!BIGFLOAT.test(s)) throw new DgraphError(`could not parse ${goQuote(s, "json")} as bigfloat`);
      return s;
    case "float32vector":
      return parseFloat32Vector(s);
    default:
      // string, password, binary (Dgraph keeps the text as written; base64 is not decoded).
      return s;
  }
}

/** `xs:[]float32` text: `[1.0, 2, 3e-1]` (commas and/or spaces between values). */
function parseFloat32Vector(s: string): number[] {
  const t = trimGoSpace(s);
  if (t.length === 0) return [];
  if (t[0] !== "[" || t[t.length - 1] !== "]") {
    throw new DgraphError(`Error parsing Float32Vector ${goQuote(s, "json")}: expected [ ... ]`);
  }
  const out: number[] = [];
  for (const part of t.slice(1, -1).split(/[\s,]+/)) {
    if (part.length === 0) continue;
    const v = goParseFloat(part);
    if (typeof v === "string" || Number.isNaN(v)) {
      throw new DgraphError(
        `Error parsing Float32Vector ${goQuote(s, "json")}: bad value ${goQuote(part, "json")}`,
      );
    }
    out.push(Math.fround(v));
  }
  return out;
}
