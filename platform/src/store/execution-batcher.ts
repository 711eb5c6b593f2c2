import type { ExecutionRecord } from "../app-runtime.ts";

const EXECUTION_FLUSH_MS = 200;
const EXECUTION_BATCH = 200;
/** Executions waiting to be written, at most: beyond it (the database falling behind) the oldest go. */
const MAX_PENDING_EXECUTIONS = 20_000;
/** An execution's error text is stored up to this many characters. */
const MAX_ERROR_CHARS = 8_192;

export type QueuedExecution = { app: string; e: ExecutionRecord };

/**
 * Batches execution records on their way to the `executions` table: queued ones are written together
 * (`write`, one multi-row INSERT) within EXECUTION_FLUSH_MS, or at once when EXECUTION_BATCH are
 * waiting. Writes run one after another, in order.
 */
export class ExecutionBatcher {
  private pending: QueuedExecution[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly write: (batch: QueuedExecution[]) => Promise<void>) {}

  /** Queues an execution (its error text cut to MAX_ERROR_CHARS). */
  add(app: string, e: ExecutionRecord): Promise<void> {
    if (this.pending.length >= MAX_PENDING_EXECUTIONS) this.pending.shift();
    const error =
      e.error && e.error.length > MAX_ERROR_CHARS ? `${e.error.slice(0, MAX_ERROR_CHARS)}…` : e.error;
    this.pending.push({ app, e: error === e.error ? e : { ...e, error } });
    if (this.pending.length >= EXECUTION_BATCH) return this.flush();
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush().catch(() => {}), EXECUTION_FLUSH_MS);
      this.flushTimer.unref();
    }
    return Promise.resolve();
  }

  /** Writes every queued execution. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }
}
