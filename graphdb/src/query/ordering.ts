/**
 * `first` / `offset` / `after` and `orderasc` / `orderdesc` (Dgraph's `x.PageRange`, worker sort).
 * Sort keys are predicates (several allowed, with language preferences) or one value variable.
 */
import { DgraphError } from "../core/errors.ts";
import type { GraphReader, UidList, ValuePosting } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { OrderByPredicate, OrderKey } from "../dql/ast.ts";
import { EMPTY_UID_LIST, searchUid } from "../posting/uid-algebra.ts";
import { type ExecContext, readValues, readValuesInSteps, type Steps } from "./exec-context.ts";
import { type LazyCandidates, orderByIndex, sortIndexFor, worthIndexWalk } from "./index-order.ts";
import { isAllLangs, postingFor } from "./lang-select.ts";
import { compareTyped } from "./value-compare.ts";

/**
 * Dgraph's `x.PageRange(count, offset, n)`: the [start, end) window of a list of n. A negative count
 * takes the last |count| items (and ignores the offset).
 */
export function pageRange(count: number, offset: number, n: number): [number, number] {
  if (n === 0) return [0, 0];
  if (count === 0 && offset === 0) return [0, n];
  if (count < 0) {
    let c = count;
    if (-c > n) c = -n;
    return [(((n + c) % n) + n) % n, n];
  }
  let start = offset;
  if (start < 0) start = 0;
  if (start > n) return [n, n];
  if (count === 0) return [start, n];
  let end = start + count;
  if (end > n) end = n;
  return [start, end];
}

/** `list[start:end]` of a page (the list itself when nothing is cut). */
export function paginate(list: UidList, first: number, offset: number): UidList {
  const [start, end] = pageRange(first, offset, list.length);
  return start === 0 && end === list.length ? list : list.subarray(start, end);
}

/** Drops uids <= after (the `after` cursor) from a sorted list. */
export function afterUid(list: UidList, after: number | undefined): UidList {
  if (after === undefined || after <= 0 || list.length === 0 || list[0] > after) return list;
  return list.subarray(searchUid(list, after + 1));
}

/** Dgraph's errors for predicate sort keys, checked key by key before any work (even on an empty list). */
function predicateKeys(
  reader: GraphReader,
  order: readonly OrderKey[],
  first: number,
): { keys: OrderByPredicate[]; schemas: (PredicateSchema | undefined)[] } {
  const head = order[0] as OrderByPredicate;
  if (first < 0) {
    throw new DgraphError(
      `We do not yet support negative or infinite count with sorting: ${head.predicate} ${first}. ` +
        "Try flipping order and return first few elements instead.",
    );
  }
  const keys: OrderByPredicate[] = [];
  const schemas: (PredicateSchema | undefined)[] = [];
  for (const key of order) {
    if (key.kind !== "OrderByPredicate")
      throw new DgraphError("Multiple sorting only allowed by predicates.");
    const schema = reader.schema.predicate(key.predicate);
    if (schema !== undefined) {
      if (schema.type === "uid")
        throw new DgraphError(`Cannot sort attribute ${key.predicate} of type object.`);
      if (schema.list) {
        throw new DgraphError(`Sorting not supported on attr: ${key.predicate} of type: [scalar]`);
      }
    }
    keys.push(key);
    schemas.push(schema);
  }
  return { keys, schemas };
}

/** The value a subject sorts by: the first value `selectValues` would pick for the key's languages. */
function sortValueOf(row: ValuePosting[], langs: readonly string[]): TypedValue | undefined {
  const n = row.length;
  if (n === 0) return undefined;
  if (langs.length === 0) {
    for (let i = 0; i < n; i++) if (row[i].lang === "") return row[i].value;
    return undefined;
  }
  if (isAllLangs(langs)) return row[0].value;
  return postingFor(row, langs)?.value;
}

