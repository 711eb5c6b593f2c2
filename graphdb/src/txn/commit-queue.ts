import { timeSlicer } from "../sched/time-slicer.ts";
import type { CommitWriter, PreparedGroup } from "./commit-writer.ts";
import { ConflictKeySets } from "./conflict-key-sets.ts";
import type { KeyDelta } from "./key-delta.ts";

/** A commit waiting for its group to be written. */
export interface QueuedCommit {
  /** The transaction's namespace: every key it writes (count keys too) is in it. */
  namespace: number;
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
  private queued: Queued[] = [];
  /** The queued commits' conflict keys. */
  private keys = new ConflictKeySets();
  private deltaCount = 0;
  private scheduled = false;
  /**
   * Groups handed to the writer and not yet written (large ones are prepared in parts), oldest first: the
   * conflict keys of each, which are still concurrent with every transaction that started meanwhile.
   */
  private readonly inFlight: { keys: ConflictKeySets; namespaces: Set<number> }[] = [];
  /**
   * A prepared group is being written in the background: no other commit may be written until it lands
   * (a write would wait for the store's write lock, holding the thread, and would show new snapshots the
   * group before its commit ts is taken).
   */
  private landing = false;
  /** Settles once every group handed to the writer so far is written (or failed). */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: CommitWriter,
    private readonly nextTs: () => number,
    private readonly options: {
      /** Queued deltas (keys) beyond which the group is written at once rather than at the end of the turn. */
      maxDeltas?: number;
      /** Groups of at least this many deltas are prepared in parts (`CommitWriter.prepare`). */
      inPartsFrom?: number;
      /** How long preparing a group runs before giving the event loop back. */
      sliceMs?: number;
    } = {},
  ) {}

  /** Whether a transaction writing these conflict keys would conflict with a commit in the queue. */
  conflictsWithQueued(keys: ReadonlySet<number>): boolean {
    if (this.keys.meets(keys)) return true;
    for (const group of this.inFlight) if (group.keys.meets(keys)) return true;
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
    this.keys.add(commit.conflictKeys);
    this.deltaCount += commit.deltas.size;
    if (this.deltaCount >= (this.options.maxDeltas ?? 200_000) || (alone && this.queued.length === 1)) {
      void this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    return result;
  }

  /**
   * Writes every queued commit; resolves once all of them, and the groups handed to the writer before, are
   * written. Before a drop, an alter or a close, say: those act on everything committed. Commits in
   * namespaces no group in flight writes are written in one write before this returns, when they are few;
   * the others are written after the groups in flight, the large ones prepared in parts.
   */
  flush(): Promise<void> {
    this.scheduled = false;
    const queued = this.queued;
    if (queued.length === 0) return this.tail;
    this.queued = [];
    this.keys = new ConflictKeySets();
    this.deltaCount = 0;
    const inPartsFrom = this.options.inPartsFrom ?? IN_PARTS_FROM;
    // Keys of different namespaces never meet, so a namespace another group is busy with need not wait;
    // but while the store writes in the background, a write now would wait for it holding the thread.
    const storeBusy = this.landing || this.writer.storeBusy;
    const busy = (g: Queued) => storeBusy || this.inFlight.some((f) => f.namespaces.has(g.commit.namespace));
    const later = this.inFlight.length === 0 ? [] : queued.filter(busy);
    const now = later.length === 0 ? queued : queued.filter((g) => !busy(g));
    let nowDeltas = 0;
    for (const g of now) nowDeltas += g.commit.deltas.size;
    if (now.length > 0 && nowDeltas < inPartsFrom) this.writeNow(now);
    else later.push(...now);
    if (later.length > 0) this.writeAfterInFlight(later);
    return this.tail;
  }

  /** Hands a group to the writer after the groups in flight: prepared in parts, then written. */
  private writeAfterInFlight(group: Queued[]): void {
    const entry = { keys: new ConflictKeySets(), namespaces: new Set<number>() };
    for (const g of group) {
      entry.keys.add(g.commit.conflictKeys);
      entry.namespaces.add(g.commit.namespace);
    }
    this.inFlight.push(entry);
    // The chain never rejects: a group's failure is its commits' (whose callers are answered), and the
    // groups behind it are still written.
    this.tail = this.tail.then(async () => {
      try {
        await this.writeInParts(group);
      } catch (e) {
        for (const g of group) g.reject(e);
      } finally {
        this.inFlight.splice(this.inFlight.indexOf(entry), 1);
      }
    });
  }

  /** Writes a group in one write, now. */
  private writeNow(group: Queued[]): void {
    const commits = group.map((g) => ({ commitTs: this.nextTs(), deltas: g.commit.deltas }));
    let durable: Promise<void>;
    try {
      durable = this.writer.apply(commits);
    } catch (e) {
      for (const g of group) g.reject(e);
      return;
    }
    this.settle(group, commits, durable);
  }

  /**
   * Prepares a group in parts, then writes it in one write in the background. Its commit timestamps are
   * taken once it lands: transactions starting meanwhile read the state before it, so they must be older.
   */
  private async writeInParts(group: Queued[]): Promise<void> {
    const pause = timeSlicer(this.options.sliceMs ?? 5);
    let prepared: PreparedGroup;
    try {
      prepared = await this.writer.prepare(
        group.map((g) => g.commit.deltas),
        pause,
      );
    } catch (e) {
      for (const g of group) g.reject(e);
      return;
    }
    let written: { commitTs: readonly number[]; durable: Promise<void> };
    this.landing = true;
    try {
      written = await this.writer.commitPrepared(prepared, () => group.map(() => this.nextTs()));
    } catch (e) {
      for (const g of group) g.reject(e);
      return;
    } finally {
      this.landing = false;
    }
    this.settle(
      group,
      written.commitTs.map((commitTs) => ({ commitTs })),
      written.durable,
    );
  }

  private settle(group: Queued[], commits: { commitTs: number }[], durable: Promise<void>): void {
    for (let i = 0; i < group.length; i++) {
      group[i].commit.assigned(commits[i].commitTs);
      group[i].resolve({ commitTs: commits[i].commitTs, durable });
    }
  }
}

/** A queued commit and its caller's promise. */
interface Queued {
  commit: QueuedCommit;
  resolve(r: CommitResult): void;
  reject(e: unknown): void;
}

/**
 * Groups of at least this many deltas (keys) are prepared in parts: one write of this many keys holds the
 * thread for a few tens of milliseconds, a 100k-key one for several hundred.
 */
const IN_PARTS_FROM = 4096;

export interface CommitResult {
  commitTs: number;
  /** Resolves when the group's write is on disk: acknowledge the client only then. */
  durable: Promise<void>;
}
