/**
 * JSON mutations (`set`/`delete` values of /mutate, gRPC `set_json`/`delete_json`) → normalised edges,
 * following Dgraph's `chunker/json_parser.go` (the simdjson path v25 uses: numbers are int or float by how
 * they are written).
 *
 * Integers and floats: `JSON.parse` turns `1.0` into `1`, which would make `{"w": 1.0}` an int and
 * `{"w": 0.0}` in a delete a value instead of `S P *`. {@link parseJsonText} keeps such numbers as
 * {@link JsonFloat}; with plain `JSON.parse` values an integral number is taken as an int.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import { numErrorText } from "../types/strconv.ts";
import type { Edge, EdgeObject, EdgeOp, NodeRef } from "./edge.ts";
import { checkEdge } from "./edge-checks.ts";
import { jsonStringFacet, stripGoSpaces } from "./facet-parser.ts";
import { normaliseGeoJson } from "./geojson.ts";
import { parseUidText } from "./uid-text.ts";

/** A JSON number written with a fraction or exponent whose value is integral (`1.0`, `0.0`, `2e3`). */
export class JsonFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

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

type JsonMap = Record<string, unknown>;

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

// ---------------------------------------------------------------------------------------------------
// JSON text with Go `encoding/json` errors.

/** Go's limit on nesting (`encoding/json` maxNestingDepth). */
const MAX_JSON_DEPTH = 10000;

/**
 * Parses JSON text like Go's `json.Unmarshal` (used by Dgraph's /mutate handler). Integral numbers written
 * with a fraction or exponent come back as {@link JsonFloat}. Syntax errors throw a DgraphError in Dgraph's
 * form `Error parsing JSON at line L, character C: <Go message>\n`.
 */
export function parseJsonText(text: string): unknown {
  return new JsonTextParser(text).parse();
}

type Frame = { array: unknown[]; object: null; key: "" } | { array: null; object: JsonMap; key: string };

class JsonTextParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): unknown {
    const text = this.text;
    const stack: Frame[] = [];
    this.skipSpace();
    for (;;) {
      // A value starts at pos.
      let value: unknown;
      const c = this.peek();
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (stack.length >= MAX_JSON_DEPTH) this.fail(this.pos, "exceeded max depth");
        this.pos++;
        this.skipSpace();
        if (c === 91) {
          if (this.peek() !== 93) {
            stack.push({ array: [], object: null, key: "" });
            continue;
          }
          this.pos++;
          value = [];
        } else {
          if (this.peek() !== 125) {
            stack.push({ array: null, object: {}, key: this.objectKey() });
            continue;
          }
          this.pos++;
          value = {};
        }
      } else if (c === 34) {
        value = this.string();
      } else if (c === 116) {
        value = this.word("true", true);
      } else if (c === 102) {
        value = this.word("false", false);
      } else if (c === 110) {
        value = this.word("null", null);
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        value = this.number();
      } else {
        this.fail(this.pos, "looking for beginning of value");
      }