/** predicateKeyValues for many uids, reading their values a chunk at a time between slices. */
function* predicateKeyValuesInSteps(
  ctx: ExecContext,
  key: OrderByPredicate,
  schema: PredicateSchema | undefined,
  uids: UidList,
): Steps<(TypedValue | undefined)[]> {
  const out = new Array<TypedValue | undefined>(uids.length);
  if (schema === undefined) return out.fill(undefined);
  const rows = yield* readValuesInSteps(ctx, key.predicate, uids);
  const langs = key.langs;
  for (let i = 0; i < rows.length; i++) out[i] = sortValueOf(rows[i], langs);
  return out;
}

/** The sort value of every uid for one predicate key (undefined = no value). */
function predicateKeyValues(
  ctx: ExecContext,
  key: OrderByPredicate,
  schema: PredicateSchema | undefined,
  uids: UidList,
): (TypedValue | undefined)[] {
  const out = new Array<TypedValue | undefined>(uids.length);
  if (schema === undefined) return out.fill(undefined);
  const rows = readValues(ctx, key.predicate, uids);
  const langs = key.langs;
  for (let i = 0; i < rows.length; i++) out[i] = sortValueOf(rows[i], langs);
  return out;
}

/**
 * The order of positions into a uid list (ascending uids) by predicate values: missing values go last
 * whatever the direction, ties keep uid order. The values of uids[i] are keys[k][positions[i]]
 * (keys[k][i] when positions is undefined).
 */
function keyComparator(
  uids: UidList,
  keys: (TypedValue | undefined)[][],
  desc: readonly boolean[],
  positions: Int32Array | undefined,
): (x: number, y: number) => number {
  let pos = positions;
  if (pos === undefined) {
    pos = new Int32Array(uids.length);
    for (let i = 0; i < uids.length; i++) pos[i] = i;
  }
  const p = pos;
  const nKeys = keys.length;
  return (x, y) => {
    const px = p[x];
    const py = p[y];
    for (let k = 0; k < nKeys; k++) {
      const a = keys[k][px];
      const b = keys[k][py];
      if (a === undefined) {
        if (b === undefined) continue;
        return 1;
      }
      if (b === undefined) return -1;
      const c = compareTyped(a, b);
      if (c !== 0) return desc[k] ? -c : c;
    }
    return uids[x] - uids[y];
  };
}

/** Sorts a uid list by predicate values at once (small lists: an index bucket); see keyComparator. */
function sortByKeys(
  uids: UidList,
  keys: (TypedValue | undefined)[][],
  desc: readonly boolean[],
  positions: Int32Array | undefined,
): UidList {
  const order = Int32Array.from({ length: uids.length }, (_, i) => i).sort(
    keyComparator(uids, keys, desc, positions),
  );
  return uidsInOrder(uids, order);
}

/**
 * sortByKeys for lists of any size, charged to the budget and pausing between slices: with `limit` > 0
 * (and a list much longer) only the first `limit` of the order, kept in a bounded heap; otherwise a merge
 * sort whose every pass can pause.
 */
function* sortByKeysInSteps(
  ctx: ExecContext,
  uids: UidList,
  keys: (TypedValue | undefined)[][],
  desc: readonly boolean[],
  positions: Int32Array | undefined,
  limit = 0,
): Steps<UidList> {
  const cmp = keyComparator(uids, keys, desc, positions);
  if (limit > 0 && limit * 4 < uids.length)
    return uidsInOrder(uids, yield* topKInSteps(ctx, uids.length, cmp, limit));
  return uidsInOrder(uids, yield* sortInSteps(ctx, uids.length, cmp));
}

function uidsInOrder(uids: UidList, order: Int32Array): UidList {
  const out = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = uids[order[i]];
  return out;
}

/** Comparisons (or moves) between two looks at the slice. */
const SORT_CHECK = 4096;
/** Length of the runs sorted at once before they are merged. */
const SORT_RUN = 2048;

