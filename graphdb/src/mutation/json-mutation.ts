/**
 * JSON mutations (`set`/`delete` values of /mutate, gRPC `set_json`/`delete_json`) → normalised edges,
 * following Dgraph's `chunker/json_parser.go` (the simdjson path v25 uses: numbers are int or float by how
 * they are written).
 *
 * Values come from `parseJsonText` (json-text-parser.ts), which keeps integral numbers written with a
 * fraction or exponent as {@link JsonFloat}; with plain `JSON.parse` values an integral number is taken as
 * an int.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import { numErrorText } from "../types/strconv.ts";
import type { Edge, EdgeObject, EdgeOp, NodeRef } from "./edge.ts";
import { checkEdge } from "./edge-checks.ts";
import { jsonStringFacet } from "./facet-parser.ts";
import { normaliseGeoJson } from "./geojson.ts";
import { stripGoSpaces } from "./go-space.ts";
import { JsonFloat, type JsonMap } from "./json-text-parser.ts";
import { parseUidText } from "./uid-text.ts";

export interface JsonMutationContext {
  /** A fresh blank-node label for an object without `"uid"` (Dgraph: `dg.<random uint32>.<counter>`). */
  nextBlankLabel(): string;
}

/** Deepest object nesting accepted in a mutation value. */
const MAX_NESTING = 1000;

/**
 * Turns a JSON `set` or `delete` value (an object or an array of objects) into edges. `{}`, `[]`, `null`
 * and, as in Dgraph, other non-object values are no-ops.
 */
