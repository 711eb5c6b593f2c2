import { tailKey, tailRange } from "../store/keys.ts";
import type { KVWriter } from "../store/kv-store.ts";
import { appendableHeader, appendToUidList, encodeTail, joinTail } from "./posting-record.ts";

/**
 * Tails of long uid lists (Dgraph splits long posting lists for the same reason). Adding a few uids to a
 * list of thousands would rewrite all of it on every commit, so a long list's additions go to a separate
 * tail key (`tailKey(key)`) instead, and the tail is folded back into the list once it has grown to a
 * fraction of it: each commit writes O(tail) bytes, and the list itself is rewritten O(log n) times as it
 * grows. A list's value as readers see it is always the list joined with its tail, in the same write
 * transaction, so a tail never outlives or predates what it extends.
 */

/** Lists at least this long (uids) get a tail instead of being appended to in place. */
const TAIL_FROM = 1024;

/** A tail is folded into its list once it holds this many uids. */
function tailLimit(listCount: number): number {
  return Math.min(65_536, Math.max(1024, listCount >> 2));
}

/**
 * A key's value with its tail joined in. `raw` is the key's value as just read; it may be a view that the
 * next read overwrites, so it is copied before the tail is read.
 */
export function withTail(
  get: (key: Uint8Array) => Uint8Array | undefined,
  key: Uint8Array,
  raw: Uint8Array | undefined,
): Uint8Array | undefined {
  if (appendableHeader(raw) === undefined) return raw;
  const list = Uint8Array.prototype.slice.call(raw) as Uint8Array;
  const tail = get(tailKey(key));
  return tail === undefined ? list : joinTail(list, tail);
}

/** A key's value (tail joined in) inside a write, and whether it has a tail to drop on rewrite. */
export function readList(w: KVWriter, key: Uint8Array): { value: Uint8Array | undefined; tail: boolean } {
  const raw = w.get(key);
  if (appendableHeader(raw) === undefined) return { value: raw, tail: false };
  const tail = w.peek(tailKey(key));
  return tail === undefined ? { value: raw, tail: false } : { value: joinTail(raw!, tail), tail: true };
}

/** Replaces a key's whole value (or deletes it), dropping its tail. */
export function writeList(w: KVWriter, key: Uint8Array, value: Uint8Array | undefined, tail: boolean): void {
  if (value === undefined) w.delete(key);
  else w.put(key, value);
  if (tail) w.delete(tailKey(key));
}

/**
 * Adds sorted uids, all above the list's last, without rewriting a long list. Returns false when this fast
 * path does not apply (short or differently encoded list, or uids out of order): then rewrite the list.
 */
export function appendUids(
  w: KVWriter,
  key: Uint8Array,
  adds: Float64Array,
  /** The list's header, when the caller has just read it. */
  header?: { count: number; last: number },
): boolean {
  if (adds.length === 0) return false;
  const list = header ?? appendableHeader(w.peek(key));
  if (list === undefined) return false;
  const tk = tailKey(key);
  const tailBytes = w.peek(tk);
  const tail = appendableHeader(tailBytes);
  if (adds[0] <= (tail ?? list).last) return false;
  if (tail === undefined) {
    if (list.count < TAIL_FROM) {
      w.put(key, appendToUidList(w.peek(key), adds)!);
      return true;
    }
    w.put(tk, encodeTail(adds, list.last));
    return true;
  }
  const grown = appendToUidList(tailBytes, adds)!;
  if (tail.count + adds.length < tailLimit(list.count)) {
    w.put(tk, grown);
    return true;
  }
  w.put(key, joinTail(w.get(key)!, grown));
  w.delete(tk);
  return true;
}

/** Deletes every key in [start, end) of the predicate keyspace, with the tails of those keys. */
export function deletePostings(w: KVWriter, start: Uint8Array, end: Uint8Array): void {
  w.deleteRange(start, end);
  const tails = tailRange(start, end);
  w.deleteRange(tails.start, tails.end);
}
