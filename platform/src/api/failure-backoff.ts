/**
 * Exponential backoff of failures per key (a client address, a credential): a key may fail `freeFailures`
 * times, then waits `baseDelayMs`, and each further failure doubles the wait up to `maxDelayMs`. The table
 * is bounded: a key is forgotten `forgetAfterMs` after its last failure, and at most `maxKeys` are kept
 * (the one whose last failure is oldest goes first).
 */
export interface BackoffOptions {
  /** Consecutive failures a key may make before it has to wait. */
  freeFailures: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
  /** A key's record is dropped this long after its last failure. */
  forgetAfterMs: number;
  /** Keys remembered at most. */
  maxKeys: number;
}

interface FailureRecord {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/** What `failed` counted: the failures so far and how long the key now has to wait (0: none). */
export interface FailureCount {
  failures: number;
  lockedForSeconds: number;
}

export class FailureBackoff {
  /** Insertion order is last-failure order, so the stalest record is always first (O(1) eviction). */
  private readonly records = new Map<string, FailureRecord>();

  constructor(
    readonly options: BackoffOptions,
    private readonly now: () => number,
  ) {}

  /** Keys remembered now (bounded by `maxKeys`). */
  get size(): number {
    return this.records.size;
  }

  /** Failures remembered for `key` (0 when none or forgotten). */
  failures(key: string): number {
    return this.current(key)?.failures ?? 0;
  }

  /** Milliseconds `key` must still wait; 0 when it may go ahead. */
  waitMs(key: string): number {
    const record = this.current(key);
    return record ? Math.max(0, record.lockedUntil - this.now()) : 0;
  }

  /** Counts a failure of `key`. */
  failed(key: string): FailureCount {
    const now = this.now();
    const record = this.current(key) ?? { failures: 0, lastFailureAt: 0, lockedUntil: 0 };
    record.failures++;
    record.lastFailureAt = now;
    const { freeFailures, baseDelayMs, maxDelayMs } = this.options;
    let lockedForSeconds = 0;
    if (record.failures >= freeFailures) {
      // The exponent is capped so that the product stays finite for any count.
      const doublings = Math.min(record.failures - freeFailures, 40);
      const delay = Math.min(baseDelayMs * 2 ** doublings, maxDelayMs);
      record.lockedUntil = now + delay;
      lockedForSeconds = Math.ceil(delay / 1000);
    }
    this.remember(key, record);
    this.sweep(now);
    return { failures: record.failures, lockedForSeconds };
  }

  forget(key: string): void {
    this.records.delete(key);
  }

  /** The record of `key`, unless it is stale (then it is dropped). */
  private current(key: string): FailureRecord | undefined {
    const record = this.records.get(key);
    if (record && this.stale(record, this.now())) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  /** (Re)inserts `key` as the most recent, evicting the stalest key beyond `maxKeys`. */
  private remember(key: string, record: FailureRecord): void {
    this.records.delete(key);
    this.records.set(key, record);
    while (this.records.size > this.options.maxKeys) {
      const oldest = this.records.keys().next().value as string;
      this.records.delete(oldest);
    }
  }

  /** Drops stale records from the front (oldest last failure first): amortised O(1) per failure. */
  private sweep(now: number): void {
    for (const [key, record] of this.records) {
      if (!this.stale(record, now)) break;
      this.records.delete(key);
    }
  }

  private stale(record: FailureRecord, now: number): boolean {
    return record.lockedUntil <= now && now - record.lastFailureAt >= this.options.forgetAfterMs;
  }
}
