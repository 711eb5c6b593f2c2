import { getHeapStatistics } from "node:v8";

/**
 * Bounds on the memory that requests hold: what their function calls returned and what their host calls
 * (http bodies, SQL rows, graph answers, model answers) handed to the guest. Each call's result is already
 * capped (16 MiB), but a request making 32 calls, or an app serving many requests at once, held gigabytes.
 * Three levels, each refusing on its own:
 *
 * - per request (`requestBytes`, default 32 MiB: two results of the largest size one call may return, far
 *   more than a GraphQL answer a client should wait for): past it, the request's remaining calls fail;
 * - per app (`appBytes`, default 128 MiB: four such requests at once): all in-flight requests of one app;
 *   while it is over, its new requests are refused before they run;
 * - in all (`totalBytes`, default 1 GiB or half the heap limit, whichever is smaller): all apps' in-flight
 *   requests on this process, so that apps together cannot exhaust the heap.
 *
 * A request's bytes are held until it has its answer, then given back to its app's and the total pool.
 */
export interface MemoryLimits {
  requestBytes: number;
  appBytes: number;
  totalBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = {
  requestBytes: 32 * MiB,
  appBytes: 128 * MiB,
  totalBytes: Math.min(1024 * MiB, Math.floor(getHeapStatistics().heap_size_limit / 2)),
};

/** Where an operator changes each bound (the platform's flag, and the variable `trellis dev` reads too). */
export const MEMORY_LIMIT_SETTINGS: Record<keyof MemoryLimits, string> = {
  requestBytes: "--max-request-memory or TRELLIS_MAX_REQUEST_MEMORY",
  appBytes: "--max-app-memory or TRELLIS_MAX_APP_MEMORY",
  totalBytes: "--max-total-memory or TRELLIS_MAX_TOTAL_MEMORY",
};

const ENV_VARS: Record<keyof MemoryLimits, string> = {
  requestBytes: "TRELLIS_MAX_REQUEST_MEMORY",
  appBytes: "TRELLIS_MAX_APP_MEMORY",
  totalBytes: "TRELLIS_MAX_TOTAL_MEMORY",
};

/** The bounds set in the environment (bytes), over the defaults; a value that is no byte count throws. */
export function memoryLimitsFromEnv(env: Record<string, string | undefined> = process.env): MemoryLimits {
  const limits = { ...DEFAULT_MEMORY_LIMITS };
  for (const key of Object.keys(ENV_VARS) as (keyof MemoryLimits)[]) {
    const value = env[ENV_VARS[key]];
    if (value === undefined || value === "") continue;
    if (!/^\d+$/.test(value) || Number(value) === 0) {
      throw new Error(`${ENV_VARS[key]} must be a number of bytes greater than 0, got "${value}"`);
    }
    limits[key] = Number(value);
  }
  return limits;
}

/** A bound was reached: the message says which, its size, its setting and what to do. */
export class MemoryBoundError extends Error {
  override name = "MemoryBoundError";
}

/** The bytes held by a group of requests (one app's, or every app's), with its bound. */
export class MemoryPool {
  private heldBytes = 0;

  constructor(
    readonly limitBytes: number,
    private readonly describe: (limit: string) => string,
    private readonly parent?: MemoryPool,
  ) {}

  get held(): number {
    return this.heldBytes;
  }

  /** Why this pool or one above it is full now (a new request would be refused), or undefined. */
  fullReason(): string | undefined {
    if (this.heldBytes >= this.limitBytes) return this.describe(size(this.limitBytes));
    return this.parent?.fullReason();
  }

  /** Takes `bytes` here and above, or throws (taking nothing) when a pool would pass its bound. */
  take(bytes: number): void {
    if (this.heldBytes + bytes > this.limitBytes)
      throw new MemoryBoundError(this.describe(size(this.limitBytes)));
    this.parent?.take(bytes);
    this.heldBytes += bytes;
  }

  give(bytes: number): void {
    this.heldBytes -= bytes;
    this.parent?.give(bytes);
  }
}

/** The pool of every app's requests on this process. */
export function totalMemoryPool(limitBytes = DEFAULT_MEMORY_LIMITS.totalBytes): MemoryPool {
  return new MemoryPool(
    limitBytes,
    (limit) =>
      `the requests in flight on this server hold ${limit}, the limit for all apps together ` +
      `(${MEMORY_LIMIT_SETTINGS.totalBytes}); try again in a moment`,
  );
}

/** The pool of one app's requests, inside `total`. */
export function appMemoryPool(
  app: string,
  total: MemoryPool,
  limitBytes = DEFAULT_MEMORY_LIMITS.appBytes,
): MemoryPool {
  return new MemoryPool(
    limitBytes,
    (limit) =>
      `app "${app}"'s requests in flight hold ${limit}, the limit per app ` +
      `(${MEMORY_LIMIT_SETTINGS.appBytes}); try again when they have finished, or ask for less per request`,
    total,
  );
}

/**
 * One request's account: every function result and host answer it receives is charged here and to its
 * app's pool (and the total); `release` gives it all back. Once a charge is refused, the request's
 * remaining calls are refused too (`refusal`), without running.
 */
export class RequestMemory {
  private chargedBytes = 0;
  private refused?: string;

  constructor(
    private readonly pool: MemoryPool,
    readonly limitBytes = DEFAULT_MEMORY_LIMITS.requestBytes,
  ) {}

  get charged(): number {
    return this.chargedBytes;
  }

  /** Bytes this request may still receive by its own bound. */
  get remaining(): number {
    return Math.max(0, this.limitBytes - this.chargedBytes);
  }

  /** Why the request's next call would be refused, or undefined. */
  refusal(): string | undefined {
    return this.refused;
  }

  /** Charges `bytes` received as `what` (e.g. "the result of getHuge"); throws MemoryBoundError when over. */
  charge(bytes: number, what: string): void {
    if (this.refused !== undefined) throw new MemoryBoundError(this.refused);
    try {
      if (this.chargedBytes + bytes > this.limitBytes) {
        throw new MemoryBoundError(
          `this request's function results and host answers would pass ${size(this.limitBytes)}, the ` +
            `limit per request (${MEMORY_LIMIT_SETTINGS.requestBytes}), with ${what} (${size(bytes)}); ` +
            "ask for less in one request, or split it into several",
        );
      }
      this.pool.take(bytes);
    } catch (e) {
      this.refused = (e as Error).message;
      throw e;
    }
    this.chargedBytes += bytes;
  }

  /** Gives every charged byte back (the request's answer has left); later charges are refused. */
  release(): void {
    this.pool.give(this.chargedBytes);
    this.chargedBytes = 0;
    this.refused ??= "the request has already been answered";
  }
}

/** `33554432` → `32 MiB`; `1610612736` → `1.5 GiB`. */
export function size(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
