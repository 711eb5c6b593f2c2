import type { CommitWriter } from "./commit-writer.ts";
import type { KeyDelta } from "./key-delta.ts";

/** A commit waiting for its group to be written. */
export interface QueuedCommit {
  deltas: Map<string, KeyDelta>;
  conflictKeys: ReadonlySet<number>;
  /** Called with the commit ts just before the group is written (record the decision and conflict keys). */
  assigned(commitTs: number): void;
}

/**
 * Group commit. Commits that pass their conflict check are queued and written together, in one LMDB
 * transaction, once the current turn of the event loop ends: concurrent clients' commits share the
 * transaction's page writes, which dominate the cost of a commit once the tree is larger than the cache.
 *
 * Commit timestamps are taken when the group is written, not when a commit is queued. A transaction that
 * starts while commits are queued gets a smaller start ts than theirs, so its snapshot (the store as last
 * written) is exactly what was committed before its start ts. Its own commit must then treat the queued
 * commits as concurrent: `conflictsWithQueued`. Clients are answered only after the group is durable.
 */
export class CommitQueue {
  private queued: { commit: QueuedCommit; resolve(r: CommitResult): void; reject(e: unknown): void }[] = [];
  private keys = new Set<number>();
  private deltaCount = 0;
  private scheduled = false;

  constructor(
    private readonly writer: CommitWriter,
    private readonly nextTs: () => number,
    /** Queued deltas (keys) beyond which the group is written at once rather than at the end of the turn. */
    private readonly maxDeltas = 200_000,
  ) {}

  /** Whether a transaction writing these conflict keys would conflict with a commit in the queue. */
  conflictsWithQueued(keys: Iterable<number>): boolean {
    if (this.keys.size === 0) return false;
    for (const k of keys) if (this.keys.has(k)) return true;
    return false;
  }

  /**
   * Queues a commit; resolves with its commit ts once its group is written (durable: `result.durable`).
   * With `alone` (no other transaction is open, so none can conflict with it or see it late), an empty
   * queue is written at once: waiting for others to join would only add conflict bookkeeping for the
   * transactions that start meanwhile.
   */
  enqueue(commit: QueuedCommit, alone = false): Promise<CommitResult> {
    const result = new Promise<CommitResult>((resolve, reject) =>
      this.queued.push({ commit, resolve, reject }),
    );
    for (const k of commit.conflictKeys) this.keys.add(k);
    this.deltaCount += commit.deltas.size;
    if (this.deltaCount >= this.maxDeltas || (alone && this.queued.length === 1)) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return result;
  }

  /** Writes every queued commit now, in one transaction (before a drop, an alter or a close, say). */
  flush(): void {
    this.scheduled = false;
    const group = this.queued;
    if (group.length === 0) return;
    this.queued = [];
    this.keys = new Set();
    this.deltaCount = 0;
    const commits = group.map((g) => ({ commitTs: this.nextTs(), deltas: g.commit.deltas }));
    let durable: Promise<void>;
    try {
      durable = this.writer.apply(commits);
    } catch (e) {
      for (const g of group) g.reject(e);
      return;
    }
    for (let i = 0; i < group.length; i++) {
      group[i].commit.assigned(commits[i].commitTs);
      group[i].resolve({ commitTs: commits[i].commitTs, durable });
    }
  }
}

export interface CommitResult {
  commitTs: number;
  /** Resolves when the group's write is on disk: acknowledge the client only then. */
  durable: Promise<void>;
}
