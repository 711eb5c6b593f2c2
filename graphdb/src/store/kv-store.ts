/**
 * The storage boundary: an ordered byte-key/byte-value store with snapshot reads and atomic batch writes.
 * Reads are synchronous (LMDB's are); a remote backend (a PostgreSQL-protocol store) would serve them
 * through a worker bridge (`Atomics.wait`) and must implement `getMany`/`scan` as single round trips.
 */
export interface KVEntry {
  key: Uint8Array;
  value: Uint8Array;
}

export interface ScanOptions {
  /** Inclusive lower bound. */
  start: Uint8Array;
  /** Exclusive upper bound. */
  end: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

/** A consistent read view. Release it when done: an open snapshot pins storage pages. */
export interface KVSnapshot {
  /** The value, valid only until the next read on this store (decode it at once). */
  get(key: Uint8Array): Uint8Array | undefined;
  getMany(keys: Uint8Array[]): (Uint8Array | undefined)[];
  scan(options: ScanOptions): Iterable<KVEntry>;
  /** The keys of a range, without reading their values (existence checks: `has(pred)`). */
  scanKeys(options: ScanOptions): Iterable<Uint8Array>;
  release(): void;
}

/** Reads and writes inside one atomic write transaction; reads see earlier writes of the same batch. */
export interface KVWriter {
  get(key: Uint8Array): Uint8Array | undefined;
  /**
   * The value without copying it: valid only until the next read or write on this writer. For callers that
   * consume it at once (append to a large list) and would otherwise copy it twice.
   */
  peek(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  /** Deletes every key in [start, end). */
  deleteRange(start: Uint8Array, end: Uint8Array): void;
  scan(options: ScanOptions): Iterable<KVEntry>;
}

/** Writes prepared in memory (a `StagedBatch`): keys with their values in order, `undefined` deleting. */
export interface StagedWrites {
  readonly keys: readonly Uint8Array[];
  readonly values: readonly (Uint8Array | undefined)[];
}

export interface KVStore {
  snapshot(): KVSnapshot;
  /**
   * Applies a batch prepared against a snapshot (`StagedBatch`) in one atomic write, in the background: the
   * call returns at once, so the caller can prepare its next batch while this one is written. Resolves when
   * the batch is committed and durable; snapshots taken after that see it. For bulk loads, which prepare
   * batches one after another and wait for the previous one before reading again: nothing checks that the
   * snapshot a batch was prepared against is still the latest.
   */
  applyStaged(batch: StagedWrites): Promise<void>;
  /**
   * `applyStaged`, telling apart when the write becomes visible (`landed`: snapshots taken after it see the
   * batch, those taken before do not) and when it is on disk (`durable`). The thread goes on meanwhile.
   */
  writeStaged(batch: StagedWrites): { landed: Promise<void>; durable: Promise<void> };
  /**
   * Whether a background write (`writeStaged`, `applyStaged`) has not landed yet: a `write` now would wait
   * for it, holding the thread.
   */
  readonly writingInBackground: boolean;
  /**
   * Runs `fn` in one atomic write transaction and makes it visible before returning. The returned promise
   * resolves when the transaction is durable (flushed); acknowledge clients only after it resolves.
   */
  write<T>(
    fn: (w: KVWriter) => T,
    options?: { flushBeforeReturn?: boolean },
  ): { result: T; durable: Promise<void> };
  close(): Promise<void>;
}
