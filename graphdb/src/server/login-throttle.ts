/**
 * The throttle of failed logins (HTTP `/login` and gRPC `Login`), counted two ways:
 *
 * - **Per client address**: an address that failed `freeFailures` (5) times in a row waits 1 s, then
 *   each further failure doubles the wait up to 15 min; while it waits its logins are refused before any
 *   password is checked. Loopback is exempt: where the database is embedded (the Trellis platform), every
 *   app's graph connection is logged in from loopback by the platform, and every tenant's outbound call
 *   leaves from there, so a lock on loopback would let one tenant's bad passwords cut every app off.
 * - **Per user** (namespace, user id): failures from every address count; past `userFreeFailures` (10) a
 *   WRONG password for that user waits (1 s doubling to 15 min, refused with the wait in the message), but
 *   the RIGHT password is always accepted, so nobody can lock a user out by guessing for it. Passwords are
 *   checked with a slow hash (password-work), so this slows a scanner down further and names it in the log.
 *
 * Only failures are counted; a successful login clears its address (not its user, or the user's own logins
 * would reset a scanner's count). Both tables are bounded: an entry goes 1 h after its last failure, and at
 * most `maxEntries` (10,000) of each are kept, the stalest going first.
 */
import { BlockList, isIP, isIPv4 } from "node:net";
import { DgraphError, GrpcStatus } from "../core/errors.ts";
import { INVALID_LOGIN } from "./acl.ts";

export interface LoginThrottleOptions {
  /** Failed logins an address may make before it waits (default 5). */
  freeFailures: number;
  /** Failed logins for one user, from all addresses, before its wrong passwords wait (default 10). */
  userFreeFailures: number;
  /** The first wait; each further failure doubles it (default 1 s). */
  baseDelayMs: number;
  /** The longest wait (default 15 min). */
  maxDelayMs: number;
  /** An entry is dropped this long after its last failure (default 1 h). */
  forgetAfterMs: number;
  /** Addresses, and users, remembered at most (default 10,000 each). */
  maxEntries: number;
  /** Addresses never locked (default: loopback, see above). */
  isExempt: (address: string) => boolean;
  now: () => number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  freeFailures: 5,
  userFreeFailures: 10,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxEntries: 10_000,
  isExempt: isLoopback,
  now: Date.now,
};

/** Who tries to log in: the client's address and, for a password login, the user it names. */
export interface LoginAttempt {
  address: string;
  /** Absent for a refresh-token login (counted per address only). */
  user?: { namespace: number; userid: string };
}

interface Entry {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/**
 * A login refused by the throttle, in Dgraph's error shape: over HTTP `{"errors":[{"message": …,
 * "extensions":{"code":"ErrorInvalidRequest"}}],"data":null}` like any failed login, over gRPC the status
 * RESOURCE_EXHAUSTED with the message.
 */
export class LoginThrottled extends DgraphError {
  override name = "LoginThrottled";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, "ErrorInvalidRequest", GrpcStatus.RESOURCE_EXHAUSTED);
  }
}

export class LoginThrottle {
  readonly options: LoginThrottleOptions;
  private readonly addresses = new Map<string, Entry>();
  private readonly users = new Map<string, Entry>();
  /** Logins being checked per address: a parallel burst counts against the allowance before it fails. */
  private readonly pending = new Map<string, number>();

  constructor(options: Partial<LoginThrottleOptions> = {}) {
    this.options = { ...DEFAULT_LOGIN_THROTTLE, ...options };
  }

