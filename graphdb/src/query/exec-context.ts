/** State shared by every level of one query execution. */
import type { GraphReader, UidList, ValuePosting } from "../core/graph-reader.ts";
import { searchUid } from "../posting/uid-list.ts";
import type { QueryBudget } from "./query-budget.ts";
import type { VarStore } from "./var-store.ts";

/**
 * A part of query execution that may pause: it yields (no value) at safe points once the query's time
 * slice is used (`budget.sliceUsed()`), and returns its result. The async driver resumes it after other
 * work had its turn; the sync driver just runs it to the end.
 */
/**
 * Execution in steps. A step yields `undefined` where the query may pause, or — only when
 * `ExecContext.awaits` — a promise of work done off the event loop (a password hash), which the driver
 * awaits before going on.
 */
export type Steps<T = void> = Generator<undefined | Promise<void>, T, undefined>;

/** Uids read per step by batch reads over long lists, between two chances to pause. */
export const CHUNK = 4096;

/** Tests over uids (filters, re-checks) start with chunks this small: one test may cost milliseconds. */
export const FIRST_TEST_CHUNK = 16;
const MAX_TEST_CHUNK = 16384;
/** Aimed duration of one chunk of tests. */
const TEST_CHUNK_MS = 2;

export interface ExecContext {
  readonly reader: GraphReader;
  /** Variables of blocks already executed (Dgraph's `req.Vars`, "doneVars"). */
  readonly vars: VarStore;
  /** The query's time, edge and response budget; every long loop charges it. */
  readonly budget: QueryBudget;
  /** `debug=true`: every node gets its uid. */
  readonly debug: boolean;
  /** Uids touched per predicate (Dgraph's `num_uids` metrics). */
  readonly metrics: Map<string, number>;
  /** The last batch of values read per predicate (see readValues); the snapshot never changes. */
  readonly valueMemo?: Map<string, ValueBatch>;
  /** The driver awaits promises the steps yield (executeQueryAsync); without it, all work is synchronous. */
  readonly awaits?: boolean;
}

interface ValueBatch {
  uids: UidList;
  rows: ValuePosting[][];
}

/** Batches smaller than this are not remembered (re-reading a few postings is cheap). */
const MEMO_MIN = 32;

/**
 * `valuesMany` for the query: a filter, a sort and the output of the same predicate usually read the
 * same subjects (or a subset) one after the other; the values of the last batch read for a predicate
 * are reused instead of being read again.
 */
export function readValues(ctx: ExecContext, pred: string, uids: UidList): ValuePosting[][] {
  const memo = ctx.valueMemo;
  if (memo === undefined || uids.length === 0) return valuesCharged(ctx, pred, uids);
  const last = memo.get(pred);
  if (last !== undefined) {
    if (last.uids === uids) return last.rows;
    const rows = subsetRows(last, uids);
    if (rows !== undefined) return rows;
  }
  const rows = valuesCharged(ctx, pred, uids);
  remember(memo, pred, uids, rows);
  return rows;
}

/**
 * `readValues` for a level's batch, which may be long: read CHUNK uids at a time, pausing between chunks
 * when the query's time slice is used.
 */
export function* readValuesInSteps(ctx: ExecContext, pred: string, uids: UidList): Steps<ValuePosting[][]> {
  if (uids.length <= CHUNK) return readValues(ctx, pred, uids);
  const memo = ctx.valueMemo;
  const last = memo?.get(pred);
  if (last !== undefined) {
    if (last.uids === uids) return last.rows;
    const rows = subsetRows(last, uids);
    if (rows !== undefined) return rows;
  }
  const rows = new Array<ValuePosting[]>(uids.length);
  for (let at = 0; at < uids.length; at += CHUNK) {
    const part = valuesCharged(ctx, pred, uids.subarray(at, at + CHUNK));
    for (let i = 0; i < part.length; i++) rows[at + i] = part[i];
    if (ctx.budget.sliceUsed()) yield;
  }
  if (memo !== undefined) remember(memo, pred, uids, rows);
  return rows;
}

