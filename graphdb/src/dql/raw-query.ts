/**
 * The intermediate tree built while parsing a block, shaped like Dgraph's `GraphQuery` so that its
 * parsing rules (which node accepts directives, arguments, children) carry over unchanged. Converted to
 * the public AST once fragments are expanded.
 */
import { goParseFloat, goParseInt, goParseUint, numErrorText } from "../types/strconv.ts";
import type {
  AggregateFunctionName,
  CountField,
  Directives,
  ExpandTarget,
  FacetsDirective,
  FilterTree,
  FunctionCall,
  GroupByKey,
  MathExpr,
  OrderKey,
  PredicateField,
  QueryBlock,
  RecurseDirective,
  Selection,
  SelectionContainer,
  ShortestPathArgs,
  SourceLocation,
  UidSet,
} from "./ast.ts";
import { plainError } from "./token-stream.ts";
import { collectVariables } from "./variable-usage.ts";

export type RawNodeKind =
  | "block"
  | "predicate"
  | "count"
  | "countUid"
  | "valueVar"
  | "aggregate"
  | "math"
  | "expand"
  | "checkpwd"
  | "fragment";

/** A raw argument value (`first: 10`); `fromVariable` when it was a `$variable`. */
export interface RawArg {
  value: string;
  fromVariable: boolean;
}

export interface RawNode {
  kind: RawNodeKind;
  /** Predicate (or keyword) as written: `name`, `~friend`, `count`, `expand`... */
  attr: string;
  alias?: string;
  asVar?: string;
  langs?: string[];
  /** Dgraph's IsInternal: aggregates, math, val(), count(uid), expand. No directives except on expand. */
  internal: boolean;
  /** A node created inside `count(...)`: it cannot have children. */
  isCount: boolean;
  /** A root block without function: only aggregations and math allowed inside. */
  isEmpty: boolean;
  isGroupby: boolean;
  args?: Record<string, RawArg>;
  order: OrderKey[];
  filter?: FilterTree;
  cascade?: string[];
  normalize: boolean;
  recurse?: RecurseDirective;
  groupBy?: GroupByKey[];
  facets?: FacetsDirective;
  facetsFilter?: FilterTree;
  ignoreReflex: boolean;
  children: RawNode[];
  loc: SourceLocation;
  /** val(x), min(val(x)), expand(val(x)). */
  varName?: string;
  aggregate?: AggregateFunctionName;
  math?: { expr: MathExpr; text: string };
  expand?: ExpandTarget;
  password?: string;
  /** Root blocks only. */
  func?: FunctionCall;
  from?: UidSet;
  to?: UidSet;
}

export function newRawNode(kind: RawNodeKind, attr: string, loc: SourceLocation): RawNode {
  return {
    kind,
    attr,
    internal: false,
    isCount: false,
    isEmpty: false,
    isGroupby: false,
    order: [],
    normalize: false,
    ignoreReflex: false,
    children: [],
    loc,
  };
}

/**
 * How numeric arguments are parsed, as in Dgraph: `strconv.ParseInt(v, 0, 32)`, `ParseUint(v, 0, 64)`,
 * `ParseFloat(v, 64)`.
 */
const NUMBER_ARG = {
  ParseInt: (v: string) => goParseInt(v, 0, 32),
  ParseUint: (v: string) => goParseUint(v),
  ParseFloat: goParseFloat,
} as const;

/** A numeric argument's value; undefined when absent or an empty variable. */
function numberArg(raw: RawNode, key: string, fn: keyof typeof NUMBER_ARG): number | undefined {
  const arg = raw.args?.[key];
  if (arg === undefined || (arg.fromVariable && arg.value === "")) return undefined;
  const v = NUMBER_ARG[fn](arg.value);
  if (typeof v === "string") throw plainError(numErrorText(fn, arg.value, v, "json"));
  return Number(v);
}

function directivesOf(raw: RawNode): Directives {
  const d: {
    -readonly [K in keyof Directives]: Directives[K];
  } = { normalize: raw.normalize, ignoreReflex: raw.ignoreReflex };
  if (raw.cascade !== undefined) {
    d.cascade = { fields: raw.cascade.includes("__all__") ? [] : raw.cascade };
  }
  if (raw.recurse !== undefined) d.recurse = raw.recurse;
  if (raw.groupBy !== undefined) d.groupBy = raw.groupBy;
  if (raw.facets !== undefined) d.facets = raw.facets;
  if (raw.facetsFilter !== undefined) d.facetsFilter = raw.facetsFilter;
  return d;
}

/** The pagination, ordering, filter, directives and children of a block or edge. */
function containerOf(raw: RawNode): SelectionContainer {
  const c: { -readonly [K in keyof SelectionContainer]: SelectionContainer[K] } = {
    order: raw.order,
    directives: directivesOf(raw),
    selections: toSelections(raw.children),
  };
  const first = numberArg(raw, "first", "ParseInt");
  if (first !== undefined) c.first = first;
  const offset = numberArg(raw, "offset", "ParseInt");
  if (offset !== undefined) c.offset = offset;
  const after = numberArg(raw, "after", "ParseUint");
  if (after !== undefined) c.after = after;
  if (raw.filter !== undefined) c.filter = raw.filter;
  return c;
}

