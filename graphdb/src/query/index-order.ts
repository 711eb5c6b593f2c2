/**
 * Ordering through a sortable index (Dgraph's worker `sortWithIndex`): the index of the first sort key is
 * walked in token order (reversed for orderdesc) and every bucket's uids that are candidates are taken
 * in order until each row has `offset + first` of them. Within a bucket the order is finished by value
 * (lossy tokenizers, whose bucket holds several values) and by the remaining sort keys, ties by uid.
 * Candidates without a value come last, in uid order (or by the remaining keys), as in the in-memory sort.
 *
 * The walk gives up, and the caller sorts in memory instead, once its projected cost (from the hit rate so
 * far) exceeds the in-memory sort's (Dgraph races the two), so a sparse index never costs much more.
 */
import type { GraphReader, UidList } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { OrderByPredicate } from "../dql/ast.ts";
import { filterUids, intersect } from "../posting/uid-algebra.ts";
import { searchUid } from "../posting/uid-list.ts";
import { getTokenizer } from "../tokenizer/registry.ts";
import type { Tokenizer } from "../tokenizer/tokenizer.ts";

/** Candidates known only by a membership test (`has(p)` at root), materialised on demand. */
export interface LazyCandidates {
  /** How many candidates there are (from a count index, read when first asked; it only steers the strategy). */
  readonly size: number;
  /** The members of a sorted uid list (sorted). */
  members(uids: UidList): UidList;
  /** Every candidate (sorted). */
  materialize(): UidList;
}

/** Sorts uids (positions into the key value arrays) by keys, ties by uid; missing values last. */
export type KeySorter = (
  uids: UidList,
  keys: (TypedValue | undefined)[][],
  desc: readonly boolean[],
  positions: Int32Array | undefined,
) => UidList;

/** Fewer candidates than this are sorted in memory (cheaper than opening an index walk). */
const MIN_CANDIDATES = 64;
/** Index entries a multi-row walk may visit beyond the number of candidates before giving up. */
const BUDGET_SLACK = 64;
/** Every PROBE visits a single-row walk projects its remaining cost from the hit rate so far. */
const PROBE = 64;
/**
 * Relative costs (≈ µs, measured on the benchmark data): visiting an index entry with a membership
 * test by reads (lazy) or against a uid list, materialising a candidate (`has()` key scan), and
 * reading and sorting a candidate's value in memory.
 */
const COST_LAZY_VISIT = 2.5;
const COST_SET_VISIT = 1.4;
const COST_MATERIALIZE = 0.35;
const COST_SORT = 0.45;

/**
 * The sortable tokenizer usable to order by `key`, when index order is exactly the in-memory order: a
 * non-list, non-@lang scalar predicate (every subject then has at most one value, in exactly one bucket;
 * the exact index does not separate languages) sorted by its untagged value. Non-lossy tokenizers first.
 */
export function sortIndexFor(
  key: OrderByPredicate,
  schema: PredicateSchema | undefined,
): Tokenizer | undefined {
  if (schema === undefined || key.langs.length > 0) return undefined;
  if (schema.lang || schema.list || schema.type === "uid") return undefined;
  let lossy: Tokenizer | undefined;
  for (const name of schema.tokenizers) {
    const t = getTokenizer(name);
    if (t === undefined || !t.sortable || !t.allowedTypes.includes(schema.type)) continue;
    if (!t.lossy) return t;
    lossy ??= t;
  }
  return lossy;
}

/** Whether an index walk can pay off for these rows (see MIN_CANDIDATES). */
export function worthIndexWalk(rows: readonly UidList[], all: UidList, need: number): boolean {
  if (all.length < MIN_CANDIDATES) return false;
  for (const r of rows) if (r.length > need) return true;
  return false;
}

/**
 * Orders `rows` (sorted uid lists; `all` their sorted union, or lazy candidates for a single root row)
 * through the index of `keys[0]`. Each returned row holds at least its first `need` uids in order (or all
 * of them). Undefined when the walk gave up: the caller sorts in memory.
 */
