/** State shared by every level of one query execution. */
import { DgraphError } from "../engine/errors.ts";
import type { GraphReader, UidList, ValuePosting } from "../engine/graph-reader.ts";
import { searchUid } from "../posting/uid-list.ts";
import type { VarStore } from "./variables.ts";

export interface ExecContext {
  readonly reader: GraphReader;
  /** Variables of blocks already executed (Dgraph's `req.Vars`, "doneVars"). */
  readonly vars: VarStore;
  /** Epoch ms after which execution stops with "context deadline exceeded"; Infinity when none. */
  readonly deadline: number;
  /** `debug=true`: every node gets its uid. */
  readonly debug: boolean;
  /** Uids touched per predicate (Dgraph's `num_uids` metrics). */
  readonly metrics: Map<string, number>;
  /** The last batch of values read per predicate (see readValues); the snapshot never changes. */
  readonly valueMemo?: Map<string, ValueBatch>;
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
  if (memo === undefined || uids.length === 0) return ctx.reader.valuesMany(pred, uids);
  const last = memo.get(pred);
  if (last !== undefined) {
    if (last.uids === uids) return last.rows;
    const rows = subsetRows(last, uids);
    if (rows !== undefined) return rows;
  }
  const rows = ctx.reader.valuesMany(pred, uids);
  if (uids.length >= MEMO_MIN && ascending(uids)) memo.set(pred, { uids, rows });
  return rows;
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

/** Throws Dgraph's deadline error once the request's deadline has passed (checked once per level). */
export function checkDeadline(ctx: ExecContext): void {
  if (ctx.deadline !== Number.POSITIVE_INFINITY && Date.now() > ctx.deadline) {
    throw new DgraphError("context deadline exceeded");
  }
}

/** Counts `n` uids processed for `attr`. */
export function addMetric(ctx: ExecContext, attr: string, n: number): void {
  if (attr === "") return;
  ctx.metrics.set(attr, (ctx.metrics.get(attr) ?? 0) + n);
}
