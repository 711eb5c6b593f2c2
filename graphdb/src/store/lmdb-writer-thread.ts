import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { StagedWrites } from "./kv-store.ts";

/**
 * A thread that writes large batches into the LMDB environment, so that the thread serving requests only
 * copies a batch into one buffer (in slices, other work running in between) and hands it over: writing
 * it key by key into the B-tree, through lmdb-js, costs that thread about a microsecond a key even for
 * lmdb-js's own background writes, 100–300 ms for the batches of an index build or a large commit.
 *
 * The thread opens the same environment (lmdb-js shares it between the threads of a process) and writes
 * each batch in one transaction, without fsync: the store syncs as it does for its other writes. Once a
 * batch has landed, read transactions begun after it see it; those begun before do not.
 */
export class LmdbWriterThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(): void; reject(e: Error): void }>();
  private failure: Error | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: { dir: string; maxReaders: number; noSync: boolean }) {}

  /**
   * Copies the batch into one buffer, pausing (`pause`) between slices, and has the thread write it in one
   * transaction. Resolves once it is committed (not yet synced).
   */
  async write(batch: StagedWrites, pause: () => Promise<void> | undefined): Promise<void> {
    const packed = await pack(batch, pause);
    if (this.failure) throw this.failure;
    const worker = this.start();
    const id = this.nextId++;
    const landed = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    worker.postMessage({ id, packed }, [packed]);
    this.inFlight.add(landed);
    const settled = () => this.inFlight.delete(landed);
    landed.then(settled, settled);
    return landed;
  }

  /** Waits for the batches handed over, then stops the thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    await Promise.allSettled(this.inFlight);
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ close: true });
    await exited;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const lmdb = createRequire(import.meta.url).resolve("lmdb");
    const worker = new Worker(WRITER_SOURCE, {
      eval: true,
      workerData: { ...this.options, lmdb },
      // Its own heap is only the batch in flight and lmdb-js.
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    worker.unref();
    worker.on("message", (m: { id: number; error?: string }) => {
      const w = this.waiting.get(m.id);
      if (w === undefined) return;
      this.waiting.delete(m.id);
      if (m.error === undefined) w.resolve();
      else w.reject(new Error(`LMDB background write failed: ${m.error}`));
    });
    const fail = (e: Error) => {
      this.failure = e;
      this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    worker.on("error", (e) => fail(new Error(`LMDB writer thread failed: ${e.message}`)));
    worker.on("exit", (code) => {
      if (this.waiting.size > 0) fail(new Error(`LMDB writer thread exited (code ${code})`));
      // Gone while idle: the next batch starts a new thread rather than waiting on this one for ever.
      else if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
    return worker;
  }
}

/** Entries copied per check of the clock while packing. */
const PACK_STEP = 2048;
/** Entries measured per check of the clock while sizing the buffer. */
const SIZE_STEP = 16_384;

/**
 * One buffer holding the batch: a u32 entry count, then per entry a u32 key length, the key, an i32 value
 * length (-1: delete the key) and the value.
 */
async function pack(batch: StagedWrites, pause: () => Promise<void> | undefined): Promise<ArrayBuffer> {
  const { keys, values } = batch;
  let size = 4;
  for (let i = 0; i < keys.length; i++) {
    size += 8 + keys[i].length + (values[i]?.length ?? 0);
    if (i % SIZE_STEP === SIZE_STEP - 1) {
      const paused = pause();
      if (paused !== undefined) await paused;
    }
  }
  // Not zero-filled (every byte is written below), and not from Buffer's shared pool: it is transferred.
  const bytes = Buffer.allocUnsafeSlow(size);
  const buffer = bytes.buffer as ArrayBuffer;
  const view = new DataView(buffer, bytes.byteOffset, size);
  view.setUint32(0, keys.length);
  let at = 4;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const value = values[i];
    view.setUint32(at, key.length);
    bytes.set(key, at + 4);
    at += 4 + key.length;
    if (value === undefined) {
      view.setInt32(at, -1);
      at += 4;
    } else {
      view.setInt32(at, value.length);
      bytes.set(value, at + 4);
      at += 4 + value.length;
    }
    if (i % PACK_STEP === PACK_STEP - 1) {
      const paused = pause();
      if (paused !== undefined) await paused;
    }
  }
  return buffer;
}

/** The thread's code (CommonJS, run with `eval`: it needs no file of its own and no TypeScript loader). */
const WRITER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { open, TransactionFlags } = require(workerData.lmdb);
const db = open({
  path: workerData.dir,
  keyEncoding: "binary",
  encoding: "binary",
  maxReaders: workerData.maxReaders,
  noSync: workerData.noSync,
  cache: false,
});
const flags = TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH;
parentPort.on("message", (m) => {
  if (m.close) {
    Promise.resolve(db.close()).finally(() => process.exit(0));
    return;
  }
  try {
    const buffer = Buffer.from(m.packed);
    const view = new DataView(m.packed);
    db.transactionSync(() => {
      const count = view.getUint32(0);
      let at = 4;
      for (let i = 0; i < count; i++) {
        const keyLength = view.getUint32(at);
        const key = buffer.subarray(at + 4, at + 4 + keyLength);
        at += 4 + keyLength;
        const valueLength = view.getInt32(at);
        at += 4;
        if (valueLength < 0) db.removeSync(key);
        else {
          db.putSync(key, buffer.subarray(at, at + valueLength));
          at += valueLength;
        }
      }
    }, flags);
    parentPort.postMessage({ id: m.id });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;
