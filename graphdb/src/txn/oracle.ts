/**
 * The timestamp oracle (Dgraph's Zero, in-process): one monotonic counter for start and commit timestamps,
 * a separate uid counter, and first-committer-wins conflict detection over conflict keys.
 *
 * Both counters are leased in blocks persisted before use, so after a crash they resume above anything
 * handed out before it.
 */
export interface LeasePersistence {
  /** Durably records the new upper bounds (called rarely: once per lease block). */
  saveLeases(tsLease: number, uidLease: number): void;
}

const TS_BLOCK = 10_000;
const UID_BLOCK = 100_000;

export class Oracle {
  private ts: number;
  private tsLease: number;
  private uid: number;
  private uidLease: number;
  /** conflict key → commit ts of its latest committed writer. */
  private readonly keyCommits = new Map<number, number>();
  /** start ts → commit ts (0 = aborted): the first decision is final. */
  private readonly decisions = new Map<number, number>();
  /** Highest commit ts among purged conflict records: a transaction that started below it cannot be checked. */
  private purgedCommitTs = 0;

  constructor(
    private readonly persistence: LeasePersistence,
    leased: { tsLease: number; uidLease: number },
  ) {
    // Everything up to a lease may have been handed out before a crash: resume above it.
    this.ts = leased.tsLease;
    this.uid = leased.uidLease;
    this.tsLease = leased.tsLease;
    this.uidLease = leased.uidLease;
    this.extend(TS_BLOCK, UID_BLOCK);
  }

  private extend(tsBlock: number, uidBlock: number): void {
    this.tsLease = Math.max(this.tsLease, this.ts + tsBlock);
    this.uidLease = Math.max(this.uidLease, this.uid + uidBlock);
    this.persistence.saveLeases(this.tsLease, this.uidLease);
  }

  /** A fresh timestamp, greater than every one handed out before. */
  nextTs(): number {
    if (this.ts + 1 > this.tsLease) this.extend(TS_BLOCK, 0);
    return ++this.ts;
  }

  /** The highest timestamp handed out (read-only and best-effort queries read at it). */
  maxAssigned(): number {
    return this.ts;
  }

  /** Reserves `n` consecutive uids and returns the first. */
  leaseUids(n: number): number {
    if (this.uid + n > this.uidLease) this.extend(0, Math.max(UID_BLOCK, n));
    const first = this.uid + 1;
    this.uid += n;
    return first;
  }

  /** Highest uid handed out so far; explicit `<0x…>` uids above it are refused. */
  maxUid(): number {
    return this.uid;
  }

  /** Makes sure uids up to `uid` count as handed out (used when loading data with fixed uids). */
  bumpUid(uid: number): void {
    if (uid > this.uid) {
      this.uid = uid;
      if (this.uid > this.uidLease) this.extend(0, UID_BLOCK);
    }
  }

  /**
   * True when any key was committed by a transaction that committed after `startTs`, or when records that
   * could show such a commit were already purged (then aborting is the only safe answer).
   */
  conflicts(keys: Iterable<number>, startTs: number): boolean {
    if (startTs < this.purgedCommitTs) return true;
    for (const k of keys) {
      const c = this.keyCommits.get(k);
      if (c !== undefined && c > startTs) return true;
    }
    return false;
  }

  recordCommit(startTs: number, commitTs: number, keys: Iterable<number>): void {
    for (const k of keys) this.keyCommits.set(k, commitTs);
    this.decisions.set(startTs, commitTs);
  }

  recordAbort(startTs: number): void {
    if (!this.decisions.has(startTs)) this.decisions.set(startTs, 0);
  }

  /** undefined: undecided; 0: aborted; otherwise the commit ts. */
  decision(startTs: number): number | undefined {
    return this.decisions.get(startTs);
  }

  /**
   * Forgets conflict records of commits at or below `horizon` and decisions well older than it. Callers
   * pass the oldest start ts of a transaction that may still commit writes; a transaction that started
   * below the horizon anyway (it was not counted) is aborted at commit by {@link conflicts}.
   */
  purge(horizon: number): void {
    for (const [k, c] of this.keyCommits) {
      if (c <= horizon) {
        this.keyCommits.delete(k);
        if (c > this.purgedCommitTs) this.purgedCommitTs = c;
      }
    }
    for (const [s] of this.decisions) if (s < horizon - 100_000) this.decisions.delete(s);
  }

  trackedKeys(): number {
    return this.keyCommits.size;
  }
}
