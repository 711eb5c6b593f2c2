/**
 * The execution tree (Dgraph's `SubGraph`): one node per query block and per selection, holding the
 * request (copied from the AST, with Dgraph's inheritance rules applied) and, after execution, the
 * results of its level: source uids, one uid row or value row per source uid, and the destination uids
 * that feed the next level.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import type { UidList, ValuePosting } from "../core/graph-reader.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import type {
  AggregateFunctionName,
  ExpandTarget,
  FacetsDirective,
  FilterTree,
  FunctionCall,
  GroupByKey,
  MathExpr,
  OrderKey,
  QueryBlock,
  RecurseDirective,
  Selection,
  SelectionContainer,
} from "../dql/ast.ts";
import { EMPTY_UID_LIST } from "../posting/uid-algebra.ts";

/** Facets of the edges of one level: parent uid → child uid → facets. */
export type EdgeFacets = Map<number, Map<number, Facet[]>>;

/** One grouping key or aggregate of a `@groupby` group. */
export interface GroupPair {
  attr: string;
  key: TypedValue;
}

export interface GroupResult {
  keys: GroupPair[];
  aggregates: GroupPair[];
  uids: UidList;
}

/** A scalar field, or a group of nested flat objects under one key. */
export type Entry =
  | { key: string; json: string; objects?: undefined }
  | { key: string; json?: undefined; objects: Entry[][] };

export type SubGraphKind =
  /** A query block. */
  | "root"
  /** A predicate: uid edges or scalar values, decided by the schema at execution. */
  | "predicate"
  /** `uid`. */
  | "uid"
  /** `count(pred)` / `count(~pred)`. */
  | "count"
  /** `count(uid)`: a separate `{"count": n}` element at its level. */
  | "countUid"
  /** `val(x)`. */
  | "valueVar"
  /** `min/max/sum/avg(val(x))`. */
  | "aggregate"
  /** `math(...)`. */
  | "math"
  /** `checkpwd(pred, "secret")`. */
  | "checkpwd"
  /** `expand(...)`: replaced by one predicate child per expanded predicate at execution. */
  | "expand";

/** Marker for `@cascade` without arguments (every child is mandatory). */
export const CASCADE_ALL = "__all__";

export class SubGraph {
  // ---- request ----
  attr = "";
  reverse = false;
  alias: string | undefined = undefined;
  langs: readonly string[] = [];
  asVar: string | undefined = undefined;
  first: number | undefined = undefined;
  offset: number | undefined = undefined;
  after: number | undefined = undefined;
  order: readonly OrderKey[] = [];
  filter: FilterTree | undefined = undefined;
  /** Cascade fields (CASCADE_ALL for plain `@cascade`); empty = no cascade. */
  cascade: readonly string[] = [];
  /** Pagination deferred until after `@cascade`. */
  cascadeFirst = 0;
  cascadeOffset = 0;
  normalize = false;
  ignoreReflex = false;
  /** Debug mode: every non-empty node gets its uid. */
  debug = false;
  /** Nodes whose selection yields nothing are written as `{}` instead of dropped (QueryOptions). */
  keepEmptyNodes = false;
  /** `@facets(...)`: facets to output (and facet variables, facet order). */
  facets: FacetsDirective | undefined = undefined;
  /** `@facets(eq(k, v))`: only edges/values whose facets pass. */
  facetsFilter: FilterTree | undefined = undefined;
  children: SubGraph[] = [];
  expandTarget: ExpandTarget | undefined = undefined;
  /** Expanded predicate: every language of a value is output (`pred@lang` keys). */
  expandAll = false;
  /** `count(pred @filter(...))`. */
  countFilter: FilterTree | undefined = undefined;
  /** Variable read by `val(x)` / aggregations. */
  varName = "";
  aggFn: AggregateFunctionName | undefined = undefined;
  math: MathExpr | undefined = undefined;
  password = "";
  /** Root function of a block (undefined for empty blocks). */
  func: FunctionCall | undefined = undefined;
  /** Block without a root function (`total() { sum(val(x)) }`): one virtual node of aggregations. */
  isEmptyBlock = false;
  isVarBlock = false;
  /** `@groupby(...)` keys of a block or edge. */
  groupBy: readonly GroupByKey[] | undefined = undefined;
  /** A grouping predicate added for @groupby: fetched, never output. */
  ignoreResult = false;
  /** `@recurse(depth, loop)` of a block. */
  recurse: RecurseDirective | undefined = undefined;
  /** The AST container this node came from (nested selection of expand, recurse...). */
  source: SelectionContainer | undefined = undefined;

