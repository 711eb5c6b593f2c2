/**
 * A subscription's stream of answers: the operation runs now, then again after each change of its
 * namespace — at most once per `minIntervalMs`, changes during a run coalesced into one more run — and an
 * answer is sent only when it differs from the last. It ends when its schema is no longer served, or when
 * the consumer stops it.
 */
import type { ExecutionResult } from "graphql";

export interface LiveQuerySource {
  run(): Promise<ExecutionResult>;
  /** False once the schema the operation was validated against has been replaced. */
  stillServed(): Promise<boolean>;
  /** Subscribes to changes of the namespace; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export class LiveQuery implements AsyncIterableIterator<ExecutionResult> {
  private dirty = true;
  private done = false;
  private wake: (() => void) | undefined;
  private last: string | undefined;
  private lastRun = 0;
  private readonly off: () => void;

  constructor(
    private readonly source: LiveQuerySource,
    private readonly minIntervalMs = 100,
  ) {
    this.off = source.onChange(() => {
      this.dirty = true;
      this.wake?.();
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      if (this.done) return { done: true, value: undefined };
      if (!this.dirty) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
        continue;
      }
      const wait = this.lastRun + this.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.done) continue;
      this.dirty = false;
      this.lastRun = Date.now();
      if (!(await this.source.stillServed())) {
        this.stop();
        continue;
      }
      const result = await this.source.run();
      const text = JSON.stringify(result);
      if (text === this.last) continue;
      this.last = text;
      return { done: false, value: result };
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.stop();
    return { done: true, value: undefined };
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    this.off();
    this.wake?.();
  }
}
