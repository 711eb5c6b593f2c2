import { appendUids, readList, writeList } from "../posting/list-tail.ts";
import type { PostingCache } from "../posting/posting-cache.ts";
import {
  appendableHeader,
  type DataRecord,
  decodeRecord,
  decodeRecordView,
  encodeRecord,
} from "../posting/posting-record.ts";
import { KeyKind, keyKind } from "../store/keys.ts";
import type { KVStore, KVWriter } from "../store/kv-store.ts";
import { isEmptyRecord, type KeyDelta } from "./key-delta.ts";
import type { SnapshotManager } from "./snapshot-manager.ts";

/**
 * Applies transactions' deltas to the latest committed state in one atomic write, then publishes the new
 * versions to the posting cache and advances the snapshot epoch. Deltas are written in key order, which
 * keeps LMDB's B-tree inserts local.
 */
export class CommitWriter {
  constructor(
    private readonly store: KVStore,
    private readonly cache: PostingCache,
    private readonly snapshots: SnapshotManager,
  ) {}

  /**
   * Writes the deltas at `commitTs` plus any extra writes (schema records, metadata) in the same
   * transaction. Returns a promise that resolves when the write is durable.
   */
  apply(
    commitTs: number,
    deltas: Iterable<[string, KeyDelta]>,
    extra?: (w: KVWriter) => void,
  ): Promise<void> {
    // Latin-1 key strings order exactly as the key bytes do, and compare natively.
    const sorted = [...deltas].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const published: (DataRecord | undefined)[] = new Array(sorted.length);
    const { durable } = this.store.write((w) => {
      for (let i = 0; i < sorted.length; i++) {
        const [ks, d] = sorted[i];
        // One lookup for most keys: only long (appendable) lists can have a tail or take the append path.
        const raw = w.peek(d.key);
        const list = appendableHeader(raw);
        if (list === undefined) {
          const next = d.applyTo(decodeRecordView(raw));
          if (!isEmptyRecord(next)) w.put(d.key, encodeRecord(next));
          else if (raw !== undefined) w.delete(d.key);
          published[i] = next;
          continue;
        }
        const adds = d.appendOnlyUids();
        if (adds && appendUids(w, d.key, adds, list)) {
          // Large list, only higher uids added: appended (or added to its tail) without re-encoding it.
          const cached = this.cache.peek(ks);
          // Re-publishing a long list would copy all of it on every commit (8 bytes a uid): drop it
          // instead, and let the next reader decode it once.
          if (cached !== undefined && cached.uids.length < PUBLISH_APPENDED_MAX)
            published[i] = { uids: concatUids(cached.uids, adds), values: [] };
          else this.cache.invalidate(ks);
          continue;
        }
        const { value, tail } = readList(w, d.key);
        const next = d.applyTo(decodeRecord(value));
        writeList(w, d.key, isEmptyRecord(next) ? undefined : encodeRecord(next), tail);
        published[i] = next;
      }
      extra?.(w);
    });
    for (let i = 0; i < sorted.length; i++) {
      const rec = published[i];
      if (rec === undefined) continue;
      // Mutations read data and reverse lists back (values, reverse counts); index and count lists are
      // only read by queries, so they are dropped and cached again by the next query that reads them.
      const kind = keyKind(sorted[i][1].key);
      if (kind === KeyKind.data || kind === KeyKind.reverse) this.cache.set(sorted[i][0], rec, commitTs);
      else this.cache.invalidate(sorted[i][0]);
    }
    this.snapshots.advance(commitTs);
    return durable;
  }
}

/** Appended lists at least this long are dropped from the posting cache rather than re-published. */
const PUBLISH_APPENDED_MAX = 1024;

function concatUids(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
