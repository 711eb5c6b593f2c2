import { isIPv4, isIPv6 } from "node:net";

/**
 * Exponential backoff per client address for failed token checks (admin token, deploy tokens,
 * /admin/slash). Rate limiters count requests; this counts failures only, so a busy client with the right
 * token is never slowed down, while one guessing tokens soon waits 1 s, 2 s, 4 s, … up to `maxDelayMs`
 * between guesses. A success with the admin token forgets the address.
 */
export interface AuthThrottleOptions {
  /** Consecutive failures an address may make before it has to wait (default 5). */
  freeFailures: number;
  /** The first wait; each further failure doubles it (default 1 s). */
  baseDelayMs: number;
  /** The longest wait (default 15 min). */
  maxDelayMs: number;
  /** An address's record is dropped this long after its last failure (default 1 h). */
  forgetAfterMs: number;
  /** Addresses remembered at most; the one whose last failure is oldest goes first (default 10,000). */
  maxAddresses: number;
  now: () => number;
}

export const DEFAULT_AUTH_THROTTLE: AuthThrottleOptions = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxAddresses: 10_000,
  now: Date.now,
};

interface AddressRecord {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

export class AuthThrottle {
  readonly options: AuthThrottleOptions;
  /** Insertion order is last-failure order, so the stalest record is always first (O(1) eviction). */
  private readonly records = new Map<string, AddressRecord>();
  /**
   * Checks under way per address (a deploy token is looked up asynchronously). Kept apart from `records`
   * so that successful checks never take a place in (or evict from) the table of failures; it holds one
   * entry per address with a request in flight, so it is bounded by the open connections.
   */
  private readonly pending = new Map<string, number>();

  constructor(options: Partial<AuthThrottleOptions> = {}) {
    this.options = { ...DEFAULT_AUTH_THROTTLE, ...options };
  }

  /** Addresses remembered now (bounded by `maxAddresses`). */
  get size(): number {
    return this.records.size;
  }

  /** Whole seconds `address` must wait before its next credential is checked; 0 when it may go ahead. */
  retryAfterSeconds(address: string): number {
    const key = clientKey(address);
    const record = this.current(key);
    const wait = record ? record.lockedUntil - this.options.now() : 0;
    if (wait > 0) return Math.ceil(wait / 1000);
    // Guesses still being checked count against the allowance, so that a burst of parallel requests
    // cannot all slip in before the first of them is counted as a failure.
    const inFlight = this.pending.get(key) ?? 0;
    if (inFlight > 0 && (record?.failures ?? 0) + inFlight >= this.options.freeFailures) return 1;
    return 0;
  }

  /** Runs a credential check for `address`, counting it as under way until it settles. */
  async checking<T>(address: string, check: () => T | Promise<T>): Promise<T> {
    const key = clientKey(address);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    try {
      return await check();
    } finally {
      const left = (this.pending.get(key) ?? 1) - 1;
      if (left === 0) this.pending.delete(key);
      else this.pending.set(key, left);
    }
  }

  /** Counts a failed check; returns the failures so far and how long the address now has to wait. */
  failed(address: string): { failures: number; lockedForSeconds: number } {
    const key = clientKey(address);
    const now = this.options.now();
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

  /** Forgets the address: it proved it holds the admin token. */
  succeeded(address: string): void {
    this.records.delete(clientKey(address));
  }

  /** The record of `key`, unless it is stale (then it is dropped). */
  private current(key: string): AddressRecord | undefined {
    const record = this.records.get(key);
    if (record && this.stale(record, this.options.now())) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  /** (Re)inserts `key` as the most recent, evicting the stalest address beyond `maxAddresses`. */
  private remember(key: string, record: AddressRecord): void {
    this.records.delete(key);
    this.records.set(key, record);
    while (this.records.size > this.options.maxAddresses) {
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

  private stale(record: AddressRecord, now: number): boolean {
    return record.lockedUntil <= now && now - record.lastFailureAt >= this.options.forgetAfterMs;
  }
}

/**
 * What failures are counted against: the IPv4 address, or the /64 network of an IPv6 address (one host
 * usually holds a whole /64, so counting single IPv6 addresses would let it rotate through them).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (::ffff:… handled above, other forms are rare) takes two groups.
  const width = right.length > 0 && right[right.length - 1].includes(".") ? 1 : 0;
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length - width).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
