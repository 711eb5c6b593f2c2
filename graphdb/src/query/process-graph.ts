/**
 * Level-by-level execution of a block (Dgraph's ProcessGraph): the root function gives the block's uids;
 * each child selection then reads its predicate for all of its parent's uids at once (one batch call
 * per level), applies its filter, order and pagination per parent row, and hands its destination uids
 * to its own children.
 *
 * Levels are Steps: between selections, and between chunks of a long batch read or filter, a query whose
 * time slice is used pauses so that other requests run (see query-budget.ts).
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList, ValuePosting } from "../core/graph-reader.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { FilterTree } from "../dql/ast.ts";
import { EMPTY_UID_LIST, filterUids, intersect, sortedUids, unionAll } from "../posting/uid-algebra.ts";
import { checkPassword, checkPasswordAsync } from "../types/password.ts";
import {
  addMetric,
  CHUNK,
  checkDeadline,
  type ExecContext,
  FIRST_TEST_CHUNK,
  readValues,
  readValuesInSteps,
  type Steps,
  uidsInSteps,
} from "./exec-context.ts";
import { expandChildren } from "./expand.ts";
import { facetsPass, loadEdgeFacets, orderRowsByFacet } from "./facets.ts";
import { evalFilter, evalFilterInSteps } from "./filter.ts";
import { isAllLangs, selectValues } from "./lang-select.ts";
import { afterUid, orderRootByIndex, orderRows, paginate } from "./ordering.ts";
import {
  evalPreparedRoot,
  evalRootInSteps,
  foldRootRange,
  lazyHasCandidates,
  prepareRootFunction,
} from "./root-functions.ts";
import { SubGraph } from "./subgraph.ts";
import { EMPTY_SCOPE, type VarScope } from "./var-store.ts";
import { scopeWithOwnVar } from "./variables.ts";

const ALL_LANGS: readonly string[] = ["*"];
const NO_VALUES: ValuePosting[] = [];

/** Counts the candidates each filter function looked at (Dgraph's per-filter metrics). */
function filterMetrics(ctx: ExecContext, tree: FilterTree, n: number): void {
  switch (tree.kind) {
    case "FilterFunction": {
      const a = tree.func.attr;
      if (a !== undefined && a.kind === "PredicateAttr") addMetric(ctx, a.predicate, n);
      else if (a !== undefined && a.kind === "CountAttr") addMetric(ctx, a.predicate, n);
      return;
    }
    case "FilterNot":
      filterMetrics(ctx, tree.operand, n);
      return;
    default:
      for (const op of tree.operands) filterMetrics(ctx, op, n);
  }
}

function valueVarLookup(ctx: ExecContext) {
  return (name: string) => ctx.vars.get(name)?.vals;
}

/** Sorted set of the uids present in (possibly value-ordered) rows. */
function rowsUnion(rows: UidList[], ordered: boolean): UidList {
  if (!ordered) return unionAll(rows);
  let total = 0;
  for (const r of rows) total += r.length;
  const all = new Float64Array(total);
  let at = 0;
  for (const r of rows) {
    all.set(r, at);
    at += r.length;
  }
  return sortedUids(all);
}

/** Runs a query block (its root and every level below). */
export function* processBlock(ctx: ExecContext, sg: SubGraph): Steps {
  checkDeadline(ctx);
  if (sg.isEmptyBlock) return;
  yield* processRoot(ctx, sg);
  yield* processChildren(ctx, sg, EMPTY_SCOPE);
}