  // ---- results ----
  /** Source uids: the parent's destination uids (sorted). */
  src: UidList = EMPTY_UID_LIST;
  /** Per source uid: the uid edges kept (possibly sorted by value). Root: one row, the block result. */
  rows: UidList[] = [];
  /** Sorted union of the rows: the next level's source. */
  dest: UidList = EMPTY_UID_LIST;
  /** Per source uid: the values seen (language rules applied). */
  values: ValuePosting[][] = [];
  /** Per source uid: edge/value counts (count(pred)). */
  counts: Int32Array | undefined = undefined;
  /** checkpwd per source uid: 0 no password stored, 1 mismatch, 2 match. */
  checks: Uint8Array | undefined = undefined;
  /** Per uid values of internal nodes (val, aggregations, math). Root aggregates of empty blocks: key 0. */
  uidToVal: Map<number, TypedValue> | undefined = undefined;
  /** Uid edges are output as a list (schema `[uid]` or a reverse edge). */
  list = false;
  /** The predicate holds uid edges (schema type uid). */
  isUidPredicate = false;
  /** @groupby results, one list of groups per row. */
  groupResults: GroupResult[][] | undefined = undefined;
  /** Facets of the level's edges when requested (parent uid → child uid → facets). */
  edgeFacets: EdgeFacets | undefined = undefined;
  /** Schema type of the predicate, once known. */
  schemaType: ScalarType | undefined = undefined;
  /** Encoder cache: the JSON key of this field (`"name@en"`), computed on first use. */
  jsonKey: string | undefined = undefined;
  /** Encoder cache: whether a `count(uid)` child writes elements at this level. */
  countUidOutput: boolean | undefined = undefined;
  /** Encoder cache: whether some node of this level is reached from more than one parent. */
  private repeats: boolean | undefined = undefined;
  /** Encoder cache: the text of each node of this level, when nodes repeat (json-encoder.ts). */
  encodedNodes: Map<number, string> | undefined = undefined;
  /** Encoder cache: the @normalize entries of each node of this level, when nodes repeat (normalize.ts). */
  collectedNodes: Map<number, readonly Entry[]> | undefined = undefined;

  constructor(
    readonly kind: SubGraphKind,
    /** Output key of a block (its name); unused for selections. */
    readonly blockName = "",
  ) {}

  /** Output key: alias, else the attribute (with `~` for reverse edges). */
  fieldName(): string {
    if (this.alias !== undefined) return this.alias;
    return this.reverse ? `~${this.attr}` : this.attr;
  }

  /**
   * Whether some node of this level is the target of more than one row (reached from several parents):
   * the encoders then write it more than once, and remember what they wrote (json-encoder.ts).
   */
  nodesRepeat(): boolean {
    if (this.repeats === undefined) {
      let total = 0;
      for (const row of this.rows) total += row.length;
      this.repeats = total > this.dest.length;
    }
    return this.repeats;
  }

  /** val, aggregations of variables, math and count(uid): computed from variables, not fetched. */
  isInternal(): boolean {
    const k = this.kind;
    return k === "valueVar" || (k === "aggregate" && this.varName !== "") || k === "math" || k === "countUid";
  }
}