  /**
   * Runs `login` for `attempt`: refused (LoginThrottled) while the address waits; a failure is counted,
   * and turned into LoginThrottled while the user waits. `login` throws on a wrong password.
   */
  async guard<T>(attempt: LoginAttempt, login: () => Promise<T>): Promise<T> {
    const address = this.options.isExempt(attempt.address) ? undefined : attempt.address;
    if (address !== undefined) this.refuseWaitingAddress(address);
    if (address !== undefined) this.pending.set(address, (this.pending.get(address) ?? 0) + 1);
    try {
      const result = await login();
      if (address !== undefined) this.addresses.delete(address);
      return result;
    } catch (error) {
      // Only a refused login counts (not a server without ACL, nor an engine failure).
      if ((error as Error)?.message !== INVALID_LOGIN) throw error;
      if (address !== undefined) this.fail(this.addresses, address, this.options.freeFailures);
      const user = attempt.user && `${attempt.user.namespace}\u0000${attempt.user.userid}`;
      if (user !== undefined) {
        const wait = this.waitMs(this.users, user);
        if (wait > 0) {
          throw new LoginThrottled(
            `too many failed logins for user "${attempt.user?.userid}" (from all addresses): wrong passwords ` +
              `for it are refused for ${seconds(wait)} s; the right password is always accepted`,
            seconds(wait),
          );
        }
        this.fail(this.users, user, this.options.userFreeFailures);
      }
      throw error;
    } finally {
      if (address !== undefined) {
        const left = (this.pending.get(address) ?? 1) - 1;
        if (left === 0) this.pending.delete(address);
        else this.pending.set(address, left);
      }
    }
  }

  private refuseWaitingAddress(address: string): void {
    let wait = this.waitMs(this.addresses, address);
    const inFlight = this.pending.get(address) ?? 0;
    const failures = this.current(this.addresses, address)?.failures ?? 0;
    if (wait === 0 && inFlight > 0 && failures + inFlight >= this.options.freeFailures) wait = 1000;
    if (wait > 0) {
      throw new LoginThrottled(
        `too many failed logins from your address: try again in ${seconds(wait)} s (each further failure ` +
          "doubles the wait; a successful login clears it)",
        seconds(wait),
      );
    }
  }

  private waitMs(table: Map<string, Entry>, key: string): number {
    const entry = this.current(table, key);
    return entry ? Math.max(0, entry.lockedUntil - this.options.now()) : 0;
  }

  private fail(table: Map<string, Entry>, key: string, freeFailures: number): void {
    const now = this.options.now();
    const entry = this.current(table, key) ?? { failures: 0, lastFailureAt: 0, lockedUntil: 0 };
    entry.failures++;
    entry.lastFailureAt = now;
    if (entry.failures >= freeFailures) {
      const doublings = Math.min(entry.failures - freeFailures, 40);
      entry.lockedUntil = now + Math.min(this.options.baseDelayMs * 2 ** doublings, this.options.maxDelayMs);
    }
    // Insertion order is last-failure order: the stalest entry is first, evicted in O(1).
    table.delete(key);
    table.set(key, entry);
    for (const [stale, old] of table) {
      if (table.size <= this.options.maxEntries && !this.stale(old, now)) break;
      table.delete(stale);
    }
  }

  private current(table: Map<string, Entry>, key: string): Entry | undefined {
    const entry = table.get(key);
    if (entry && this.stale(entry, this.options.now())) {
      table.delete(key);
      return undefined;
    }
    return entry;
  }

  private stale(entry: Entry, now: number): boolean {
    return entry.lockedUntil <= now && now - entry.lastFailureAt >= this.options.forgetAfterMs;
  }
}

/** What the throttle counts of a login request: a password login names its user, a refresh-token one not. */
export function loginAttempt(
  req: { userid: string; refreshToken: string; namespace: number },
  address: string,
): LoginAttempt {
  return req.refreshToken === ""
    ? { address, user: { namespace: req.namespace, userid: req.userid } }
    : { address };
}

/** The address of a grpc-js peer (`ipv4:127.0.0.1:5000`, `ipv6:[::1]:5000`). */
export function peerAddress(peer: string): string {
  const m = /^(?:ipv4:|ipv6:)?\[?([^\]]*?)\]?:\d+$/.exec(peer);
  return m?.[1] ?? peer;
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string): boolean {
  const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
  if (isIP(plain) === 0) return false;
  return loopback.check(plain, isIPv4(plain) ? "ipv4" : "ipv6");
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
