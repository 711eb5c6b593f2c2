/**
 * "One app can never slow down another", as a test can hold it on a loaded 2-core machine: light load on a
 * neighbour app (one request at a time, a short pause between) while an attack runs against another app of
 * the same platform. Every neighbour request must get its expected answer, and within `answerWithinMs`
 * (generous: a frozen platform misses it by tens of seconds, a busy machine never does). The latency
 * figures themselves are measured by `bench/platform/noisy-neighbour.ts`, not asserted here.
 */

export interface NeighbourReport<T> {
  /** What the attack returned. */
  result: T;
  /** The neighbour's request latencies in ms, in order. */
  latencies: number[];
  /** Answers of the neighbour that were not the expected one, or came too late (should be none). */
  failures: string[];
}

/** `neighbour` answers true when its request got the expected answer, else what it got instead. */
export async function duringNeighbourLoad<T>(
  neighbour: () => Promise<true | string>,
  attack: () => Promise<T>,
  { pauseMs = 10, minRequests = 20, answerWithinMs = 10_000 } = {},
): Promise<NeighbourReport<T>> {
  const latencies: number[] = [];
  const failures: string[] = [];
  let attacking = true;
  const load = (async () => {
    while (attacking || latencies.length < minRequests) {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${answerWithinMs} ms`), answerWithinMs);
      });
      const answer = await Promise.race([neighbour().catch((e: Error) => e.message), late]);
      clearTimeout(timer);
      latencies.push(performance.now() - started);
      if (answer !== true) failures.push(answer);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  let result: T | undefined;
  let error: unknown;
  try {
    result = await attack();
  } catch (e) {
    error = e;
  }
  attacking = false;
  await load;
  if (error !== undefined) throw error;
  return { result: result as T, latencies, failures };
}
