import type { PostingCache } from "../posting/posting-cache.ts";
import { appendToUidList, type DataRecord, decodeRecord, encodeRecord } from "../posting/posting-record.ts";
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
        const raw = w.get(d.key);
        const adds = d.appendOnlyUids();
        const appended = adds && appendToUidList(raw, adds);
        if (appended) {
          // Large list, only higher uids added: append bytes instead of decoding and re-encoding it.
          w.put(d.key, appended);
          const cached = this.cache.peek(ks);
          published[i] = cached && { uids: concatUids(cached.uids, adds), values: [] };
          if (!cached) this.cache.invalidate(ks);
          continue;
        }
        const next = d.applyTo(decodeRecord(raw));
        if (isEmptyRecord(next)) w.delete(d.key);
        else w.put(d.key, encodeRecord(next));
        published[i] = next;
      }
      extra?.(w);
    });
    for (let i = 0; i < sorted.length; i++) {
      const rec = published[i];
      if (rec !== undefined) this.cache.set(sorted[i][0], rec, commitTs);
    }
    this.snapshots.advance(commitTs);
    return durable;
  }
}

function concatUids(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
