import { keyString } from "./keys.ts";
import type { KVSnapshot, KVWriter, ScanOptions, StagedWrites } from "./kv-store.ts";

/**
 * Writes recorded against a snapshot, to be written later in one atomic write. Unlike a `StagedBatch`,
 * reads through the writer see the recorded writes: for a writer that reads a key back after writing it,
 * or writes it twice (a group of commits prepared one after another). Nothing reaches the store until
 * `staged` is written, so preparing can pause between keys while other work runs, provided nothing else writes the
 * keys meanwhile.
 */
export class PendingWrites {
  /** Latin-1 key string → the key and its value (`undefined` deletes it), in order of first write. */
  private readonly writes = new Map<string, { key: Uint8Array; value: Uint8Array | undefined }>();

  constructor(private readonly snapshot: KVSnapshot) {}

  get size(): number {
    return this.writes.size;
  }

  writer(): KVWriter {
    const read = (key: Uint8Array): Uint8Array | undefined => {
      const w = this.writes.get(keyString(key));
      return w === undefined ? this.snapshot.get(key) : w.value;
    };
    const record = (key: Uint8Array, value: Uint8Array | undefined) => {
      const ks = keyString(key);
      const w = this.writes.get(ks);
      if (w === undefined) this.writes.set(ks, { key, value });
      else w.value = value;
    };
    return {
      get: (key) => {
        const v = read(key);
        // A copy: the snapshot's value is a view the next read overwrites.
        return v === undefined ? undefined : (Uint8Array.prototype.slice.call(v) as Uint8Array);
      },
      peek: read,
      // Writers hand over values they no longer change (encoded records), so they are kept, not copied.
      put: (key, value) => record(key, value),
      delete: (key) => record(key, undefined),
      deleteRange: (start, end) => {
        for (const { key } of this.snapshot.scan({ start, end })) record(key.slice(), undefined);
        for (const w of this.writes.values()) {
          if (Buffer.compare(w.key, start) >= 0 && Buffer.compare(w.key, end) < 0) w.value = undefined;
        }
      },
      scan: (_o: ScanOptions) => {
        throw new Error("PendingWrites: scans do not see pending writes; scan the store instead");
      },
    };
  }

  /** The recorded writes, in order of first write, for a write in the background (`KVStore.writeStaged`). */
  staged(): StagedWrites {
    const keys: Uint8Array[] = [];
    const values: (Uint8Array | undefined)[] = [];
    for (const { key, value } of this.writes.values()) {
      keys.push(key);
      values.push(value);
    }
    return { keys, values };
  }

  /** Releases the snapshot (once written, or abandoned). */
  release(): void {
    this.snapshot.release();
  }
}
