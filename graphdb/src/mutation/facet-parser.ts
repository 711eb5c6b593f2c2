/**
 * Facet values of RDF statements and JSON mutations: their types, parsed as Dgraph parses them, and order.
 *
 * Dgraph infers an unquoted RDF facet value's type in this order (`types/facets.valAndValType`): empty →
 * string "", `"…"` → string (Go-unquoted), `strconv.ParseInt(v, 0, 64)` → int, `strconv.ParseFloat(v, 64)` →
 * float, `true`/`false` → bool, `types.ParseTime` → datetime, else an error. The number parsers (in
 * types/strconv.ts) follow Go's grammar (base prefixes, `_` separators, `inf`/`nan`) so the same text gets
 * the same type.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import { parseDateTime } from "../types/datetime.ts";
import { goParseFloat, goParseInt, goQuote, goUnquoteBody } from "../types/strconv.ts";
import { numError } from "./num-error.ts";

function allDigits(s: string): boolean {
  return /^\p{Nd}+$/u.test(s);
}

/**
 * Types an RDF facet value as Dgraph does. `raw` is the value token as written: quoted (`"text"`, escapes
 * included) or bare (`2006-01-02T15:04:05`, `0.1`, `true`, `13`); empty for `key=`.
 */
export function rdfFacet(key: string, raw: string): Facet {
  if (raw.length === 0) return { key, value: "", type: "string" };
  if (raw.length >= 2 && raw.charCodeAt(0) === 34 && raw.charCodeAt(raw.length - 1) === 34) {
    const body = goUnquoteBody(raw.slice(1, -1));
    if (body === null) {
      throw new DgraphError(`could not unquote ${goQuote(raw, "json")}:: invalid syntax`);
    }
    return { key, value: body, type: "string" };
  }
  const asInt = goParseInt(raw);
  if (typeof asInt === "bigint") {
    if (asInt > BigInt(Number.MAX_SAFE_INTEGER) || asInt < -BigInt(Number.MAX_SAFE_INTEGER)) {
      throw numError("ParseInt", raw, "range");
    }
    return { key, value: Number(asInt), type: "int" };
  }
  if (asInt === "range" && allDigits(raw)) throw numError("ParseInt", raw, "range");
  const asFloat = goParseFloat(raw);
  if (typeof asFloat === "number") {
    if (Number.isNaN(asFloat)) throw new DgraphError("Got invalid value: NaN");
    return { key, value: asFloat, type: "float" };
  }
  if (asFloat === "range") throw numError("ParseFloat", raw, "range");
  if (raw === "true" || raw === "false") return { key, value: raw === "true", type: "bool" };
  const dt = parseDateTime(raw);
  if (dt !== null) return { key, value: dt.iso, type: "datetime" };
  throw new DgraphError(`Could not parse the facet value : [${raw}]`);
}

/**
 * Types a JSON facet value (`"pred|key": value`): a string that parses as a datetime is a datetime facet,
 * any other string a string facet; numbers are int or float as the caller decided from the JSON text.
 */
export function jsonStringFacet(key: string, value: string): Facet {
  const dt = parseDateTime(value);
  if (dt !== null) return { key, value: dt.iso, type: "datetime" };
  return { key, value, type: "string" };
}

/** Sorts facets by key (Dgraph stores them sorted) and reports a repeated key, as Dgraph does on set. */
export function sortFacets(facets: Facet[], rejectRepeats: boolean): void {
  if (facets.length < 2) return;
  facets.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (!rejectRepeats) return;
  for (let i = 1; i < facets.length; i++) {
    if (facets[i - 1].key === facets[i].key) {
      throw new DgraphError(`Repeated keys are not allowed in facets. But got ${facets[i].key}`);
    }
  }
}
