import type { KVSnapshot, KVWriter } from "./kv-store.ts";

/**
 * Writes prepared in memory against a snapshot, to be applied later in one atomic write
 * (`KVStore.applyStaged`) while the caller goes on with other work. Nothing reaches the store until the
 * batch is applied, so a batch abandoned half-way (an error while preparing it) leaves no trace.
 *
 * Reads through the writer see the snapshot only, never the batch's own writes: this is for writers that
 * read a key, if at all, before they write it, and write each key at most once (the bulk loader). Keeping
 * a per-key map so reads could see staged writes costs about as much as the write it defers.
 *
 * Values are copied into shared arena buffers as they are staged: callers may reuse theirs, and the store
 * hands its writer a few large buffers instead of one small allocation per value.
 */
export class StagedBatch {
  readonly keys: Uint8Array[] = [];
  /** `undefined` deletes the key. */
  readonly values: (Uint8Array | undefined)[] = [];
  private arena = new Uint8Array(ARENA_BYTES);
  private used = 0;
  private released = false;

  constructor(private readonly snapshot: KVSnapshot) {}

  /** Releases the snapshot the batch is prepared against (once it is prepared, or abandoned). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.snapshot.release();
  }

  writer(): KVWriter {
    const snapshot = this.snapshot;
    return {
      get: (key) => {
        const v = snapshot.get(key);
        // A copy: the snapshot's value is a view the next read overwrites (and Buffer#slice would not copy).
        return v === undefined ? undefined : (Uint8Array.prototype.slice.call(v) as Uint8Array);
      },
      peek: (key) => snapshot.get(key),
      put: (key, value) => {
        this.keys.push(key);
        this.values.push(this.copy(value));
      },
      delete: (key) => {
        this.keys.push(key);
        this.values.push(undefined);
      },
      deleteRange: (start, end) => {
        for (const { key } of snapshot.scan({ start, end })) {
          this.keys.push(key.slice());
          this.values.push(undefined);
        }
      },
      scan: (o) => snapshot.scan(o),
    };
  }

  private copy(value: Uint8Array): Uint8Array {
    if (value.length > ARENA_BYTES >> 4) return value.slice();
    if (this.used + value.length > this.arena.length) {
      this.arena = new Uint8Array(ARENA_BYTES);
      this.used = 0;
    }
    const out = this.arena.subarray(this.used, this.used + value.length);
    out.set(value);
    this.used += value.length;
    return out;
  }
}

/** Arena size: values are packed into buffers of this size (larger values get their own copy). */
const ARENA_BYTES = 1 << 20;