/** Builds the tree of one query block. */
export function blockToSubGraph(block: QueryBlock, debug: boolean, keepEmptyNodes = false): SubGraph {
  if (block.shortest !== undefined) throw new DgraphError("shortest path queries are not supported yet");
  const sg = new SubGraph("root", block.name);
  sg.isVarBlock = block.isVar;
  sg.func = block.func;
  sg.isEmptyBlock = block.func === undefined;
  sg.asVar = block.asVar;
  sg.debug = debug;
  sg.keepEmptyNodes = keepEmptyNodes;
  copyContainer(sg, block);
  sg.cascade = block.directives.cascade ? cascadeFields(block.directives.cascade.fields) : [];
  sg.normalize = block.directives.normalize;
  sg.ignoreReflex = block.directives.ignoreReflex;
  sg.recurse = block.directives.recurse;
  deferCascadePagination(sg);
  copyChildren(sg, block.selections);
  return sg;
}

function cascadeFields(fields: readonly string[]): readonly string[] {
  return fields.length === 0 ? [CASCADE_ALL] : fields;
}

function copyContainer(sg: SubGraph, c: SelectionContainer): void {
  sg.first = c.first;
  sg.offset = c.offset;
  sg.after = c.after;
  sg.order = c.order;
  sg.filter = c.filter;
  sg.source = c;
  sg.groupBy = c.directives.groupBy;
  sg.facets = c.directives.facets;
  sg.facetsFilter = c.directives.facetsFilter;
  if (c.order.length > 0 && (c.directives.facets?.orders.length ?? 0) > 0) {
    throw new DgraphError("Cannot specify order at both args and facets");
  }
  if (c.order.length > 1 && c.order.some((o) => o.kind === "OrderByValueVar")) {
    throw new DgraphError("Multiple sorting only allowed by predicates.");
  }
}

/** With `@cascade`, `first`/`offset` apply after the cascade has removed nodes. */
function deferCascadePagination(sg: SubGraph): void {
  if (sg.cascade.length === 0) return;
  sg.cascadeFirst = sg.first ?? 0;
  sg.cascadeOffset = sg.offset ?? 0;
  sg.first = undefined;
  sg.offset = undefined;
}

/** Dgraph's treeCopy: children inherit debug (and keepEmptyNodes), @normalize, @ignorereflex and cascade fields. */
export function copyChildren(parent: SubGraph, selections: readonly Selection[]): void {
  const seen = new Set<string>();
  for (const sel of selections) {
    const child = selectionToSubGraph(sel);
    const key = sel.alias ?? uniqueKey(sel);
    if (seen.has(key)) throw new DgraphError(`${key} not allowed multiple times in same sub-query.`);
    seen.add(key);
    child.debug = parent.debug;
    child.keepEmptyNodes = parent.keepEmptyNodes;
    child.ignoreReflex = parent.ignoreReflex;
    child.normalize = child.normalize || parent.normalize;
    const own =
      sel.kind === "PredicateField" || sel.kind === "ExpandField" ? sel.directives.cascade : undefined;
    child.cascade = own !== undefined ? cascadeFields(own.fields) : parent.cascade;
    deferCascadePagination(child);
    parent.children.push(child);
    if (sel.kind === "PredicateField" || sel.kind === "ExpandField") copyChildren(child, sel.selections);
  }
}