/** The block's own level: root function, filter, order and pagination. */
export function* processRoot(ctx: ExecContext, sg: SubGraph): Steps {
  const fn = prepareRootFunction(ctx, sg.func!);
  if (fn.kind === "has" && sg.order.length > 0 && sg.filter === undefined && sg.after === undefined) {
    // has(p) ordered by an indexed predicate, paginated: walk the index, testing membership as it goes.
    const candidates = lazyHasCandidates(ctx, fn);
    const row =
      candidates === undefined
        ? undefined
        : yield* orderRootByIndex(ctx, sg.order, sg.first ?? 0, sg.offset ?? 0, candidates);
    if (row !== undefined) {
      sg.rows = [row];
      sg.dest = sortedUids(row);
      return;
    }
  }
  let dest: UidList;
  const folded =
    sg.filter !== undefined && sg.after === undefined ? foldRootRange(ctx, fn, sg.filter) : undefined;
  if (folded !== undefined) {
    // Range functions of the filter folded into the root's index scan (root-functions.ts).
    filterMetrics(ctx, sg.filter!, folded.rootCount);
    dest = folded.uids;
    const rest = folded.rest;
    if (rest !== undefined)
      dest = oneStep(dest)
        ? evalFilter(ctx, rest, dest, EMPTY_SCOPE)
        : yield* evalFilterInSteps(ctx, rest, dest, EMPTY_SCOPE);
  } else {
    const costly = fn.kind === "regexp" || fn.kind === "match" || fn.kind === "geo" || fn.kind === "has";
    dest = afterUid(costly ? yield* evalRootInSteps(ctx, fn) : evalPreparedRoot(ctx, fn), sg.after);
    const filter = sg.filter;
    if (filter !== undefined) {
      filterMetrics(ctx, filter, dest.length);
      dest = oneStep(dest)
        ? evalFilter(ctx, filter, dest, EMPTY_SCOPE)
        : yield* evalFilterInSteps(ctx, filter, dest, EMPTY_SCOPE);
    }
  }
  let row = dest;
  if (sg.order.length > 0) {
    if (ctx.budget.sliceUsed()) yield;
    row = (yield* orderRows(
      ctx,
      sg.order,
      [dest],
      dest,
      sg.first ?? 0,
      sg.offset ?? 0,
      valueVarLookup(ctx),
    ))[0];
    dest = sortedUids(row);
  } else if ((sg.first ?? 0) !== 0 || (sg.offset ?? 0) !== 0) {
    row = paginate(dest, sg.first ?? 0, sg.offset ?? 0);
    dest = row;
  }
  sg.rows = [row];
  sg.dest = dest;
}

function* processChildren(ctx: ExecContext, sg: SubGraph, scope: VarScope): Steps {
  expandChildren(ctx, sg);
  if (sg.groupBy !== undefined) addGroupingChildren(sg);
  const childScope = scopeWithOwnVar(sg, scope);
  for (const child of sg.children) {
    child.src = sg.dest;
    if (child.isInternal()) continue;
    if (ctx.budget.sliceUsed()) yield;
    yield* processChild(ctx, child, childScope);
  }
}

/**
 * Runs one selection for its source uids; `descend` = false leaves its own children alone (used by
 * @recurse, which builds the next level itself).
 */
export function* processChild(ctx: ExecContext, sg: SubGraph, scope: VarScope, descend = true): Steps {
  checkDeadline(ctx);
  addMetric(ctx, sg.attr, sg.src.length);
  switch (sg.kind) {
    case "uid":
      return;
    case "count":
      yield* processCount(ctx, sg, scope);
      return;
    case "checkpwd":
      yield* processCheckPwd(ctx, sg);
      return;
    case "predicate":
      yield* processPredicate(ctx, sg, scope, descend);
      return;
    case "aggregate":
      // min(pred) under @groupby: the values of the members.
      yield* processPredicate(ctx, sg, scope, false);
      return;
    default:
      return;
  }
}

function checkSchema(schema: PredicateSchema, sg: SubGraph): void {
  if (sg.reverse && !schema.reverse) throw new DgraphError(`Predicate ${sg.attr} doesn't have reverse edge`);
  if (sg.langs.length > 0 && !schema.lang) {
    throw new DgraphError(
      "Language tags can only be used with predicates of string type having @lang directive in schema." +
        ` Got: [${sg.attr}]`,
    );
  }
}

/**
 * Whether a filter over `uids` runs as one step. Steps are generators, and creating one costs more than
 * a filter of a few uids: such a filter is a plain call (so are short batch reads, see fetchRows).
 */
function oneStep(uids: UidList): boolean {
  return uids.length <= FIRST_TEST_CHUNK;
}

