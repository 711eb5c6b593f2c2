import type { SnapshotManager } from "../txn/snapshot-manager.ts";
import { Transaction } from "../txn/transaction.ts";

/**
 * Live client-held transactions by start ts. Every start ts handed out gets an entry, because a client may
 * continue any of them. Entries that never wrote are bounded two ways, oldest first: by count, and by the
 * storage snapshots they keep open (each commit epoch has its own, and each holds an LMDB reader slot);
 * every entry idle longer than the abort-after period is dropped (and, if it wrote, aborted by the caller).
 */
export class TxnRegistry {
  private readonly txns = new Map<number, Transaction>();

  constructor(
    private readonly snapshots: SnapshotManager,
    private readonly maxReadOnly = 10_000,
    /** Open snapshots above which readers that never wrote are evicted (well below LMDB's maxReaders). */
    private readonly maxSnapshots = 256,
  ) {}

  begin(startTs: number, readOnly: boolean, namespace: number): Transaction {
    if (this.snapshots.open >= this.maxSnapshots) this.evictReaders(true);
    const txn = new Transaction(startTs, this.snapshots.acquire(), readOnly, namespace);
    this.txns.set(startTs, txn);
    if (this.txns.size > this.maxReadOnly) this.evictReaders();
    return txn;
  }

  get(startTs: number): Transaction | undefined {
    const t = this.txns.get(startTs);
    if (t !== undefined) t.lastActive = Date.now();
    return t;
  }

  finish(txn: Transaction): void {
    if (this.txns.get(txn.startTs) === txn) {
      this.txns.delete(txn.startTs);
      this.snapshots.release(txn.snapshot);
    }
  }

  /** Removes transactions idle since before `cutoff`; returns the ones that had writes. */
  expire(cutoff: number): Transaction[] {
    const expired: Transaction[] = [];
    for (const t of this.txns.values()) {
      // A commit being written is decided: it is finished when its group is written, not expired.
      if (t.state === "committing") continue;
      if (t.lastActive < cutoff) {
        this.finish(t);
        if (t.hasWrites) expired.push(t);
      }
    }
    return expired;
  }

  /**
   * Oldest start ts of a transaction that may still commit writes: every one begun for a read-write
   * query or mutation, whether or not it has written yet (a transfer reads first, writes later). With
   * `writersOnly`, only those that already wrote count.
   */
  oldestWriterStartTs(fallback: number, writersOnly = false): number {
    let min = fallback;
    for (const t of this.txns.values()) {
      const counts = writersOnly ? t.hasWrites : !t.readOnly || t.hasWrites;
      if (counts && t.startTs < min) min = t.startTs;
    }
    return min;
  }

  get size(): number {
    return this.txns.size;
  }

  all(): Iterable<Transaction> {
    return this.txns.values();
  }

  /** Drops the oldest transactions that never wrote, until under the count (or snapshot) bound. */
  private evictReaders(forSnapshots = false): void {
    const snapshotTarget = Math.floor(this.maxSnapshots * 0.75);
    for (const t of this.txns.values()) {
      const over = forSnapshots ? this.snapshots.open > snapshotTarget : this.txns.size > this.maxReadOnly;
      if (!over) break;
      if (!t.hasWrites) this.finish(t);
    }
  }
}
