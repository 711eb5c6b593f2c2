/**
 * "One app can never slow down another", measured: light load on a neighbour app (one request at a time,
 * a short pause between) while an attack runs against another app of the same platform, with the
 * latencies of the neighbour's requests.
 */

export interface NeighbourReport<T> {
  /** What the attack returned. */
  result: T;
  /** The neighbour's request latencies in ms, in order. */
  latencies: number[];
  p99: number;
  /** Answers of the neighbour that were not the expected one (should be none). */
  failures: string[];
}

/** `neighbour` answers true when its request got the expected answer, else what it got instead. */
export async function duringNeighbourLoad<T>(
  neighbour: () => Promise<true | string>,
  attack: () => Promise<T>,
  { pauseMs = 10, minRequests = 20 } = {},
): Promise<NeighbourReport<T>> {
  const latencies: number[] = [];
  const failures: string[] = [];
  let attacking = true;
  const load = (async () => {
    while (attacking || latencies.length < minRequests) {
      const started = performance.now();
      const answer = await neighbour().catch((e: Error) => e.message);
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
  return { result: result as T, latencies, p99: percentile(latencies, 99), failures };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))] ?? 0;
}