/** Uid edges of every source uid (forward or reverse), with the `after` cursor applied. */
function fetchRows(ctx: ExecContext, sg: SubGraph): UidList[] {
  const src = sg.src;
  ctx.budget.tick(src.length);
  let rows: UidList[];
  if (sg.reverse) {
    rows = new Array<UidList>(src.length);
    for (let i = 0; i < src.length; i++) rows[i] = ctx.reader.reverse(sg.attr, src[i]);
  } else {
    rows = ctx.reader.uidsMany(sg.attr, src);
  }
  if (sg.after !== undefined) for (let i = 0; i < rows.length; i++) rows[i] = afterUid(rows[i], sg.after);
  return rows;
}

/** fetchRows for a long list of source uids, CHUNK at a time, pausing between chunks. */
function* fetchRowsInSteps(ctx: ExecContext, sg: SubGraph): Steps<UidList[]> {
  const src = sg.src;
  let rows: UidList[];
  if (sg.reverse) {
    rows = new Array<UidList>(src.length);
    for (let i = 0; i < src.length; i++) {
      rows[i] = ctx.reader.reverse(sg.attr, src[i]);
      if ((i + 1) % CHUNK === 0) {
        ctx.budget.tick(CHUNK);
        if (ctx.budget.sliceUsed()) yield;
      }
    }
  } else {
    rows = yield* uidsInSteps(ctx, sg.attr, src);
  }
  if (sg.after !== undefined) for (let i = 0; i < rows.length; i++) rows[i] = afterUid(rows[i], sg.after);
  return rows;
}

function* processPredicate(ctx: ExecContext, sg: SubGraph, scope: VarScope, descend: boolean): Steps {
  const schema = ctx.reader.schema.predicate(sg.attr);
  if (schema === undefined || sg.src.length === 0) {
    if (schema !== undefined) {
      checkSchema(schema, sg);
      sg.schemaType = schema.type;
      sg.isUidPredicate = schema.type === "uid";
      sg.list = schema.list || sg.reverse;
    }
    sg.dest = EMPTY_UID_LIST;
    if (descend) yield* processChildren(ctx, sg, scope);
    return;
  }
  checkSchema(schema, sg);
  sg.schemaType = schema.type;
  if (schema.type !== "uid") {
    sg.list = schema.list;
    if (schema.type === "password") {
      sg.values = sg.src.length === 0 ? [] : new Array<ValuePosting[]>(sg.src.length).fill(NO_VALUES);
    } else {
      const langs = sg.expandAll ? ALL_LANGS : sg.langs;
      const rows =
        sg.src.length <= CHUNK
          ? readValues(ctx, sg.attr, sg.src)
          : yield* readValuesInSteps(ctx, sg.attr, sg.src);
      ctx.budget.tick(rows.length);
      const values = new Array<ValuePosting[]>(rows.length);
      const ff = sg.facetsFilter;
      for (let i = 0; i < rows.length; i++) {
        const picked = selectValues(rows[i], langs, schema.list);
        values[i] = ff === undefined ? picked : picked.filter((p) => facetsPass(ff, p.facets));
      }
      sg.values = values;
    }
    sg.dest = EMPTY_UID_LIST;
    if (descend) yield* processChildren(ctx, sg, scope);
    return;
  }
  sg.isUidPredicate = true;
  sg.list = schema.list || sg.reverse;
  let rows = sg.src.length <= CHUNK ? fetchRows(ctx, sg) : yield* fetchRowsInSteps(ctx, sg);
  if (sg.facets !== undefined || sg.facetsFilter !== undefined) {
    sg.edgeFacets = loadEdgeFacets(ctx, sg.attr, sg.reverse, sg.src, rows);
    const ff = sg.facetsFilter;
    if (ff !== undefined) {
      for (let i = 0; i < rows.length; i++) {
        const m = sg.edgeFacets.get(sg.src[i]);
        rows[i] = filterUids(rows[i], (uid) => facetsPass(ff, m?.get(uid)));
      }
    }
  }
  let dest = unionAll(rows);
  ctx.budget.tick(dest.length);
  if (sg.filter !== undefined) {
    filterMetrics(ctx, sg.filter, dest.length);
    const kept = oneStep(dest)
      ? evalFilter(ctx, sg.filter, dest, scope)
      : yield* evalFilterInSteps(ctx, sg.filter, dest, scope);
    if (kept.length !== dest.length) for (let i = 0; i < rows.length; i++) rows[i] = intersect(rows[i], kept);
    dest = kept;
  }
  const first = sg.first ?? 0;
  const offset = sg.offset ?? 0;
  const facetOrders = sg.facets?.orders ?? [];
  if (facetOrders.length > 0 && sg.edgeFacets !== undefined) {
    rows = orderRowsByFacet(rows, sg.src, sg.edgeFacets, facetOrders, first, offset);
    dest = rowsUnion(rows, true);
  } else if (sg.order.length > 0) {
    rows = yield* orderRows(ctx, sg.order, rows, dest, first, offset, valueVarLookup(ctx));
    dest = rowsUnion(rows, true);
  } else if (first !== 0 || offset !== 0) {
    for (let i = 0; i < rows.length; i++) rows[i] = paginate(rows[i], first, offset);
    dest = unionAll(rows);
  }
  sg.rows = rows;
  sg.dest = dest;
  if (descend) yield* processChildren(ctx, sg, scope);
}