/** Uid edges (forward) of every subject, CHUNK subjects at a time, pausing between chunks. */
export function* uidsInSteps(ctx: ExecContext, pred: string, subjects: UidList): Steps<UidList[]> {
  if (subjects.length <= CHUNK) return uidsCharged(ctx, pred, subjects);
  const rows = new Array<UidList>(subjects.length);
  for (let at = 0; at < subjects.length; at += CHUNK) {
    const part = uidsCharged(ctx, pred, subjects.subarray(at, at + CHUNK));
    for (let i = 0; i < part.length; i++) rows[at + i] = part[i];
    if (ctx.budget.sliceUsed()) yield;
  }
  return rows;
}

/**
 * The uids `keep` keeps, tested a chunk at a time with a chance to pause after each. Chunks are sized by
 * what the last one cost: a test of one uid is anything from a comparison to a regexp over a long value.
 * `keep` must decide each uid on its own (filters and value re-checks do), so the chunks' results,
 * concatenated, are sorted when `uids` is.
 */
export function* keepInSteps(
  ctx: ExecContext,
  uids: UidList,
  keep: (chunk: UidList) => UidList,
): Steps<UidList> {
  if (uids.length <= FIRST_TEST_CHUNK) return keep(uids);
  const parts: UidList[] = [];
  let kept = 0;
  let size = FIRST_TEST_CHUNK;
  for (let at = 0; at < uids.length; ) {
    const end = Math.min(at + size, uids.length);
    const started = performance.now();
    const part = keep(uids.subarray(at, end));
    const spent = performance.now() - started;
    parts.push(part);
    kept += part.length;
    ctx.budget.tick(end - at);
    at = end;
    if (spent < TEST_CHUNK_MS / 2) size = Math.min(size * 2, MAX_TEST_CHUNK);
    else if (spent > TEST_CHUNK_MS * 2) size = Math.max(size >> 1, 1);
    if (ctx.budget.sliceUsed()) yield;
  }
  if (parts.length === 1) return parts[0];
  const out = new Float64Array(kept);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function valuesCharged(ctx: ExecContext, pred: string, uids: UidList): ValuePosting[][] {
  ctx.budget.tick(uids.length);
  return ctx.reader.valuesMany(pred, uids);
}

function uidsCharged(ctx: ExecContext, pred: string, uids: UidList): UidList[] {
  ctx.budget.tick(uids.length);
  return ctx.reader.uidsMany(pred, uids);
}

function remember(memo: Map<string, ValueBatch>, pred: string, uids: UidList, rows: ValuePosting[][]): void {
  if (uids.length >= MEMO_MIN && ascending(uids)) memo.set(pred, { uids, rows });
}

function ascending(uids: UidList): boolean {
  for (let i = 1; i < uids.length; i++) if (uids[i] <= uids[i - 1]) return false;
  return true;
}

/** The rows of `uids` (sorted) when every one is in the batch; undefined otherwise. */
function subsetRows(batch: ValueBatch, uids: UidList): ValuePosting[][] | undefined {
  const have = batch.uids;
  const n = uids.length;
  const m = have.length;
  if (n > m || uids[0] < have[0] || uids[n - 1] > have[m - 1]) return undefined;
  const out = new Array<ValuePosting[]>(n);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const uid = uids[i];
    if (i > 0 && uid <= uids[i - 1]) return undefined; // not sorted: no merge walk
    // Gallop when the batch is much larger than the request, else step.
    if (m - j > 16 * (n - i)) {
      j = searchUid(have, uid, j);
    } else {
      while (j < m && have[j] < uid) j++;
    }
    if (j >= m || have[j] !== uid) return undefined;
    out[i] = batch.rows[j++];
  }
  return out;
}

/** Throws Dgraph's deadline error once the request's deadline has passed (between levels and phases). */
export function checkDeadline(ctx: ExecContext): void {
  ctx.budget.checkTime();
}

/** Counts `n` uids processed for `attr`. */
export function addMetric(ctx: ExecContext, attr: string, n: number): void {
  if (attr === "") return;
  ctx.metrics.set(attr, (ctx.metrics.get(attr) ?? 0) + n);
}
