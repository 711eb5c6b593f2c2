import { mkdirSync } from "node:fs";
import { type Database, open, type RootDatabase, TransactionFlags } from "lmdb";
import { timeSlicer } from "../sched/time-slicer.ts";
import type { KVEntry, KVSnapshot, KVStore, KVWriter, ScanOptions, StagedWrites } from "./kv-store.ts";
import { LmdbWriterThread } from "./lmdb-writer-thread.ts";

export interface LmdbStoreOptions {
  /** Directory holding the LMDB files. Created if missing. */
  dir: string;
  /** Maximum concurrently held read snapshots. */
  maxReaders?: number;
  /** Skip fsync (tests and benchmarks of CPU cost only; never for real data). */
  noSync?: boolean;
}

type Txn = ReturnType<RootDatabase["useReadTransaction"]>;
/** lmdb-js accepts `{ transaction }` on getBinaryFast; its typings omit the parameter. */
type GetBinaryFast = (key: Buffer, options?: { transaction?: Txn }) => Buffer | undefined;

class LmdbSnapshot implements KVSnapshot {
  private released = false;
  constructor(
    private readonly db: Database<Buffer, Buffer>,
    private readonly txn: Txn,
  ) {}

  get(key: Uint8Array): Uint8Array | undefined {
    return sized(
      (this.db.getBinaryFast as GetBinaryFast).call(this.db, key as Buffer, { transaction: this.txn }),
    );
  }

  getMany(keys: Uint8Array[]): (Uint8Array | undefined)[] {
    const out = new Array<Uint8Array | undefined>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const v = (this.db.getBinaryFast as GetBinaryFast).call(this.db, keys[i] as Buffer, {
        transaction: this.txn,
      });
      // getBinaryFast reuses its buffer: copy to keep the value past the next read.
      out[i] = v === undefined ? undefined : Uint8Array.prototype.slice.call(v, 0, v.length);
    }
    return out;
  }

  scan(o: ScanOptions): Iterable<KVEntry> {
    return scanRange(this.db, o, this.txn);
  }

  scanKeys(o: ScanOptions): Iterable<Uint8Array> {
    if (o.reverse) return Array.from(scanRange(this.db, o, this.txn), (e) => e.key);
    return this.db.getRange({
      start: o.start,
      end: o.end,
      limit: o.limit,
      values: false,
      transaction: this.txn,
    } as never) as unknown as Iterable<Uint8Array>;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.txn.done();
  }
}

function scanRange(db: Database<Buffer, Buffer>, o: ScanOptions, transaction?: Txn): Iterable<KVEntry> {
  const range = o.reverse
    ? db.getRange({ start: o.end, end: o.start, reverse: true, limit: o.limit, transaction } as never)
    : db.getRange({ start: o.start, end: o.end, limit: o.limit, transaction } as never);
  const start = o.start;
  return {
    *[Symbol.iterator]() {
      for (const { key, value } of range as Iterable<{ key: Buffer; value: Buffer }>) {
        // Reverse ranges in lmdb-js start at `start` inclusive and stop before `end`; our end is exclusive.
        if (o.reverse && Buffer.compare(key, start) < 0) break;
        yield { key, value };
      }
    },
  };
}

/**
 * getBinaryFast returns a shared buffer whose `length` property is overridden to the value's size while its
 * byteLength is the whole buffer: take a properly sized view.
 */
function sized(v: Buffer | undefined): Uint8Array | undefined {
  return v === undefined ? undefined : v.subarray(0, v.length);
}

/** The LMDB backend (lmdb-js): memory-mapped B+tree, MVCC read snapshots, one writer. */
export class LmdbStore implements KVStore {
  private readonly root: RootDatabase<Buffer, Buffer>;
  private readonly noSync: boolean;
  /** The fsync in progress, and the one queued behind it for commits made after it started. */
  private syncing: Promise<void> | undefined;
  private syncQueued: Promise<void> | undefined;
  private closing = false;
  /** Background writes (`writeStaged`) not landed yet. */
  private background = 0;
  private readonly writerThread: LmdbWriterThread;

  constructor(options: LmdbStoreOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.root = open<Buffer, Buffer>({
      path: options.dir,
      keyEncoding: "binary",
      encoding: "binary",
      maxReaders: options.maxReaders ?? 1024,
      noSync: options.noSync ?? false,
      cache: false,
    });
    this.noSync = options.noSync ?? false;
    this.writerThread = new LmdbWriterThread({
      dir: options.dir,
      maxReaders: options.maxReaders ?? 1024,
      noSync: this.noSync,
    });
  }

