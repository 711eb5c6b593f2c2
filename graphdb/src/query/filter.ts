/**
 * `@filter(...)`: keeps the candidate uids that pass a boolean tree of functions. Comparisons and
 * regexp scan the candidates' values (no index needed); term/fulltext functions use their index;
 * `and` narrows the candidates operand by operand, `or` unions, `not` subtracts.
 *
 * Every function is a test of one candidate at a time, so a candidate list is filtered in chunks
 * (evalFilterInSteps), with a pause between chunks when the query's time slice is used.
 */
import type { UidList } from "../core/graph-reader.ts";
import type { FilterTree, FunctionCall } from "../dql/ast.ts";
import {
  difference,
  filterUids,
  intersect,
  intersectAll,
  intersects,
  unionAll,
} from "../posting/uid-algebra.ts";
import {
  type ExecContext,
  FIRST_TEST_CHUNK,
  keepInSteps,
  readValues,
  readValuesInSteps,
  type Steps,
} from "./exec-context.ts";
import { type CompareOp, type PreparedFunction, pickTokenizer, prepareFunction } from "./function-context.ts";
import { selectValues, valuesForFunction } from "./lang-select.ts";
import { geoTest, valueVarMatches } from "./root-functions.ts";
import { compareVals } from "./value-compare.ts";
import { compareMatches, fuzzyMatches, regexMatches, textMatches } from "./value-match.ts";
import type { VarScope } from "./var-store.ts";

type Prepared<K extends PreparedFunction["kind"]> = Extract<PreparedFunction, { kind: K }>;

/** Functions prepared once for every chunk of one filtering (compiled regexps, variables' uids...). */
type PreparedFunctions = Map<FunctionCall, PreparedFunction>;

/** The candidates (sorted) that pass the filter tree. */
export function evalFilter(
  ctx: ExecContext,
  tree: FilterTree,
  candidates: UidList,
  scope: VarScope,
  prepared?: PreparedFunctions,
): UidList {
  if (candidates.length === 0) return candidates;
  switch (tree.kind) {
    case "FilterFunction":
      return evalFilterFunction(ctx, tree.func, candidates, scope, prepared);
    case "FilterAnd": {
      let acc = candidates;
      for (const op of tree.operands) {
        acc = evalFilter(ctx, op, acc, scope, prepared);
        if (acc.length === 0) break;
      }
      return acc;
    }
    case "FilterOr": {
      const parts: UidList[] = [];
      let rest = candidates;
      for (const op of tree.operands) {
        const hit = evalFilter(ctx, op, rest, scope, prepared);
        if (hit.length === 0) continue;
        parts.push(hit);
        rest = difference(rest, hit);
        if (rest.length === 0) break;
      }
      return unionAll(parts);
    }
    case "FilterNot":
      return difference(candidates, evalFilter(ctx, tree.operand, candidates, scope, prepared));
  }
}

/**
 * evalFilter over a candidate list, a chunk at a time (keepInSteps), pausing between chunks. The values
 * the first function tests (it tests every candidate) are read for all of them first, in steps too:
 * each chunk then finds them in the query's value memo, and so do the selections reading the same
 * predicate afterwards, as they did when the filter ran in one piece.
 */
export function* evalFilterInSteps(
  ctx: ExecContext,
  tree: FilterTree,
  candidates: UidList,
  scope: VarScope,
): Steps<UidList> {
  if (candidates.length > FIRST_TEST_CHUNK) {
    const pred = leadingValuePredicate(ctx, tree);
    if (pred !== undefined) yield* readValuesInSteps(ctx, pred, candidates);
  }
  const prepared: PreparedFunctions = new Map();
  return yield* keepInSteps(ctx, candidates, (chunk) => evalFilter(ctx, tree, chunk, scope, prepared));
}

const INDEX_LOOKUPS = new Set(["allofterms", "anyofterms", "alloftext", "anyoftext"]);

/** The scalar predicate the filter's first function reads (for every candidate), if any. */
function leadingValuePredicate(ctx: ExecContext, tree: FilterTree): string | undefined {
  switch (tree.kind) {
    case "FilterFunction": {
      const a = tree.func.attr;
      // Term and full-text functions look candidates up in their index, not in their values.
      if (a?.kind !== "PredicateAttr" || a.reverse || INDEX_LOOKUPS.has(tree.func.name)) return undefined;
      const type = ctx.reader.schema.predicate(a.predicate)?.type;
      return type === undefined || type === "uid" || type === "password" ? undefined : a.predicate;
    }
    case "FilterNot":
      return leadingValuePredicate(ctx, tree.operand);
    default:
      return leadingValuePredicate(ctx, tree.operands[0]);
  }
}