export function orderByIndex(
  reader: GraphReader,
  keys: readonly OrderByPredicate[],
  tok: Tokenizer,
  rows: UidList[],
  candidates: UidList | LazyCandidates,
  need: number,
  keyValues: (key: OrderByPredicate, uids: UidList) => (TypedValue | undefined)[],
  sortByKeys: KeySorter,
  /** Charges the query's budget for index entries visited (and fails it past its deadline). */
  charge: (steps: number) => void = () => {},
): UidList[] | undefined {
  const head = keys[0];
  const desc = keys.map((k) => k.desc);
  const nRows = rows.length;
  let all = candidates instanceof Float64Array ? candidates : undefined;
  const lazy = all === undefined ? (candidates as LazyCandidates) : undefined;
  const out: number[][] = new Array(nRows);
  for (let r = 0; r < nRows; r++) out[r] = [];
  const done = new Uint8Array(nRows);
  let open = nRows;
  // Rows of each uid, when several rows share the walk (child levels).
  let rowsOf: Map<number, number[]> | undefined;
  if (nRows > 1) {
    rowsOf = new Map();
    for (let r = 0; r < nRows; r++) {
      const row = rows[r];
      if (row.length === 0) {
        done[r] = 1;
        open--;
        continue;
      }
      for (let i = 0; i < row.length; i++) {
        const list = rowsOf.get(row[i]);
        if (list === undefined) rowsOf.set(row[i], [r]);
        else list.push(r);
      }
    }
  }
  const placed = new Set<number>();
  // Within a bucket: the first key's value when the token is lossy, then the other keys.
  const bucketKeys = tok.lossy ? keys : keys.slice(1);
  const bucketDesc = tok.lossy ? desc : desc.slice(1);
  let visited = 0;
  let found = 0;
  let foundAtProbe = 0;
  // Several rows: a plain budget (their hit rates differ); one row: the cost projection in the walk.
  const budget = nRows > 1 && all !== undefined ? all.length + BUDGET_SLACK : Number.POSITIVE_INFINITY;
  let aborted = false;

  const place = (uid: number): void => {
    if (placed.has(uid)) return;
    placed.add(uid);
    found++;
    if (rowsOf === undefined) {
      out[0].push(uid);
      if (out[0].length >= need || (all !== undefined && out[0].length === rows[0].length)) {
        done[0] = 1;
        open = 0;
      }
      return;
    }
    const rs = rowsOf.get(uid);
    if (rs === undefined) return;
    for (const r of rs) {
      if (done[r] === 1) continue;
      const o = out[r];
      o.push(uid);
      if (o.length >= need || o.length === rows[r].length) {
        done[r] = 1;
        open--;
      }
    }
  };

  reader.indexRange(
    head.predicate,
    tok.id,
    undefined,
    undefined,
    (entry) => {
      charge(entry.uids.length + 1);
      if (++visited > budget) {
        aborted = true;
        return false;
      }
      if (visited % PROBE === 0 && rowsOf === undefined) {
        // Index entries still to visit, against the in-memory alternative. Candidates cluster in index
        // order (film titles starting with digits…), so the lower of the overall and the recent hit
        // rate is assumed.
        const recent = (found - foundAtProbe) / PROBE;
        foundAtProbe = found;
        const rate = Math.max(Math.min(found / visited, recent), 1 / (4 * PROBE));
        const left = (need - found) / rate;
        if (all === undefined) {
          const size = lazy!.size;
          const alternative = size * COST_MATERIALIZE + Math.min(left * COST_SET_VISIT, size * COST_SORT);
          if (left * COST_LAZY_VISIT > alternative) {
            all = lazy!.materialize();
            rows[0] = all;
          }
        }
        if (all !== undefined && left * COST_SET_VISIT > all.length * COST_SORT) {
          aborted = true;
          return false;
        }
      }
      const hits = all !== undefined ? intersect(entry.uids, all) : lazy!.members(entry.uids);
      if (hits.length === 0) return true;
      if (bucketKeys.length === 0 || (hits.length === 1 && !tok.lossy)) {
        for (let i = 0; i < hits.length && open > 0; i++) place(hits[i]);
        return open > 0;
      }
      const values = bucketKeys.map((k) => keyValues(k, hits));
      let ordered = sortByKeys(hits, values, bucketDesc, undefined);
      // Lossy first key: a uid indexed without a value to sort by belongs with the missing values.
      if (tok.lossy) {
        const v0 = values[0];
        ordered = filterUids(ordered, (uid) => v0[searchUid(hits, uid)] !== undefined);
      }
      for (let i = 0; i < ordered.length && open > 0; i++) place(ordered[i]);
      return open > 0;
    },
    head.desc,
  );
  if (aborted) return undefined;
  if (open > 0 && all === undefined) {
    all = lazy!.materialize();
    rows[0] = all;
  }
  const result = new Array<UidList>(nRows);
  const restKeys = keys.slice(1);
  const restDesc = desc.slice(1);
  for (let r = 0; r < nRows; r++) {
    const o = out[r];
    if (done[r] === 1) {
      result[r] = Float64Array.from(o);
      continue;
    }
    // The index is exhausted: the rest of the row has no value for the first key.
    let tail = filterUids(rows[r], (uid) => !placed.has(uid));
    if (restKeys.length > 0 && tail.length > 1) {
      tail = sortByKeys(
        tail,
        restKeys.map((k) => keyValues(k, tail)),
        restDesc,
        undefined,
      );
    }
    const row = new Float64Array(o.length + tail.length);
    for (let i = 0; i < o.length; i++) row[i] = o[i];
    row.set(tail, o.length);
    result[r] = row;
  }
  return result;
}

/** Position of uid in a short sorted list. */
