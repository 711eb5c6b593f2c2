import type { KVSnapshot, KVStore } from "../store/kv-store.ts";

/** A storage snapshot shared by every transaction that started in the same commit epoch. */
export interface SharedSnapshot {
  readonly kv: KVSnapshot;
  /** Commit epoch the snapshot shows: the commit ts of the last write applied before it opened. */
  readonly epoch: number;
  refs: number;
}

/**
 * Hands out read snapshots. Commits are applied synchronously, so the snapshot opened right after a start
 * ts is allocated shows exactly the commits with smaller commit ts; transactions that start between the
 * same two commits share one snapshot.
 */
export class SnapshotManager {
  private current: SharedSnapshot | undefined;
  private epoch = 0;
  /** Storage snapshots currently open (each holds an LMDB reader slot). */
  open = 0;

  constructor(private readonly store: KVStore) {}

  acquire(): SharedSnapshot {
    if (this.current === undefined || this.current.epoch !== this.epoch) {
      this.dropCurrent();
      this.current = { kv: this.store.snapshot(), epoch: this.epoch, refs: 1 };
      this.open++;
    }
    this.current.refs++;
    return this.current;
  }

  release(s: SharedSnapshot): void {
    if (--s.refs === 0) {
      s.kv.release();
      this.open--;
    }
  }

  /**
   * Opens the snapshot of the current epoch now, if none is open: acquisitions until the next `advance`
   * get it, even after a write lands in the background meanwhile (whose commit ts is not taken yet).
   */
  pin(): void {
    this.release(this.acquire());
  }

  /** Called after every applied write: later acquisitions get a new snapshot. */
  advance(epoch: number): void {
    this.epoch = epoch;
    this.dropCurrent();
  }

  currentEpoch(): number {
    return this.epoch;
  }

  private dropCurrent(): void {
    if (this.current !== undefined) {
      // The manager's own reference; transactions still holding it keep it open.
      this.release(this.current);
      this.current = undefined;
    }
  }
}