export function parseJsonMutation(value: unknown, op: EdgeOp, ctx: JsonMutationContext): Edge[] {
  try {
    const builder = new EdgeBuilder(op, ctx);
    if (Array.isArray(value)) {
      for (const item of value) {
        if (!isMap(item)) throw new DgraphError("only array of map allowed at root");
        builder.root(item);
      }
    } else if (isMap(value) && Object.keys(value).length > 0) {
      builder.root(value);
    }
    return builder.edges;
  } catch (e) {
    if (e instanceof DgraphError) throw e;
    // A hostile value (a throwing getter, a Proxy, a cycle) must not escape as another error type.
    throw new DgraphError(`invalid JSON mutation: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function isMap(v: unknown): v is JsonMap {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

const STAR: EdgeObject = Object.freeze({ kind: "star" }) as EdgeObject;

/** Splits `name@en` into predicate and language as Dgraph's `x.PredicateLang` (last `@`, not at 0). */
function predicateLang(key: string): [string, string | undefined] {
  const at = key.lastIndexOf("@");
  if (at <= 0) return [key, undefined];
  const lang = key.slice(at + 1);
  return [key.slice(0, at), lang.length > 0 ? lang : undefined];
}

interface NodeResult {
  ref: NodeRef;
  /** Facets written inside the object for the edge from its parent (`"parentPred|key": v`). */
  facets: Facet[];
  /** Only `"uid"` besides facet keys: at the root of a delete this means `S * *`. */
  onlyUid: boolean;
}

class EdgeBuilder {
  readonly edges: Edge[] = [];

  constructor(
    private readonly op: EdgeOp,
    private readonly ctx: JsonMutationContext,
  ) {}

  root(m: JsonMap): void {
    const node = this.node(m, "", 0);
    if (this.op === "delete" && node.onlyUid) {
      this.push({ subject: node.ref, predicate: "*", object: STAR, facets: [], list: false });
    }
  }

  private push(edge: Edge): void {
    checkEdge(edge, this.op);
    this.edges.push(edge);
  }

  private node(m: JsonMap, parentPred: string, depth: number): NodeResult {
    if (depth > MAX_NESTING)
      throw new DgraphError(`JSON mutation is nested deeper than ${MAX_NESTING} levels`);
    const facetEntries: [string, unknown][] = [];
    const fields: [string, unknown][] = [];
    let uidValue: unknown;
    let hasUid = false;
    for (const [key, v] of Object.entries(m)) {
      if (key.includes("|")) facetEntries.push([key, v]);
      else if (key === "uid") {
        hasUid = true;
        uidValue = v;
      } else if (key !== "namespace") fields.push([key, v]);
    }
    const nonFacetKeys = fields.length + (hasUid ? 1 : 0) + (Object.hasOwn(m, "namespace") ? 1 : 0);

    let ref = hasUid ? uidRef(uidValue) : null;
    if (ref === null) {
      if (this.op === "delete")
        throw new DgraphError("UID must be present and non-zero while deleting edges.");
      ref = { kind: "blank", label: this.ctx.nextBlankLabel() };
    }

    for (const [pred, v] of fields) {
      const [name, lang] = predicateLang(pred);
      if (v === null || v === undefined) {
        if (this.op === "delete")
          this.push({ subject: ref, predicate: name, object: STAR, facets: [], list: false });
        continue;
      }
      if (Array.isArray(v)) {
        this.list(ref, pred, name, lang, v, facetEntries, depth);
        continue;
      }
      const facets = scalarFacets(facetEntries, `${pred}|`);
      if (isMap(v)) {
        if (Object.keys(v).length === 0) continue;
        const geo = geoValue(v);
        if (geo !== null) {
          this.push({ subject: ref, predicate: name, object: geo, facets, list: false });
          continue;
        }
        const child = this.node(v, pred, depth + 1);
        this.push({
          subject: ref,
          predicate: name,
          object: { kind: "node", ref: child.ref },
          facets: child.facets,
          list: false,
        });
        continue;
      }
      this.push({ subject: ref, predicate: name, object: this.scalar(pred, v, lang), facets, list: false });
    }

    const facets = parentPred === "" ? [] : scalarFacets(facetEntries, `${parentPred}|`);
    return { ref, facets, onlyUid: nonFacetKeys === 1 && hasUid && facetEntries.length === 0 };
  }

  private list(
    subject: NodeRef,
    pred: string,
    name: string,
    lang: string | undefined,
    items: unknown[],
    facetEntries: [string, unknown][],
    depth: number,
  ): void {
    let facetMaps: Map<number, Facet>[] = [];
    for (let idx = 0; idx < items.length; idx++) {
      const item = items[idx];
      const scalar = typeof item === "string" || typeof item === "number" || item instanceof JsonFloat;
      if (idx === 0 && scalar) facetMaps = indexedFacets(facetEntries, `${pred}|`);
      if (scalar) {
        const facets: Facet[] = [];
        for (const fm of facetMaps) {
          const f = fm.get(idx);
          if (f !== undefined) facets.push({ ...f });
        }
        this.push({ subject, predicate: name, object: this.scalar(pred, item, lang), facets, list: true });
      } else if (isMap(item)) {
        const geo = geoValue(item);
        if (geo !== null) {
          this.push({ subject, predicate: name, object: geo, facets: [], list: true });
          continue;
        }
        const child = this.node(item, pred, depth + 1);
        this.push({
          subject,
          predicate: name,
          object: { kind: "node", ref: child.ref },
          facets: child.facets,
          list: true,
        });
      } else {
        throw new DgraphError(`Got unsupported type for list: ${pred}`);
      }
    }
  }

  /** Dgraph's `handleBasicType`: a value, a `uid(v)`/`val(v)` reference, or `*` for deletes. */
  private scalar(pred: string, v: unknown, lang: string | undefined): EdgeObject {
    const del = this.op === "delete";
    if (typeof v === "string") {
      if (v === "" && del) return STAR;
      const s = stripGoSpaces(v);
      const isUid = s.startsWith("uid(");
      if (isUid || s.startsWith("val(")) {
        const name = functionArgument(s);
        return isUid ? { kind: "node", ref: { kind: "var", name } } : { kind: "valVar", name };
      }
      return literal("string", v, lang);
    }
    if (v instanceof JsonFloat) {
      if (v.value === 0 && del) return STAR;
      return literal("float", v.value, lang);
    }
    if (typeof v === "number") {
      return literal(Number.isSafeInteger(v) ? "int" : "float", v, lang);
    }
    if (typeof v === "boolean") {
      if (!v && del) return STAR;
      return literal("bool", v, lang);
    }
    throw new DgraphError(`Unexpected type for val for attr: ${pred} while converting to nquad`);
  }
}

function literal(
  type: "string" | "int" | "float" | "bool",
  value: string | number | boolean,
  lang?: string,
): EdgeObject {
  return lang === undefined ? { kind: "literal", type, value } : { kind: "literal", type, value, lang };
}

/** `uid(v)` / `val(v)` (spaces already removed): the variable name. */
function functionArgument(s: string): string {
  if (!s.endsWith(")")) throw new DgraphError(`While processing '${s}', brackets are not closed properly`);
  const name = s.slice(4, -1);
  if (name.length === 0) throw new DgraphError("empty variable name in function call");
  return name;
}

/** The node named by a `"uid"` value; null when it names none (absent, empty, zero, or of another type). */
function uidRef(v: unknown): NodeRef | null {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || v === 0) return null;
    if (v < 0) throw new DgraphError("UID must to be greater than 0");
    return { kind: "uid", uid: v };
  }
  if (typeof v !== "string" || v === "") return null;
  if (v.startsWith("_:")) return { kind: "blank", label: v.slice(2) };
  const s = stripGoSpaces(v);
  if (s.startsWith("uid(")) return { kind: "var", name: functionArgument(s) };
  const uid = parseUidText(v);
  return uid === 0 ? null : { kind: "uid", uid };
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (v instanceof JsonFloat) return v.value;
  return undefined;
}

/** `{"type": ..., "coordinates": ...}` and nothing else, holding a valid geometry. */
function geoValue(m: JsonMap): EdgeObject | null {
  const keys = Object.keys(m);
  if (keys.length !== 2 || !Object.hasOwn(m, "type") || !Object.hasOwn(m, "coordinates")) return null;
  const geo = normaliseGeoJson(m, toNumber);
  return geo === null ? null : { kind: "literal", type: "geo", value: geo };
}

/** Dgraph's `handleBasicFacetsType`. */
function jsonFacet(key: string, v: unknown): Facet {
  if (typeof v === "string") return jsonStringFacet(key, v);
  if (v instanceof JsonFloat) return { key, value: v.value, type: "float" };
  if (typeof v === "number") {
    return Number.isSafeInteger(v) ? { key, value: v, type: "int" } : { key, value: v, type: "float" };
  }
  if (typeof v === "boolean") return { key, value: v, type: "bool" };
  throw new DgraphError("facet value can only be string/number/bool.");
}

/** Facets of a scalar or single-object predicate: `"pred|key": value`. */
function scalarFacets(entries: [string, unknown][], prefix: string): Facet[] {
  const out: Facet[] = [];
  for (const [fname, v] of entries) {
    if (v === null || v === undefined || !fname.startsWith(prefix)) continue;
    try {
      out.push(jsonFacet(fname.slice(prefix.length), v));
    } catch (e) {
      throw e instanceof DgraphError ? new DgraphError(`facet: ${fname}: ${e.message}`) : e;
    }
  }
  return out;
}

/** Facets of a scalar list: `"pred|key": {"0": v, "2": w}` (value index → facet). One map per key. */
function indexedFacets(entries: [string, unknown][], prefix: string): Map<number, Facet>[] {
  const out: Map<number, Facet>[] = [];
  for (const [fname, v] of entries) {
    if (v === null || v === undefined || !fname.startsWith(prefix)) continue;
    if (!isMap(v)) {
      throw new DgraphError(
        `facets format should be of type map for scalarlist predicates, found: ${goValue(v)} for facet: ${fname}`,
      );
    }
    const byIndex = new Map<number, Facet>();
    for (const [sidx, val] of Object.entries(v)) {
      let facet: Facet;
      try {
        facet = jsonFacet(fname.slice(prefix.length), val);
      } catch (e) {
        throw e instanceof DgraphError ? new DgraphError(`facet: ${fname}, index: ${sidx}: ${e.message}`) : e;
      }
      if (!/^[+-]?\d+$/.test(sidx)) {
        throw new DgraphError(
          `facet: ${fname}, index: ${sidx}: ${numErrorText("Atoi", sidx, "syntax", "json")}`,
        );
      }
      byIndex.set(Number(sidx), facet);
    }
    out.push(byIndex);
  }
  return out;
}

/** Go's `%v` of a decoded JSON value, for error texts. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (v instanceof JsonFloat) return String(v.value);
  if (Array.isArray(v)) return `[${v.map(goValue).join(" ")}]`;
  if (typeof v === "object") {
    const entries = Object.entries(v as JsonMap).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, x]) => `${k}:${goValue(x)}`).join(" ")}]`;
  }
  return String(v);
}