function* processCount(ctx: ExecContext, sg: SubGraph, scope: VarScope): Steps {
  const schema = ctx.reader.schema.predicate(sg.attr);
  if (schema === undefined) return;
  checkSchema(schema, sg);
  const n = sg.src.length;
  const counts = new Int32Array(n);
  if (schema.type === "uid" || sg.reverse) {
    const rows = sg.src.length <= CHUNK ? fetchRows(ctx, sg) : yield* fetchRowsInSteps(ctx, sg);
    if (sg.countFilter !== undefined) {
      const all = unionAll(rows);
      const f = sg.countFilter;
      const kept = oneStep(all)
        ? evalFilter(ctx, f, all, scope)
        : yield* evalFilterInSteps(ctx, f, all, scope);
      for (let i = 0; i < n; i++) counts[i] = intersect(rows[i], kept).length;
    } else {
      for (let i = 0; i < n; i++) counts[i] = rows[i].length;
    }
  } else {
    const rows =
      sg.src.length <= CHUNK
        ? readValues(ctx, sg.attr, sg.src)
        : yield* readValuesInSteps(ctx, sg.attr, sg.src);
    const langs = isAllLangs(sg.langs) ? ALL_LANGS : sg.langs;
    for (let i = 0; i < n; i++) counts[i] = selectValues(rows[i], langs, schema.list).length;
  }
  sg.counts = counts;
}

function* processCheckPwd(ctx: ExecContext, sg: SubGraph): Steps {
  const schema = ctx.reader.schema.predicate(sg.attr);
  const n = sg.src.length;
  const checks = new Uint8Array(n);
  sg.checks = checks;
  if (schema === undefined) return;
  if (schema.type !== "password") {
    throw new DgraphError(
      `checkpwd fn can only be used on attr: [${sg.attr}] with schema type password. Got type: ${schema.type}`,
    );
  }
  const rows = ctx.reader.valuesMany(sg.attr, sg.src);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (row.length === 0) continue;
    // Each check hashes (scrypt, tens of ms): look at the clock before every one. The async driver
    // hashes on libuv's thread pool, so the event loop serves other requests meanwhile.
    ctx.budget.checkTime();
    const stored = String(row[0].value.value);
    if (ctx.awaits) {
      yield checkPasswordAsync(stored, sg.password).then((ok) => {
        checks[i] = ok ? 2 : 1;
      });
      continue;
    }
    if (ctx.budget.sliceUsed()) yield;
    checks[i] = checkPassword(stored, sg.password) ? 2 : 1;
  }
}

/** The grouping predicates of @groupby become hidden children of the level (Dgraph's IgnoreResult). */
function addGroupingChildren(sg: SubGraph): void {
  for (const key of sg.groupBy!) {
    const c = new SubGraph("predicate");
    c.attr = key.predicate;
    c.langs = key.langs;
    c.alias = key.alias;
    c.ignoreResult = true;
    c.debug = sg.debug;
    sg.children.push(c);
  }
}
