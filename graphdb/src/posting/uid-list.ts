import type { UidList } from "../core/graph-reader.ts";

/**
 * Compact sorted uid lists: on disk a varint count followed by varint deltas (uids allocated close
 * together take one or two bytes each); in memory a sorted Float64Array (uids are < 2^53). This module
 * has the codec and the operations on one list (search, delta, sort); set algebra over several lists is
 * in uid-algebra.ts.
 */
export const EMPTY_UIDS: UidList = new Float64Array(0);

function varintLength(n: number): number {
  let len = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}

function writeVarint(buf: Uint8Array, at: number, n: number): number {
  while (n >= 128) {
    buf[at++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** Encodes a sorted uid list after `headerBytes` reserved leading bytes. */
export function encodeUids(uids: ArrayLike<number>, headerBytes = 0): Uint8Array {
  let size = headerBytes + varintLength(uids.length);
  let prev = 0;
  for (let i = 0; i < uids.length; i++) {
    size += varintLength(uids[i] - prev);
    prev = uids[i];
  }
  const buf = new Uint8Array(size);
  let at = writeVarint(buf, headerBytes, uids.length);
  prev = 0;
  for (let i = 0; i < uids.length; i++) {
    at = writeVarint(buf, at, uids[i] - prev);
    prev = uids[i];
  }
  return buf;
}

/** Decodes a list written by encodeUids; returns the list and the offset after it. */
export function decodeUids(buf: Uint8Array, at = 0): { uids: UidList; end: number } {
  let count = 0;
  let mul = 1;
  let b: number;
  do {
    b = buf[at++];
    count += (b & 127) * mul;
    mul *= 128;
  } while (b & 128);
  const uids = new Float64Array(count);
  let prev = 0;
  for (let i = 0; i < count; i++) {
    b = buf[at++];
    let delta = b & 127;
    if (b & 128) {
      mul = 128;
      do {
        b = buf[at++];
        delta += (b & 127) * mul;
        mul *= 128;
      } while (b & 128);
    }
    prev += delta;
    uids[i] = prev;
  }
  return { uids, end: at };
}

/** Index of the first element >= uid in list[from..to) (binary search); `to` when there is none. */
export function searchUid(list: UidList, uid: number, from = 0, to = list.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < uid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position of uid in the list, or -1. */
export function indexOfUid(list: UidList, uid: number): number {
  const i = searchUid(list, uid);
  return i < list.length && list[i] === uid ? i : -1;
}

export function containsUid(list: UidList, uid: number): boolean {
  const i = searchUid(list, uid);
  return i < list.length && list[i] === uid;
}

/** (clear ? [] : base) − remove ∪ add, all sorted; `add`/`remove` need not be sorted. */
export function applyUidDelta(
  base: UidList,
  clear: boolean,
  add: Iterable<number>,
  remove: ReadonlySet<number>,
): UidList {
  const adds = sortedCopy(add);
  const src = clear ? EMPTY_UIDS : base;
  // A new key (most index keys of a load): nothing to merge.
  if (src.length === 0) return sortUnique(adds);
  const out = new Float64Array(src.length + adds.length);
  let i = 0;
  let j = 0;
  let n = 0;
  let last = -1;
  while (i < src.length || j < adds.length) {
    let v: number;
    if (j >= adds.length || (i < src.length && src[i] <= adds[j])) {
      v = src[i++];
      if (remove.size > 0 && remove.has(v)) continue;
    } else {
      v = adds[j++];
    }
    if (v !== last) {
      out[n++] = v;
      last = v;
    }
  }
  return n === out.length ? out : out.slice(0, n);
}

/** The numbers as a sorted Float64Array (Sets copied without the iterator protocol's generic path). */
export function sortedCopy(add: Iterable<number>): Float64Array {
  if (add instanceof Set) {
    const out = new Float64Array(add.size);
    let i = 0;
    for (const u of add as Set<number>) out[i++] = u;
    return out.sort();
  }
  return Float64Array.from(add).sort();
}

/** Sorts and de-duplicates in place; returns the used prefix. */
export function sortUnique(list: Float64Array): Float64Array {
  list.sort();
  let n = 0;
  for (let i = 0; i < list.length; i++) if (i === 0 || list[i] !== list[i - 1]) list[n++] = list[i];
  return n === list.length ? list : list.slice(0, n);
}