function selectionToSubGraph(sel: Selection): SubGraph {
  switch (sel.kind) {
    case "PredicateField": {
      const sg = new SubGraph("predicate");
      sg.attr = sel.predicate;
      sg.reverse = sel.reverse;
      sg.langs = sel.langs;
      copyCommon(sg, sel.alias, sel.asVar);
      copyContainer(sg, sel);
      sg.normalize = sel.directives.normalize;
      return sg;
    }
    case "UidField": {
      const sg = new SubGraph("uid");
      sg.attr = "uid";
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
    case "CountField": {
      const sg = new SubGraph(sel.isUid ? "countUid" : "count");
      sg.attr = sel.isUid ? "uid" : sel.predicate;
      sg.reverse = sel.reverse;
      sg.langs = sel.langs;
      sg.countFilter = sel.filter;
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
    case "ValueVarField": {
      const sg = new SubGraph("valueVar");
      sg.attr = "val";
      sg.varName = sel.varName;
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
    case "AggregateField": {
      const sg = new SubGraph("aggregate");
      sg.aggFn = sel.fn;
      if (sel.target.kind === "ValueVar") {
        sg.attr = "val";
        sg.varName = sel.target.varName;
      } else {
        // min(pred): aggregates a predicate's values over @groupby groups.
        sg.attr = sel.target.predicate;
      }
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
    case "MathField": {
      const sg = new SubGraph("math");
      sg.attr = "val";
      sg.math = sel.expr;
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
    case "ExpandField": {
      const sg = new SubGraph("expand");
      sg.attr = "expand";
      sg.expandTarget = sel.target;
      copyCommon(sg, sel.alias, sel.asVar);
      copyContainer(sg, sel);
      return sg;
    }
    case "CheckPwdField": {
      const sg = new SubGraph("checkpwd");
      sg.attr = sel.predicate;
      sg.password = sel.password;
      copyCommon(sg, sel.alias, sel.asVar);
      return sg;
    }
  }
}

function copyCommon(sg: SubGraph, alias: string | undefined, asVar: string | undefined): void {
  sg.alias = alias;
  sg.asVar = asVar;
}

/** Dgraph's uniqueKey: what makes two unaliased selections the same. */
function uniqueKey(sel: Selection): string {
  switch (sel.kind) {
    case "PredicateField":
      return (
        (sel.reverse ? "~" : "") + sel.predicate + (sel.langs.length > 0 ? `[${sel.langs.join(" ")}]` : "")
      );
    case "UidField":
      return "uid";
    case "CountField":
      return `${sel.isUid ? "uid" : (sel.reverse ? "~" : "") + sel.predicate}count`;
    case "ValueVarField":
      return `val(${sel.varName})`;
    case "AggregateField":
      return sel.target.kind === "ValueVar"
        ? `val(${sel.target.varName})${sel.fn}`
        : `${sel.fn}(${sel.target.predicate})`;
    case "MathField":
      return `val(${sel.asVar ?? ""})`;
    case "ExpandField":
      return `expand(${sel.target.kind === "ExpandTypes" ? sel.target.types.join(",") : sel.target.kind})`;
    case "CheckPwdField":
      return `checkpwd(${sel.predicate})`;
  }
}

/** A fresh copy of a selection's request (no results), children included (@recurse levels). */
export function cloneRequest(src: SubGraph): SubGraph {
  const sg = new SubGraph(src.kind, src.blockName);
  sg.attr = src.attr;
  sg.reverse = src.reverse;
  sg.alias = src.alias;
  sg.langs = src.langs;
  sg.asVar = src.asVar;
  sg.first = src.first;
  sg.offset = src.offset;
  sg.after = src.after;
  sg.order = src.order;
  sg.filter = src.filter;
  sg.cascade = src.cascade;
  sg.cascadeFirst = src.cascadeFirst;
  sg.cascadeOffset = src.cascadeOffset;
  sg.normalize = src.normalize;
  sg.ignoreReflex = src.ignoreReflex;
  sg.debug = src.debug;
  sg.keepEmptyNodes = src.keepEmptyNodes;
  sg.facets = src.facets;
  sg.facetsFilter = src.facetsFilter;
  sg.expandTarget = src.expandTarget;
  sg.expandAll = src.expandAll;
  sg.countFilter = src.countFilter;
  sg.varName = src.varName;
  sg.aggFn = src.aggFn;
  sg.math = src.math;
  sg.password = src.password;
  sg.source = src.source;
  sg.groupBy = src.groupBy;
  sg.ignoreResult = src.ignoreResult;
  sg.children = src.children.map(cloneRequest);
  return sg;
}
