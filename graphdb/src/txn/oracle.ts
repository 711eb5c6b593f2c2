import { intersects, KEPT_FROM } from "./conflict-key-sets.ts";

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
  /** conflict key → commit ts of its latest committed writer (commits of fewer than KEPT_FROM keys). */
  private readonly keyCommits = new Map<number, number>();
  /**
   * Larger commits' conflict keys, kept as the committed transaction's own set rather than copied key by
   * key into `keyCommits` (a 100k-key commit would hold the thread for tens of milliseconds).
   */
  private readonly largeCommits: { commitTs: number; keys: ReadonlySet<number> }[] = [];
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
  conflicts(keys: ReadonlySet<number>, startTs: number): boolean {
    if (startTs < this.purgedCommitTs) return true;
    if (keys.size <= this.keyCommits.size) {
      for (const k of keys) {
        const c = this.keyCommits.get(k);
        if (c !== undefined && c > startTs) return true;
      }
    } else {
      for (const [k, c] of this.keyCommits) if (c > startTs && keys.has(k)) return true;
    }
    for (const large of this.largeCommits) {
      if (large.commitTs > startTs && intersects(keys, large.keys)) return true;
    }
    return false;
  }

  /** Records a commit's conflict keys: `keys` is kept, not copied, so it must not change afterwards. */
  recordCommit(startTs: number, commitTs: number, keys: ReadonlySet<number>): void {
    if (keys.size >= KEPT_FROM) this.largeCommits.push({ commitTs, keys });
    else for (const k of keys) this.keyCommits.set(k, commitTs);
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
    const kept = this.largeCommits.filter((large) => {
      if (large.commitTs > horizon) return true;
      this.purgedCommitTs = Math.max(this.purgedCommitTs, large.commitTs);
      return false;
    });
    this.largeCommits.splice(0, this.largeCommits.length, ...kept);
    for (const [s] of this.decisions) if (s < horizon - 100_000) this.decisions.delete(s);
  }

  trackedKeys(): number {
    let n = this.keyCommits.size;
    for (const large of this.largeCommits) n += large.keys.size;
    return n;
  }
}
