import type { PredicateSchema, TypeSchema } from "../core/schema-types.ts";
import { compareUtf8 } from "../types/value-compare.ts";
import type { IndexSpec } from "./schema-parser.ts";

/**
 * The result of a schema query (`schema {}`, `schema(pred: [a, b]) { type index }`, `schema(type: T) {}`)
 * in Dgraph's shape: predicates sorted by name, each with its keys in Dgraph's order (`predicate, type,
 * index, tokenizer, reverse, count, list, upsert, lang, no_conflict, unique, index_specs`) and false or
 * empty fields omitted; types sorted by name as `{fields: [{name}], name}`. A key with nothing in it is
 * absent: `schema(type: T)` has no `schema` key, and a schema with no types has no `types` key.
 */

/** One `schema` entry; optional keys are present only when true / non-empty. */
export interface SchemaNode {
  predicate: string;
  type?: string;
  index?: true;
  tokenizer?: string[];
  reverse?: true;
  count?: true;
  list?: true;
  upsert?: true;
  lang?: true;
  no_conflict?: true;
  unique?: true;
  index_specs?: { name: string; options?: { key: string; value: string }[] }[];
}

export interface TypeNode {
  fields: { name: string }[];
  name: string;
}

export interface SchemaResult {
  schema?: SchemaNode[];
  types?: TypeNode[];
}

export interface SchemaRequest {
  /** `schema(pred: [...])`: only these predicates (and, unless `types` is also given, no types). */
  predicates?: string[];
  /** `schema(type: [...])`: only these types (and, unless `predicates` is also given, no predicates). */
  types?: string[];
  /**
   * The selection `{ type index ... }`: which fields to include; empty or absent = all. `predicate` is
   * always included. `noconflict` and `no_conflict` both select `no_conflict`.
   */
  fields?: string[];
}

const ALL_FIELDS = [
  "type",
  "index",
  "tokenizer",
  "reverse",
  "count",
  "list",
  "upsert",
  "lang",
  "no_conflict",
  "unique",
] as const;

function schemaNode(
  p: PredicateSchema,
  fields: ReadonlySet<string>,
  specs: readonly IndexSpec[] | undefined,
): SchemaNode {
  const node: SchemaNode = { predicate: p.predicate };
  const indexed = p.tokenizers.length > 0;
  if (fields.has("type")) node.type = p.type;
  if (fields.has("index") && indexed) node.index = true;
  if (fields.has("tokenizer") && indexed) node.tokenizer = [...p.tokenizers];
  if (fields.has("reverse") && p.reverse) node.reverse = true;
  if (fields.has("count") && p.count) node.count = true;
  if (fields.has("list") && p.list) node.list = true;
  if (fields.has("upsert") && p.upsert) node.upsert = true;
  if (fields.has("lang") && p.lang) node.lang = true;
  if (fields.has("no_conflict") && p.noconflict) node.no_conflict = true;
  if (fields.has("unique") && p.unique) node.unique = true;
  if (fields.has("tokenizer") && specs && specs.length > 0) {
    node.index_specs = specs.map((s) =>
      s.options.length > 0 ? { name: s.name, options: s.options } : { name: s.name },
    );
  }
  return node;
}

function selectedFields(requested: readonly string[] | undefined): Set<string> {
  if (!requested || requested.length === 0) return new Set(ALL_FIELDS);
  return new Set(requested.map((f) => (f === "noconflict" ? "no_conflict" : f)));
}

/**
 * Renders a schema query result. `predicates`/`types` are everything in force (pre-defined `dgraph.*`
 * ones included, which `schema {}` lists); `indexSpecs` optionally gives vector-index options per
 * predicate.
 */
export function renderSchema(
  predicates: readonly PredicateSchema[],
  types: readonly TypeSchema[],
  request: SchemaRequest = {},
  indexSpecs?: ReadonlyMap<string, readonly IndexSpec[]>,
): SchemaResult {
  const wantPredicates = request.predicates !== undefined || request.types === undefined;
  const wantTypes = request.types !== undefined || request.predicates === undefined;
  const result: SchemaResult = {};

  if (wantPredicates) {
    const only = request.predicates ? new Set(request.predicates) : undefined;
    const fields = selectedFields(request.fields);
    const nodes = predicates
      .filter((p) => !only || only.has(p.predicate))
      .sort((a, b) => compareUtf8(a.predicate, b.predicate))
      .map((p) => schemaNode(p, fields, indexSpecs?.get(p.predicate)));
    if (nodes.length > 0) result.schema = nodes;
  }
  if (wantTypes) {
    const only = request.types ? new Set(request.types) : undefined;
    const nodes = types
      .filter((t) => !only || only.has(t.name))
      .sort((a, b) => compareUtf8(a.name, b.name))
      .map((t) => ({ fields: t.fields.map((name) => ({ name })), name: t.name }));
    if (nodes.length > 0) result.types = nodes;
  }
  return result;
}