/** Positions 0..n-1 in `cmp` order: sorted runs, then merge passes, each able to pause. */
function* sortInSteps(ctx: ExecContext, n: number, cmp: (x: number, y: number) => number): Steps<Int32Array> {
  let a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  if (n <= SORT_RUN) return a.sort(cmp);
  for (let lo = 0; lo < n; lo += SORT_RUN) {
    a.subarray(lo, Math.min(n, lo + SORT_RUN)).sort(cmp);
    ctx.budget.tick(SORT_RUN * 11);
    if (ctx.budget.sliceUsed()) yield;
  }
  let b = new Int32Array(n);
  let moves = 0;
  for (let width = SORT_RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        b[k] = i < mid && (j >= hi || cmp(a[i], a[j]) <= 0) ? a[i++] : a[j++];
        if (++moves === SORT_CHECK) {
          moves = 0;
          ctx.budget.tick(SORT_CHECK);
          if (ctx.budget.sliceUsed()) yield;
        }
      }
    }
    [a, b] = [b, a];
  }
  return a;
}

/** The first k positions of 0..n-1 in `cmp` order (a total order): a bounded max-heap, then a sort of the k. */
function* topKInSteps(
  ctx: ExecContext,
  n: number,
  cmp: (x: number, y: number) => number,
  k: number,
): Steps<Int32Array> {
  const heap = new Int32Array(k);
  let size = 0;
  for (let i = 0; i < n; i++) {
    if ((i & (SORT_CHECK - 1)) === SORT_CHECK - 1) {
      ctx.budget.tick(SORT_CHECK);
      if (ctx.budget.sliceUsed()) yield;
    }
    if (size < k) {
      // Sift up: the root is the worst of the k best so far.
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (cmp(heap[parent], i) >= 0) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = i;
      continue;
    }
    if (cmp(i, heap[0]) >= 0) continue;
    let at = 0;
    for (;;) {
      const l = 2 * at + 1;
      if (l >= size) break;
      const r = l + 1;
      const worst = r < size && cmp(heap[r], heap[l]) > 0 ? r : l;
      if (cmp(heap[worst], i) <= 0) break;
      heap[at] = heap[worst];
      at = worst;
    }
    heap[at] = i;
  }
  return heap.slice(0, size).sort(cmp);
}

/** How many uids of an ordered row the page needs (0 = all). */
function pageNeed(first: number, offset: number): number {
  return first > 0 ? Math.max(offset, 0) + first : 0;
}

/**
 * Orders every row by the block's sort keys and applies first/offset per row (Dgraph's
 * applyOrderAndPagination). `all` is the sorted union of the rows (values are fetched once for it).
 * A paginated order on a predicate with a sortable index walks the index instead (index-order.ts).
 */
export function* orderRows(
  ctx: ExecContext,
  order: readonly OrderKey[],
  rows: UidList[],
  all: UidList,
  first: number,
  offset: number,
  valueVar: ((name: string) => Map<number, TypedValue> | undefined) | undefined,
): Steps<UidList[]> {
  const head = order[0];
  if (head.kind === "OrderByValueVar") {
    const vals = valueVar?.(head.varName);
    if (vals === undefined) throw new DgraphError(`Variable: [${head.varName}] used before definition.`);
    const out: UidList[] = [];
    for (const row of rows) out.push(paginate(yield* sortByVar(ctx, row, vals, head.desc), first, offset));
    return out;
  }
  const reader = ctx.reader;
  const { keys, schemas } = predicateKeys(reader, order, first);
  const need = pageNeed(first, offset);
  if (need > 0) {
    const tok = sortIndexFor(keys[0], schemas[0]);
    if (tok !== undefined && worthIndexWalk(rows, all, need)) {
      const sorted = orderByIndex(
        reader,
        keys,
        tok,
        [...rows],
        all,
        need,
        keyValuesOf(ctx, keys, schemas),
        sortByKeys,
        (n) => ctx.budget.tick(n),
      );
      if (sorted !== undefined) return sorted.map((row) => paginate(row, first, offset));
    }
  }
  return yield* sortInMemory(ctx, keys, schemas, rows, all, first, offset);
}