function evalFilterFunction(
  ctx: ExecContext,
  fn: FunctionCall,
  candidates: UidList,
  scope: VarScope,
  prepared: PreparedFunctions | undefined,
): UidList {
  let p = prepared?.get(fn);
  if (p === undefined) {
    p = prepareFunction(ctx, fn, false, scope);
    prepared?.set(fn, p);
  }
  const budget = ctx.budget;
  switch (p.kind) {
    case "none":
      return candidates.subarray(0, 0);
    case "uid":
      return intersect(candidates, p.uids);
    case "compare":
      return filterCompare(ctx, p, candidates);
    case "countCompare":
      return filterCount(ctx, p, candidates);
    case "valueVar":
      return valueVarMatches(p, candidates);
    case "has":
      return filterHas(ctx, p, candidates);
    case "text":
      return filterText(ctx, p, candidates);
    case "regexp": {
      const rows = readValues(ctx, p.attr, candidates);
      const lang = p.lang === "." ? "" : p.lang;
      const re = p.regex;
      return filterUids(candidates, (_u, i) => {
        for (const v of valuesForFunction(rows[i], lang, p.schema.list))
          if (regexMatches(re, v.value, budget)) return true;
        return false;
      });
    }
    case "match": {
      const rows = readValues(ctx, p.attr, candidates);
      const lang = p.lang === "." ? "" : p.lang;
      const { text, max } = p;
      return filterUids(candidates, (_u, i) => {
        for (const v of valuesForFunction(rows[i], lang, p.schema.list))
          if (fuzzyMatches(text, v.value, max, budget)) return true;
        return false;
      });
    }
    case "uidIn": {
      const reader = ctx.reader;
      if (p.reverse) return filterUids(candidates, (uid) => intersects(reader.reverse(p.attr, uid), p.uids));
      const rows = reader.uidsMany(p.attr, candidates);
      return filterUids(candidates, (_u, i) => intersects(rows[i], p.uids));
    }
    case "geo":
      return filterGeo(ctx, p, candidates);
  }
}

/** near/within/contains/intersects: the exact geometric test over the candidates' values. */
function filterGeo(ctx: ExecContext, p: Prepared<"geo">, candidates: UidList): UidList {
  const rows = readValues(ctx, p.attr, candidates);
  const test = geoTest(ctx, p);
  return filterUids(candidates, (_u, i) => {
    for (const v of valuesForFunction(rows[i], "", p.schema.list)) if (test(v.value)) return true;
    return false;
  });
}

/** eq/le/lt/ge/gt/between over the candidates' values (the value posting path of Dgraph's worker). */
function filterCompare(ctx: ExecContext, p: Prepared<"compare">, candidates: UidList): UidList {
  if (p.schema.tokenizers.length > 0) pickTokenizer(p.schema, p.op);
  const rows = readValues(ctx, p.attr, candidates);
  const type = p.schema.type;
  const budget = ctx.budget;
  return filterUids(candidates, (_u, i) => {
    budget.tick();
    return compareMatches(p.op, selectValues(rows[i], p.langs, p.schema.list), type, p.args, compareVals);
  });
}

function countPasses(op: CompareOp, n: number, t: number[]): boolean {
  switch (op) {
    case "eq":
      return n === t[0];
    case "le":
      return n <= t[0];
    case "lt":
      return n < t[0];
    case "ge":
      return n >= t[0];
    case "gt":
      return n > t[0];
    case "between":
      return n >= t[0] && n <= t[1];
  }
}

function filterCount(ctx: ExecContext, p: Prepared<"countCompare">, candidates: UidList): UidList {
  const reader = ctx.reader;
  if (p.reverse) {
    return filterUids(candidates, (uid) =>
      countPasses(p.op, reader.reverse(p.attr, uid).length, p.thresholds),
    );
  }
  const rows: { length: number }[] =
    p.schema.type === "uid" ? reader.uidsMany(p.attr, candidates) : readValues(ctx, p.attr, candidates);
  return filterUids(candidates, (_u, i) => countPasses(p.op, rows[i].length, p.thresholds));
}

function filterHas(ctx: ExecContext, p: Prepared<"has">, candidates: UidList): UidList {
  const reader = ctx.reader;
  if (p.reverse) return filterUids(candidates, (uid) => reader.reverse(p.attr, uid).length > 0);
  if (p.schema.type === "uid") {
    const rows = reader.uidsMany(p.attr, candidates);
    return filterUids(candidates, (_u, i) => rows[i].length > 0);
  }
  const rows = readValues(ctx, p.attr, candidates);
  const stringFiltering = p.schema.type === "string" && p.schema.lang && p.lang !== ".";
  return filterUids(candidates, (_u, i) =>
    stringFiltering ? valuesForFunction(rows[i], p.lang, p.schema.list).length > 0 : rows[i].length > 0,
  );
}

function filterText(ctx: ExecContext, p: Prepared<"text">, candidates: UidList): UidList {
  const rows = p.tokens.map((t) => intersect(ctx.reader.index(p.attr, t), candidates));
  let out = p.all ? intersectAll(rows) : unionAll(rows);
  if (p.schema.type === "string" && p.schema.lang && p.lang !== "." && out.length > 0) {
    const vals = readValues(ctx, p.attr, out);
    out = filterUids(out, (_u, i) => {
      for (const v of valuesForFunction(vals[i], p.lang, p.schema.list))
        if (textMatches(p, v.value)) return true;
      return false;
    });
  }
  return out;
}