      // Hand the value to its container; close containers that end here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          this.skipSpace();
          if (this.pos < text.length) this.fail(this.pos, "after top-level value");
          return value;
        }
        if (top.array !== null) top.array.push(value);
        else setKey(top.object, top.key, value);
        this.skipSpace();
        const d = this.peek();
        this.pos++;
        if (d === 44 /* , */) {
          this.skipSpace();
          if (top.array === null) top.key = this.objectKey();
          break;
        }
        if (top.array !== null ? d === 93 : d === 125) {
          stack.pop();
          value = top.array ?? top.object;
          continue;
        }
        this.fail(this.pos - 1, top.array !== null ? "after array element" : "after object key:value pair");
      }
    }
  }

  /** `"key"` then `:`; leaves pos at the value. */
  private objectKey(): string {
    if (this.peek() !== 34) {
      this.fail(this.pos, "looking for beginning of object key string");
    }
    const key = this.string();
    this.skipSpace();
    if (this.peek() !== 58) this.fail(this.pos, "after object key");
    this.pos++;
    this.skipSpace();
    return key;
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else return;
    }
  }

  /** The character code at pos; at the end of input, Go's `unexpected end of JSON input`. */
  private peek(): number {
    if (this.pos >= this.text.length) this.eof();
    return this.text.charCodeAt(this.pos);
  }

  private string(): string {
    const text = this.text;
    const start = this.pos++;
    let escaped = false;
    for (;;) {
      const c = this.peek();
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        this.pos++;
        const e = this.peek();
        if (e === 117) {
          for (let i = 0; i < 4; i++) {
            this.pos++;
            const h = this.peek() | 0x20;
            if (!((h >= 48 && h <= 57) || (h >= 97 && h <= 102)))
              this.fail(this.pos, "in \\u hexadecimal character escape");
          }
        } else if (
          !(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)
        ) {
          this.fail(this.pos, "in string escape code");
        }
      } else if (c < 32) {
        this.fail(this.pos, "in string literal");
      }
      this.pos++;
    }
    this.pos++;
    return escaped
      ? (JSON.parse(text.slice(start, this.pos)) as string)
      : text.slice(start + 1, this.pos - 1);
  }

  private word<T>(word: string, value: T): T {
    for (let i = 0; i < word.length; i++) {
      const c = this.peek();
      if (c !== word.charCodeAt(i)) this.fail(this.pos, `in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
    return value;
  }

  private digits(): void {
    const text = this.text;
    let c = text.charCodeAt(this.pos);
    while (c >= 48 && c <= 57) c = text.charCodeAt(++this.pos);
  }

  private isDigitAt(): boolean {
    const c = this.peek();
    return c >= 48 && c <= 57;
  }

  private number(): number | JsonFloat {
    const text = this.text;
    const start = this.pos;
    let float = false;
    if (text.charCodeAt(this.pos) === 45) {
      this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "in numeric literal");
    }
    if (text.charCodeAt(this.pos) === 48) this.pos++;
    else this.digits();
    if (text.charCodeAt(this.pos) === 46) {
      float = true;
      this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "after decimal point in numeric literal");
      this.digits();
    }
    const e = text.charCodeAt(this.pos);
    if (e === 101 || e === 69) {
      float = true;
      this.pos++;
      const s = this.peek();
      if (s === 43 || s === 45) this.pos++;
      if (!this.isDigitAt()) this.fail(this.pos, "in exponent of numeric literal");
      this.digits();
    }
    const value = Number(text.slice(start, this.pos));
    return float && Number.isInteger(value) ? new JsonFloat(value) : value;
  }

  private eof(): never {
    throw jsonError(this.text, Buffer.byteLength(this.text), "unexpected end of JSON input");
  }

  /** Go's `invalid character 'x' <context>` at string index `at` (offset: bytes up to and including it). */
  private fail(at: number, context: string): never {
    const ch = String.fromCodePoint(this.text.codePointAt(at) ?? 0);
    const offset = Buffer.byteLength(this.text.slice(0, at)) + 1;
    throw jsonError(this.text, offset, `invalid character ${goQuoteChar(ch)} ${context}`);
  }
}

/** Own enumerable property, even for `__proto__` (as `JSON.parse` does). */
function setKey(object: JsonMap, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** Go's `quoteChar` in `encoding/json` scanner errors. */
function goQuoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const quoted = JSON.stringify(c).slice(1, -1);
  return `'${quoted}'`;
}

/**
 * Dgraph's `convertJSONError`: `Error parsing JSON at line L, character C: <message>\n`, where Dgraph walks
 * the input by runes and stops at the rune starting at byte `offset` (so C is one past Go's column).
 */
export function jsonError(input: string, offset: number, message: string): DgraphError {
  let line = 1;
  let character = 0;
  let byteIndex = 0;
  for (const ch of input) {
    if (ch === "\n") {
      line++;
      character = 0;
    }
    character++;
    if (byteIndex === offset) break;
    const cp = ch.codePointAt(0) ?? 0;
    byteIndex += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return new DgraphError(`Error parsing JSON at line ${line}, character ${character}: ${message}\n`);
}
