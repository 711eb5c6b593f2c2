/**
 * What one query may spend, and the running account of it: a time budget (the request's timeout, capped
 * by the server's), Dgraph's per-query limits (`query-edge`, `normalize-node`) and a bound on the
 * response it builds. Exceeding any of them ends that query with Dgraph's error text; the rest of the
 * process is untouched, because every long loop of the executor charges this account.
 *
 * The checks are cheap enough for inner loops: `tick` bumps a counter and reads the clock only every
 * CLOCK_EVERY steps. The same clock drives cooperative scheduling: a query run by the async driver
 * pauses once its time slice is used, so one heavy query cannot hold the event loop.
 */
import { DgraphError, GrpcStatus } from "../core/errors.ts";

export interface QueryLimits {
  /**
   * Dgraph's `--limit query-edge`: edges one `@recurse` query may follow (counted as Dgraph's recurse.go
   * counts them, after its loop check).
   */
  queryEdges: number;
  /** Dgraph's `--limit normalize-node`: entries one `@normalize` flattening may produce. */
  normalizeNodes: number;
  /**
   * Estimated size in bytes of the `data` a query may return (Dgraph's encoder estimate: keys and
   * values written). Dgraph's own bound is 4 GiB, more than a JavaScript string holds; see README.
   */
  responseBytes: number;
}

/** Longest string V8 builds (2^29 - 24 characters): a larger response cannot exist here at all. */
export const MAX_RESPONSE_BYTES = 2 ** 29 - 24;

export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = {
  queryEdges: 1_000_000,
  normalizeNodes: 10_000,
  responseBytes: 128 * 2 ** 20,
};

/**
 * How long a sliced task (a query, a mutation's parse and apply, an index build) runs before giving other
 * work a turn. Short enough that a request arriving meanwhile waits a few ms, long enough that pausing
 * (one setImmediate) costs nothing.
 */
export const TIME_SLICE_MS = 5;

/** Steps between two reads of the clock (a step is ~10-100 ns of work: one uid, one value, one node). */
const CLOCK_EVERY = 1024;

/** Dgraph's text for a request whose deadline passed (Go's context.DeadlineExceeded). */
export function deadlineExceeded(): DgraphError {
  return new DgraphError("context deadline exceeded", "ErrorInvalidRequest", GrpcStatus.DEADLINE_EXCEEDED);
}

export class QueryBudget {
  readonly limits: Readonly<QueryLimits>;
  /** `performance.now()` past which the query fails; Infinity without a timeout. */
  private readonly deadline: number;
  private steps = 0;
  private nextClock = CLOCK_EVERY;
  /** End of the current time slice; Infinity when the query runs to completion without pausing. */
  private sliceEnd = Number.POSITIVE_INFINITY;
  /** Edges counted towards `queryEdges`. */
  edges = 0;
  /** Bytes charged by addResponseBytes (what @normalize holds while flattening). */
  responseBytes = 0;
  /** `limits.responseBytes`, read on every node written. */
  private readonly maxResponseBytes: number;

  constructor(options: { timeoutMs?: number; limits?: Partial<QueryLimits> } = {}) {
    const limits = options.limits;
    this.limits = limits === undefined ? DEFAULT_QUERY_LIMITS : { ...DEFAULT_QUERY_LIMITS, ...limits };
    this.maxResponseBytes = this.limits.responseBytes;
    const t = options.timeoutMs;
    this.deadline = t === undefined || !Number.isFinite(t) ? Number.POSITIVE_INFINITY : performance.now() + t;
  }

  /** Charges `weight` steps of work; fails the query once its deadline has passed. */
  tick(weight = 1): void {
    this.steps += weight;
    if (this.steps >= this.nextClock) this.checkTime();
  }

  /** Reads the clock now (between phases, or before a step too large to interrupt). */
  checkTime(): void {
    this.nextClock = this.steps + CLOCK_EVERY;
    if (this.deadline !== Number.POSITIVE_INFINITY && performance.now() > this.deadline) {
      throw deadlineExceeded();
    }
  }

  /** Milliseconds left before the deadline (at least 1), or undefined without one. */
  remainingMs(): number | undefined {
    if (this.deadline === Number.POSITIVE_INFINITY) return undefined;
    return Math.max(1, this.deadline - performance.now());
  }

  /** Starts a time slice of `ms` (the cooperative driver calls this each time it resumes the query). */
  startSlice(ms: number): void {
    this.sliceEnd = performance.now() + ms;
  }

  /**
   * True once the current slice is used up: the executor then pauses (yields) at its next safe point.
   * Also fails the query when its deadline has passed.
   */
  sliceUsed(): boolean {
    if (this.sliceEnd === Number.POSITIVE_INFINITY && this.deadline === Number.POSITIVE_INFINITY)
      return false;
    const now = performance.now();
    if (now > this.deadline) throw deadlineExceeded();
    return now >= this.sliceEnd;
  }

  /**
   * For async work outside the executor (a mutation's parse and apply, an index build): once the current
   * slice is used, gives the event loop back (one setImmediate) and starts the next slice. Throws "context
   * deadline exceeded" once the deadline has passed.
   */
  async pace(): Promise<void> {
    if (!this.sliceUsed()) return;
    await new Promise<void>((resume) => setImmediate(resume));
    this.startSlice(TIME_SLICE_MS);
  }

  /** Counts edges followed by `@recurse`; fails with Dgraph's text past `queryEdges`. */
  addEdges(n: number): void {
    this.edges += n;
    if (this.edges > this.limits.queryEdges) {
      throw new DgraphError(
        `Exceeded query edge limit = ${this.limits.queryEdges}. Found ${this.edges} edges.` +
          " Give @recurse a smaller depth, or filter or paginate the edges it follows.",
      );
    }
  }

  /** Counts bytes held for the response; fails with Dgraph's encoder text past `responseBytes`. */
  addResponseBytes(n: number): void {
    this.responseBytes += n;
    if (this.responseBytes > this.maxResponseBytes) throw this.responseTooLarge(this.responseBytes);
  }

  /**
   * The encoder's check as text grows: `length` is the size of the text being built (a string's length
   * is known without flattening it), and past the response limit the query fails. One step of time too.
   */
  written(length: number): void {
    if (length > this.maxResponseBytes) throw this.responseTooLarge(length);
    if (++this.steps >= this.nextClock) this.checkTime();
  }

  /** Dgraph's encoder error (outputnode.go) for an estimated size `size`, with what to do about it. */
  responseTooLarge(size: number): DgraphError {
    return new DgraphError(
      `estimated response size: ${size} is bigger than threshold: ${this.limits.responseBytes}.` +
        " Ask for fewer nodes (first:, filters, a smaller @recurse depth) or fewer fields.",
    );
  }
}
