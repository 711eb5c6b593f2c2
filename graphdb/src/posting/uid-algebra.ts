/**
 * Set algebra over sorted, duplicate-free uid lists (Dgraph's `algo` package). Inputs are never
 * modified; results are fresh arrays (or one of the inputs when the result equals it exactly and the
 * caller cannot tell the difference, e.g. intersecting with an empty list).
 */
import type { UidList } from "../core/graph-reader.ts";
import { EMPTY_UIDS as EMPTY, searchUid, sortUnique } from "./uid-list.ts";

/** Size ratio above which intersection gallops through the larger list instead of merging. */
const GALLOP_RATIO = 16;

/** Exponential then binary search for the first element >= uid, starting at `from`. */
function gallop(list: UidList, uid: number, from: number): number {
  const n = list.length;
  if (from >= n || list[from] >= uid) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < n && list[hi] < uid) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > n) hi = n;
  // list[lo] < uid, answer in (lo, hi]
  return searchUid(list, uid, lo + 1, hi);
}

function intersectMerge(a: UidList, b: UidList): UidList {
  const out = new Float64Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n === out.length ? out : out.subarray(0, n);
}

function intersectGallop(small: UidList, large: UidList): UidList {
  const out = new Float64Array(small.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    const x = small[i];
    j = gallop(large, x, j);
    if (j >= large.length) break;
    if (large[j] === x) {
      out[n++] = x;
      j++;
    }
  }
  return n === out.length ? out : out.subarray(0, n);
}

/** a ∩ b: a merge when the sizes are comparable, galloping through the larger list otherwise. */
export function intersect(a: UidList, b: UidList): UidList {
  if (a.length === 0 || b.length === 0) return EMPTY;
  const small = a.length <= b.length ? a : b;
  const large = small === a ? b : a;
  // Disjoint ranges need no work at all.
  if (small[small.length - 1] < large[0] || large[large.length - 1] < small[0]) return EMPTY;
  if (large.length > small.length * GALLOP_RATIO) return intersectGallop(small, large);
  return intersectMerge(small, large);
}

/** Intersection of many lists, smallest first. An empty input list gives an empty result. */
export function intersectAll(lists: readonly UidList[]): UidList {
  if (lists.length === 0) return EMPTY;
  if (lists.length === 1) return lists[0];
  const sorted = [...lists].sort((x, y) => x.length - y.length);
  let acc = sorted[0];
  for (let k = 1; k < sorted.length && acc.length > 0; k++) acc = intersect(acc, sorted[k]);
  return acc;
}

/** a ∪ b. */
export function union(a: UidList, b: UidList): UidList {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  // Non-overlapping ranges: concatenate.
  if (a[a.length - 1] < b[0] || b[b.length - 1] < a[0]) {
    const first = a[0] < b[0] ? a : b;
    const second = first === a ? b : a;
    const out = new Float64Array(a.length + b.length);
    out.set(first, 0);
    out.set(second, first.length);
    return out;
  }
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) {
      out[n++] = x;
      i++;
    } else {
      out[n++] = y;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++];
  while (j < b.length) out[n++] = b[j++];
  return n === out.length ? out : out.subarray(0, n);
}

/** Union of many lists (Dgraph's MergeSorted). */
export function unionAll(lists: readonly UidList[]): UidList {
  let nonEmpty = 0;
  let last: UidList = EMPTY;
  let total = 0;
  for (const l of lists) {
    if (l.length > 0) {
      nonEmpty++;
      last = l;
      total += l.length;
    }
  }
  if (nonEmpty === 0) return EMPTY;
  if (nonEmpty === 1) return last;
  if (nonEmpty === 2) {
    let first: UidList | undefined;
    for (const l of lists) {
      if (l.length === 0) continue;
      if (first === undefined) first = l;
      else return union(first, l);
    }
  }
  // Many lists: concatenate, sort numerically (typed-array sort), de-duplicate.
  const all = new Float64Array(total);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  return sortUnique(all);
}

/** a − b. */
export function difference(a: UidList, b: UidList): UidList {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Float64Array(a.length);
  let n = 0;
  let j = 0;
  const gallopB = b.length > a.length * GALLOP_RATIO;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    j = gallopB ? gallop(b, x, j) : advance(b, x, j);
    if (j < b.length && b[j] === x) continue;
    out[n++] = x;
  }
  return n === out.length ? out : out.subarray(0, n);
}

function advance(list: UidList, uid: number, from: number): number {
  let j = from;
  while (j < list.length && list[j] < uid) j++;
  return j;
}

/** A sorted, duplicate-free copy of arbitrary uids. */
export function sortedUids(uids: ArrayLike<number>): UidList {
  return sortUnique(Float64Array.from(uids));
}

/** Keeps the uids for which `keep` returns true (order preserved). */
export function filterUids(list: UidList, keep: (uid: number, index: number) => boolean): UidList {
  const out = new Float64Array(list.length);
  let n = 0;
  for (let i = 0; i < list.length; i++) if (keep(list[i], i)) out[n++] = list[i];
  return n === out.length ? out : out.subarray(0, n);
}

/** True when the two sorted lists share at least one uid. */
export function intersects(a: UidList, b: UidList): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const small = a.length <= b.length ? a : b;
  const large = small === a ? b : a;
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    j = gallop(large, small[i], j);
    if (j >= large.length) return false;
    if (large[j] === small[i]) return true;
  }
  return false;
}

// Single-list search lives in uid-list.ts; re-exported for the query modules that import it from here.
export { indexOfUid, searchUid } from "./uid-list.ts";
export { EMPTY as EMPTY_UID_LIST };