  /**
   * Resolves once everything committed before the call is on disk. Commits skip their own fsync
   * (NO_SYNC_FLUSH) and share one: a sync already running may have started before the caller's commit,
   * so callers then wait for the next one, which every commit made meanwhile shares (group fsync).
   * lmdb-js's `flushed` does not wait for the fsync after a transactionSync, hence this.
   */
  private syncToDisk(): Promise<void> {
    if (this.noSync) return Promise.resolve();
    const start = (): Promise<void> => {
      const p = new Promise<void>((resolve, reject) => {
        // Closing waits for syncs in flight; nothing is left to sync after that (close flushes).
        if (this.closing) return resolve();
        // env.sync (mdb_env_sync off the main thread); missing from lmdb-js's type declarations.
        (this.root as unknown as { sync(cb: (error?: unknown) => void): void }).sync((error) =>
          error ? reject(error) : resolve(),
        );
      }).finally(() => {
        if (this.syncing === p) this.syncing = undefined;
      });
      this.syncing = p;
      return p;
    };
    if (this.syncQueued) return this.syncQueued;
    if (!this.syncing) return start();
    const queued: Promise<void> = this.syncing
      .catch(() => undefined)
      .then(() => {
        if (this.syncQueued === queued) this.syncQueued = undefined;
        return start();
      });
    this.syncQueued = queued;
    return queued;
  }

  snapshot(): KVSnapshot {
    return new LmdbSnapshot(this.root, this.root.useReadTransaction());
  }

  applyStaged(batch: StagedWrites): Promise<void> {
    return this.writeStaged(batch).durable;
  }

  writeStaged(batch: StagedWrites): { landed: Promise<void>; durable: Promise<void> } {
    this.background++;
    const landed = (
      batch.keys.length >= WRITER_THREAD_FROM ? this.writeOnThread(batch) : this.writeInBatch(batch)
    ).finally(() => this.background--);
    const durable = landed.then(() => this.syncToDisk());
    // A caller waiting only for `landed` sees the failure there.
    durable.catch(() => undefined);
    return { landed, durable };
  }

  get writingInBackground(): boolean {
    return this.background > 0;
  }

  /** lmdb-js's own background write: its write thread applies the batch while this thread goes on. */
  private writeInBatch(batch: StagedWrites): Promise<void> {
    const db = this.root;
    // The batch holds its values, so they stay alive until written.
    const { keys, values } = batch;
    return db.batch(() => {
      for (let i = 0; i < keys.length; i++) {
        const value = values[i];
        if (value === undefined) db.remove(keys[i] as Buffer);
        else db.put(keys[i] as Buffer, value as Buffer);
      }
    }) as Promise<unknown> as Promise<void>;
  }

  /**
   * A large batch goes to the writer thread: handing each key to lmdb-js (even for its own background
   * write) would hold this thread about a microsecond a key. This thread only copies the batch, in slices.
   */
  private async writeOnThread(batch: StagedWrites): Promise<void> {
    await this.writerThread.write(batch, timeSlicer(PACK_SLICE_MS));
    // lmdb-js reuses this thread's read transaction for the rest of the turn: snapshots taken from now on
    // must see the batch.
    (this.root as unknown as { resetReadTxn(): void }).resetReadTxn();
  }

  write<T>(
    fn: (w: KVWriter) => T,
    options?: { flushBeforeReturn?: boolean },
  ): { result: T; durable: Promise<void> } {
    const db = this.root;
    const writer: KVWriter = {
      get: (key) => {
        const v = db.getBinaryFast(key as Buffer);
        return v === undefined ? undefined : Uint8Array.prototype.slice.call(v, 0, v.length);
      },
      peek: (key) => sized(db.getBinaryFast(key as Buffer)),
      put: (key, value) => {
        db.putSync(key as Buffer, value as Buffer);
      },
      delete: (key) => {
        db.removeSync(key as Buffer);
      },
      deleteRange: (start, end) => {
        const keys: Buffer[] = [];
        for (const k of db.getKeys({ start: start as Buffer, end: end as Buffer })) keys.push(k as Buffer);
        for (const k of keys) db.removeSync(k);
      },
      scan: (o) => scanRange(db, o),
    };
    const flags = TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT;
    const result = db.transactionSync(
      () => fn(writer),
      options?.flushBeforeReturn ? flags : flags | TransactionFlags.NO_SYNC_FLUSH,
    );
    const durable = options?.flushBeforeReturn ? Promise.resolve() : this.syncToDisk();
    return { result, durable };
  }

  async close(): Promise<void> {
    await this.writerThread.close();
    await (this.syncQueued ?? this.syncing)?.catch(() => undefined);
    this.closing = true;
    await this.root.close();
  }
}

/** Batches of at least this many keys are written by the writer thread. */
const WRITER_THREAD_FROM = 4096;
/** How long copying a batch for the writer thread runs before giving the event loop back. */
const PACK_SLICE_MS = 5;
