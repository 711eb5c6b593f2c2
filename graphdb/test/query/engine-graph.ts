/**
 * Executor test graphs on the real engine: a schema and a list of triples are written to a GraphDB in a
 * fresh temp directory (through an ordinary committed mutation, as N-Quads), and the tests read it through
 * `engine.readView()`, the same GraphReader the engine's own queries use.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Facet } from "../../src/core/facet.ts";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import type { ScalarType } from "../../src/core/scalar.ts";
import { createGraphDB, type GraphDB } from "../../src/index.ts";

/**
 * One triple: an edge to a uid, or a literal (`lang` for tagged strings). A literal's input type is `type`
 * when given, else inferred from the JS value (integer → int, other number → float, boolean → bool,
 * object → geo, string → default, i.e. an untyped RDF literal); the engine converts it to the schema type.
 */
export type Triple =
  | { s: number; p: string; uid: number; facets?: Facet[] }
  | {
      s: number;
      p: string;
      value: string | number | boolean | object;
      type?: ScalarType;
      lang?: string;
      facets?: Facet[];
    };

/** A graph written to a real engine, read through a view of its latest snapshot. */
export interface EngineGraph {
  readonly engine: GraphDB;
  readonly reader: GraphReader;
  /** Releases the view, closes the engine and removes its directory (idempotent). */
  close(): Promise<void>;
}

const open = new Set<EngineGraph>();

// Registered on the suite of the test file that imports this module (vitest isolates test files), so every
// graph a file creates, in hooks or in tests, is closed and removed when the file is done.
afterAll(async () => {
  for (const g of [...open]) await g.close();
});

/** Creates a temp-dir engine with `schema` and `triples`, and a read view of the result. */
export async function engineGraph(schema: string, triples: readonly Triple[] = []): Promise<EngineGraph> {
  const dir = mkdtempSync(join(tmpdir(), "trellis-dql-"));
  const handle = createGraphDB({ dir });
  let view: { reader: GraphReader; release(): void } | undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      open.delete(graph);
      view?.release();
      try {
        await handle.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })());
  const graph: EngineGraph = {
    engine: handle.engine,
    get reader(): GraphReader {
      if (view === undefined) throw new Error("engineGraph: no read view");
      return view.reader;
    },
    close,
  };
  open.add(graph);
  try {
    const { engine } = handle;
    if (schema.trim() !== "") await engine.alter({ schema });
    const maxUid = triples.reduce((m, t) => Math.max(m, t.s, "uid" in t ? t.uid : 0), 0);
    if (maxUid > 0) engine.assignUids(maxUid);
    if (triples.length > 0) {
      await engine.mutate({ mutations: [{ setNquads: toNQuads(triples) }], commitNow: true });
    }
    view = engine.readView();
  } catch (e) {
    await close();
    throw e;
  }
  return graph;
}

/** The N-Quads text of triples, one statement per line. */
export function toNQuads(triples: readonly Triple[]): string {
  return triples.map(nquad).join("\n");
}

function nquad(t: Triple): string {
  const object = "uid" in t ? uidIri(t.uid) : literal(t);
  const facets = t.facets && t.facets.length > 0 ? ` (${t.facets.map(facetText).join(", ")})` : "";
  return `${uidIri(t.s)} <${t.p}> ${object}${facets} .`;
}

function uidIri(uid: number): string {
  if (!Number.isSafeInteger(uid) || uid < 1) throw new Error(`engineGraph: bad uid ${uid}`);
  return `<0x${uid.toString(16)}>`;
}

/** `^^<type>` IRIs for each input type (the RDF parser's table, reversed); default is an untyped literal. */
const TYPE_IRI: Record<Exclude<ScalarType, "default" | "uid">, string> = {
  int: "xs:int",
  float: "xs:double",
  string: "xs:string",
  bool: "xs:boolean",
  datetime: "xs:dateTime",
  geo: "geo:geojson",
  password: "xs:password",
  binary: "xs:base64Binary",
  bigfloat: "xs:decimal",
  float32vector: "xs:[]float32",
};

function inputType(v: unknown): ScalarType {
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "object") return "geo";
  return "default";
}

function literal(t: Extract<Triple, { value: unknown }>): string {
  const type = t.type ?? inputType(t.value);
  if (type === "uid") throw new Error(`engineGraph: literal of type uid for ${t.p}`);
  let text: string;
  if (type === "geo") text = JSON.stringify(t.value);
  else if (type === "float32vector") text = `[${(t.value as number[]).join(", ")}]`;
  else if (typeof t.value === "number") text = numberText(t.value, type === "float");
  else text = String(t.value);
  const quoted = `"${escapeLiteral(text)}"`;
  if (t.lang !== undefined) {
    // A language tag only goes on an untyped literal; the schema type (string) applies.
    if (type !== "default" && type !== "string")
      throw new Error(`engineGraph: @${t.lang} on a ${type} value`);
    return `${quoted}@${t.lang}`;
  }
  return type === "default" ? quoted : `${quoted}^^<${TYPE_IRI[type]}>`;
}

function numberText(n: number, float: boolean): string {
  if (!Number.isFinite(n)) throw new Error(`engineGraph: non-finite number ${n}`);
  const s = String(n);
  return float && !/[.eE]/.test(s) ? `${s}.0` : s;
}

/** Escapes a literal body for Dgraph's N-Quad lexer (Go string escapes). */
function escapeLiteral(s: string): string {
  return s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}

/**
 * `key=value` as the RDF facet parser types it: quoted text is a string; bare text is tried as int, float,
 * bool, then datetime (so a float facet needs a decimal point).
 */
function facetText(f: Facet): string {
  switch (f.type) {
    case "string":
      return `${f.key}="${escapeFacet(String(f.value))}"`;
    case "int":
      if (!Number.isSafeInteger(f.value)) throw new Error(`engineGraph: int facet ${f.key}=${f.value}`);
      return `${f.key}=${f.value}`;
    case "float":
      return `${f.key}=${numberText(Number(f.value), true)}`;
    case "bool":
      return `${f.key}=${f.value === true}`;
    case "datetime":
      return `${f.key}=${f.value}`;
  }
}

/** Escapes a quoted facet value: the facet lexer allows only `\` followed by one of vtbnrf"'\. */
function escapeFacet(s: string): string {
  return s.replace(/[\\"\n\r\t\b\f\v]/g, (c) => {
    const names: Record<string, string> = {
      "\n": "n",
      "\r": "r",
      "\t": "t",
      "\b": "b",
      "\f": "f",
      "\v": "v",
    };
    return `\\${names[c] ?? c}`;
  });
}
