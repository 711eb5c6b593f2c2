/**
 * Fair share between namespaces: at most `concurrent` operations of one namespace run at once; the rest of
 * that namespace's operations wait in its own queue, first come first served. Running operations take turns
 * on the event loop a slice at a time, so a namespace flooding heavy queries holds at most `concurrent`
 * turns of each round, and a light namespace's query waits that many slices, not one per queued request.
 * The queue is bounded in length and in waiting time: past either, an operation is refused.
 */
import { DgraphError, GrpcStatus } from "../core/errors.ts";

export interface AdmissionLimits {
  /** Operations (queries, mutations, commits, alters) of one namespace running at once; 0 for no limit. */
  concurrent: number;
  /** Operations of one namespace waiting for their turn; one more is refused at once. */
  queued: number;
  /** Longest an operation waits for its turn, in ms; then it is refused. */
  waitMs: number;
}

export const DEFAULT_ADMISSION_LIMITS: Readonly<AdmissionLimits> = {
  concurrent: 8,
  queued: 10_000,
  waitMs: 60_000,
};

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

export class NamespaceAdmission {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Waiter[]>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** Runs `work` once the namespace has a free place; throws when its queue is full or the wait too long. */
  async run<T>(namespace: number, work: () => Promise<T>): Promise<T> {
    if (this.limits.concurrent <= 0) return work();
    const entered = this.enter(namespace);
    if (entered !== undefined) await entered;
    try {
      return await work();
    } finally {
      this.leave(namespace);
    }
  }

  private enter(namespace: number): Promise<void> | undefined {
    const running = this.running.get(namespace) ?? 0;
    const queue = this.waiting.get(namespace);
    if (running < this.limits.concurrent && (queue === undefined || queue.length === 0)) {
      this.running.set(namespace, running + 1);
      return undefined;
    }
    if ((queue?.length ?? 0) >= this.limits.queued) {
      return Promise.reject(this.tooMany(namespace, `${this.limits.queued} are waiting already`));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          const list = this.waiting.get(namespace);
          const at = list?.indexOf(waiter) ?? -1;
          if (list !== undefined && at >= 0) list.splice(at, 1);
          reject(this.tooMany(namespace, `this one waited ${this.limits.waitMs} ms for its turn`));
        }, this.limits.waitMs),
      };
      let list = queue;
      if (list === undefined) this.waiting.set(namespace, (list = []));
      list.push(waiter);
    });
  }

  /** Hands the place on to the next waiter of the namespace, if any. */
  private leave(namespace: number): void {
    const queue = this.waiting.get(namespace);
    const next = queue?.shift();
    if (next !== undefined) {
      clearTimeout(next.timer);
      next.admit();
      return;
    }
    if (queue !== undefined) this.waiting.delete(namespace);
    const running = (this.running.get(namespace) ?? 1) - 1;
    if (running > 0) this.running.set(namespace, running);
    else this.running.delete(namespace);
  }

  private tooMany(namespace: number, why: string): DgraphError {
    return new DgraphError(
      `too many concurrent operations in namespace ${namespace}: ${this.limits.concurrent} run` +
        ` at once and ${why}. Retry later, or send fewer requests at a time.`,
      "ErrorInvalidRequest",
      GrpcStatus.RESOURCE_EXHAUSTED,
    );
  }
}
