import { isIPv4, isIPv6 } from "node:net";
import { type BackoffOptions, FailureBackoff, type FailureCount } from "./failure-backoff.ts";
import { ownAddressCheck, unmapped } from "./own-addresses.ts";

/**
 * The throttle of failed token checks (admin token, deploy tokens, /admin/slash), counted two ways:
 *
 * - **Per client address**: an address that failed `address.freeFailures` times waits 1 s, 2 s, 4 s, … up
 *   to 15 min, and while it waits its attempts are refused (429) before any token is looked at. It stops one
 *   address from scanning. The platform's own addresses (loopback, the machine's interfaces) are never
 *   throttled this way: every tenant's outbound calls come from them, so a tenant could otherwise lock the
 *   admin and every app's CI out with a handful of bad tokens.
 * - **Per credential** (the admin token, or one app's deploy token): failures from every address count, and
 *   once over `credential.freeFailures` a WRONG token for that credential is answered 429 (and logged)
 *   until the wait is over — but the RIGHT token is always accepted, so no one can lock the holder of a
 *   credential out, whatever they send. The tokens are 256-bit random values that no rate of guessing
 *   reaches; this count is there to slow scanners down, to log them and to show them in the metrics.
 *
 * Only failures are counted, so a busy client with the right token is never slowed down. A success with
 * the admin token forgets the address; a deploy token does not (its holder must not buy guesses at the
 * admin token). Successes never clear a credential's count (or its holder's CI would reset a scanner's).
 */
export interface AuthThrottleOptions {
  /** Per client address (defaults: 5 free failures, 1 s doubling to 15 min, forgotten after 1 h, 10,000). */
  address?: Partial<BackoffOptions>;
  /** Per credential (defaults: 10 free failures, 1 s doubling to 15 min, forgotten after 1 h, 10,000). */
  credential?: Partial<BackoffOptions>;
  /** Whether an address is the platform's own (default: loopback and `os.networkInterfaces()`). */
  isOwnAddress?: (address: string) => boolean;
  now?: () => number;
}

type ResolvedOptions = Required<AuthThrottleOptions> & {
  address: BackoffOptions;
  credential: BackoffOptions;
};

export const DEFAULT_ADDRESS_BACKOFF: BackoffOptions = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxKeys: 10_000,
};

export const DEFAULT_CREDENTIAL_BACKOFF: BackoffOptions = { ...DEFAULT_ADDRESS_BACKOFF, freeFailures: 10 };

/** The credential a request tries: the admin token, or the deploy token of one app. */
export type Credential = { kind: "admin" } | { kind: "deploy"; app: string };

/** What a failed check counted, and whether the credential's wait turned it into a 429. */
export interface FailureOutcome {
  /** The address's count; undefined for the platform's own addresses (never throttled). */
  address?: FailureCount;
  credential: FailureCount;
  /** Seconds left of the credential's wait when this wrong token came (then answered 429); 0: none. */
  refusedForSeconds: number;
}

export class AuthThrottle {
  readonly options: ResolvedOptions;
  private readonly addresses: FailureBackoff;
  private readonly credentials: FailureBackoff;
  /**
   * Checks under way per address (a deploy token is looked up asynchronously). Kept apart from the failures
   * so that successful checks never take a place in (or evict from) that table; it holds one entry per
   * address with a request in flight, so it is bounded by the open connections.
   */
  private readonly pending = new Map<string, number>();

  constructor(options: AuthThrottleOptions = {}) {
    const now = options.now ?? Date.now;
    this.options = {
      address: { ...DEFAULT_ADDRESS_BACKOFF, ...options.address },
      credential: { ...DEFAULT_CREDENTIAL_BACKOFF, ...options.credential },
      isOwnAddress: options.isOwnAddress ?? ownAddressCheck(now),
      now,
    };
    this.addresses = new FailureBackoff(this.options.address, now);
    this.credentials = new FailureBackoff(this.options.credential, now);
  }

  /** Addresses remembered now (bounded by `address.maxKeys`). */
  get size(): number {
    return this.addresses.size;
  }

  /** Whether `address` is the platform's own (never throttled as a client). */
  isOwn(address: string): boolean {
    return this.options.isOwnAddress(unmapped(address));
  }

  /** Whole seconds `address` must wait before its next credential is checked; 0 when it may go ahead. */
  retryAfterSeconds(address: string): number {
    if (this.isOwn(address)) return 0;
    const key = clientKey(address);
    const wait = this.addresses.waitMs(key);
    if (wait > 0) return Math.ceil(wait / 1000);
    // Guesses still being checked count against the allowance, so that a burst of parallel requests
    // cannot all slip in before the first of them is counted as a failure.
    const inFlight = this.pending.get(key) ?? 0;
    if (inFlight > 0 && this.addresses.failures(key) + inFlight >= this.options.address.freeFailures)
      return 1;
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

  /**
   * Counts a wrong token for `credential` from `address`. While the credential is waiting, the wrong token
   * is answered 429 (`refusedForSeconds`) and does not lengthen the credential's wait.
   */
  failed(address: string, credential: Credential): FailureOutcome {
    const addressCount = this.isOwn(address) ? undefined : this.addresses.failed(clientKey(address));
    const key = credentialKey(credential);
    const wait = this.credentials.waitMs(key);
    if (wait > 0) {
      const count = { failures: this.credentials.failures(key), lockedForSeconds: Math.ceil(wait / 1000) };
      return { address: addressCount, credential: count, refusedForSeconds: count.lockedForSeconds };
    }
    return { address: addressCount, credential: this.credentials.failed(key), refusedForSeconds: 0 };
  }

  /** Forgets the address: it proved it holds the admin token. */
  succeeded(address: string): void {
    this.addresses.forget(clientKey(address));
  }
}

/** The key of a credential in the per-credential table. */
export function credentialKey(credential: Credential): string {
  return credential.kind === "admin" ? "admin" : `deploy:${credential.app}`;
}

/**
 * What failures are counted against: the IPv4 address, or the /64 network of an IPv6 address (one host
 * usually holds a whole /64, so counting single IPv6 addresses would let it rotate through them).
 */
export function clientKey(address: string): string {
  const plain = unmapped(address);
  if (plain !== address || isIPv4(address) || !isIPv6(address)) return plain;
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