function splitReverse(attr: string): { predicate: string; reverse: boolean } {
  return attr.startsWith("~")
    ? { predicate: attr.slice(1), reverse: true }
    : { predicate: attr, reverse: false };
}

function toSelections(children: RawNode[]): Selection[] {
  const out: Selection[] = [];
  for (const child of children) {
    const s = toSelection(child);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/** Copies alias / asVar (only when present, so that absent keys stay absent). */
function withNames<T extends Selection>(raw: RawNode, node: T): T {
  const n = node as { alias?: string; asVar?: string };
  if (raw.alias !== undefined) n.alias = raw.alias;
  if (raw.asVar !== undefined) n.asVar = raw.asVar;
  return node;
}

function toSelection(raw: RawNode): Selection | undefined {
  const loc = raw.loc;
  switch (raw.kind) {
    case "predicate": {
      if (raw.attr === "uid") return withNames(raw, { kind: "UidField", loc });
      const { predicate, reverse } = splitReverse(raw.attr);
      const field: PredicateField = {
        kind: "PredicateField",
        loc,
        predicate,
        reverse,
        langs: raw.langs ?? [],
        ...containerOf(raw),
      };
      return withNames(raw, field);
    }
    case "count": {
      const { predicate, reverse } = splitReverse(raw.attr);
      const field: { -readonly [K in keyof CountField]: CountField[K] } = {
        kind: "CountField",
        loc,
        isUid: false,
        predicate,
        reverse,
        langs: raw.langs ?? [],
      };
      if (raw.filter !== undefined) field.filter = raw.filter;
      return withNames(raw, field);
    }
    case "countUid":
      return withNames(raw, {
        kind: "CountField",
        loc,
        isUid: true,
        predicate: "uid",
        reverse: false,
        langs: [],
      });
    case "valueVar":
      return withNames(raw, { kind: "ValueVarField", loc, varName: raw.varName ?? "" });
    case "aggregate":
      return withNames(raw, {
        kind: "AggregateField",
        loc,
        fn: raw.aggregate ?? "min",
        target:
          raw.varName !== undefined
            ? { kind: "ValueVar", varName: raw.varName }
            : { kind: "Predicate", predicate: raw.attr },
      });
    case "math":
      return withNames(raw, {
        kind: "MathField",
        loc,
        expr: raw.math?.expr ?? { kind: "MathNumber", value: 0, text: "0", isInt: true },
        text: raw.math?.text ?? "",
      });
    case "expand": {
      return { kind: "ExpandField", loc, target: raw.expand ?? { kind: "ExpandAll" }, ...containerOf(raw) };
    }
    case "checkpwd":
      return withNames(raw, {
        kind: "CheckPwdField",
        loc,
        predicate: raw.attr,
        password: raw.password ?? "",
      });
    case "block":
    case "fragment":
      return undefined;
  }
}

function shortestOf(raw: RawNode): ShortestPathArgs {
  if (raw.from === undefined || raw.to === undefined)
    throw plainError("from/to can't be nil for shortest path");
  const s: { -readonly [K in keyof ShortestPathArgs]: ShortestPathArgs[K] } = { from: raw.from, to: raw.to };
  const numPaths = numberArg(raw, "numpaths", "ParseUint");
  if (numPaths !== undefined) s.numPaths = numPaths;
  const depth = numberArg(raw, "depth", "ParseUint");
  if (depth !== undefined) s.depth = depth;
  const minWeight = numberArg(raw, "minweight", "ParseFloat");
  if (minWeight !== undefined) s.minWeight = minWeight;
  const maxWeight = numberArg(raw, "maxweight", "ParseFloat");
  if (maxWeight !== undefined) s.maxWeight = maxWeight;
  return s;
}

/** Builds the public block (fragments must already be expanded). */
export function toQueryBlock(raw: RawNode): QueryBlock {
  const name = raw.attr;
  const container = containerOf(raw);
  const partial: {
    -readonly [K in keyof QueryBlock]: QueryBlock[K];
  } = {
    kind: "QueryBlock",
    name,
    isVar: name === "var",
    ...container,
    defines: [],
    needs: [],
    loc: raw.loc,
  };
  if (raw.asVar !== undefined) partial.asVar = raw.asVar;
  if (raw.func !== undefined) {
    if (raw.func.name === "uid_in") throw plainError("uid_in function not allowed at root");
    partial.func = raw.func;
  }
  if (name === "shortest") partial.shortest = shortestOf(raw);
  const vars = collectVariables(partial);
  partial.defines = vars.defines;
  partial.needs = vars.needs;
  return partial;
}