function keyValuesOf(
  ctx: ExecContext,
  keys: readonly OrderByPredicate[],
  schemas: readonly (PredicateSchema | undefined)[],
): (key: OrderByPredicate, uids: UidList) => (TypedValue | undefined)[] {
  return (key, uids) => predicateKeyValues(ctx, key, schemas[keys.indexOf(key)], uids);
}

function* sortInMemory(
  ctx: ExecContext,
  keys: readonly OrderByPredicate[],
  schemas: readonly (PredicateSchema | undefined)[],
  rows: UidList[],
  all: UidList,
  first: number,
  offset: number,
): Steps<UidList[]> {
  const values: (TypedValue | undefined)[][] = [];
  const desc: boolean[] = [];
  for (let k = 0; k < keys.length; k++) {
    values.push(yield* predicateKeyValuesInSteps(ctx, keys[k], schemas[k], all));
    desc.push(keys[k].desc);
  }
  const need = pageNeed(first, offset);
  const out: UidList[] = [];
  for (const row of rows) {
    let positions: Int32Array | undefined;
    if (row !== all) {
      positions = new Int32Array(row.length);
      for (let i = 0; i < row.length; i++) positions[i] = searchUid(all, row[i]);
    }
    out.push(paginate(yield* sortByKeysInSteps(ctx, row, values, desc, positions, need), first, offset));
  }
  return out;
}

/**
 * Orders the root's candidates known only by a membership test (`has(p)` without filter) through the
 * sort key's index, stopping at the page: undefined when the order has no usable index or no `first`
 * (the caller evaluates the root function and calls orderRows). Same errors as orderRows.
 */
export function* orderRootByIndex(
  ctx: ExecContext,
  order: readonly OrderKey[],
  first: number,
  offset: number,
  candidates: LazyCandidates,
): Steps<UidList | undefined> {
  if (order[0].kind !== "OrderByPredicate" || first <= 0) return undefined;
  const reader = ctx.reader;
  const { keys, schemas } = predicateKeys(reader, order, first);
  const tok = sortIndexFor(keys[0], schemas[0]);
  if (tok === undefined) return undefined;
  const need = pageNeed(first, offset);
  // The walk sizes the candidates only if it is still running at its first probe (few candidates:
  // it then materialises them and sorts in memory).
  const rows: UidList[] = [EMPTY_UID_LIST];
  const sorted = orderByIndex(
    reader,
    keys,
    tok,
    rows,
    candidates,
    need,
    keyValuesOf(ctx, keys, schemas),
    sortByKeys,
    (n) => ctx.budget.tick(n),
  );
  if (sorted !== undefined) return paginate(sorted[0], first, offset);
  // The walk gave up after materialising the candidates (rows[0]): sort them in memory.
  return (yield* sortInMemory(ctx, keys, schemas, rows, rows[0], first, offset))[0];
}

/** Sorting by a value variable keeps only the uids that have a value (Dgraph's sortAndPaginateUsingVar). */
function* sortByVar(
  ctx: ExecContext,
  row: UidList,
  vals: Map<number, TypedValue>,
  desc: boolean,
): Steps<UidList> {
  const uids: number[] = [];
  const values: TypedValue[] = [];
  for (let i = 0; i < row.length; i++) {
    const v = vals.get(row[i]);
    if (v === undefined) continue;
    uids.push(row[i]);
    values.push(v);
  }
  const order = yield* sortInSteps(ctx, uids.length, (x, y) => {
    const c = compareTyped(values[x], values[y]);
    if (c !== 0) return desc ? -c : c;
    return uids[x] - uids[y];
  });
  return uidsInOrder(Float64Array.from(uids), order);
}
