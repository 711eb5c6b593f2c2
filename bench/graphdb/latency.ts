/** Timing of repeated operations: warm-up, a bounded measuring loop, percentiles and throughput. */

export interface LatencyStats {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** Operations per second over the measured loop (sequential, one client). */
  opsPerSec: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(durationsMs: number[], wallMs: number): LatencyStats {
  const sorted = Float64Array.from(durationsMs).sort();
  const sum = durationsMs.reduce((a, b) => a + b, 0);
  return {
    samples: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sum / sorted.length,
    maxMs: sorted[sorted.length - 1],
    opsPerSec: (sorted.length * 1000) / wallMs,
  };
}

export interface MeasureOptions {
  warmup: number;
  iterations: number;
  /** Stop measuring (and warming up) after this long, once `minIterations` are done. */
  budgetMs: number;
  /** Stop warming up after this long (default budgetMs / 4). */
  warmupMs?: number;
  minIterations: number;
}

/**
 * Runs `op(i)` for i = 0.. (the index selects the pre-generated parameters), first `warmup` times untimed, then
 * up to `iterations` times timed one by one.
 */
export async function measure(op: (i: number) => Promise<unknown>, o: MeasureOptions): Promise<LatencyStats> {
  let i = 0;
  const warmStart = performance.now();
  for (let w = 0; w < o.warmup; w++, i++) {
    await op(i);
    if (performance.now() - warmStart > o.budgetMs / 4 && w >= 2) break;
  }
  const durations: number[] = [];
  const start = performance.now();
  for (let n = 0; n < o.iterations; n++, i++) {
    const t0 = performance.now();
    await op(i);
    durations.push(performance.now() - t0);
    if (n + 1 >= o.minIterations && performance.now() - start > o.budgetMs) break;
  }
  return summarize(durations, performance.now() - start);
}

/**
 * Like `measure`, for several ways of asking the same thing, taken in turns (a, b, c, a, b, c, …) so that
 * every way sees the same machine: the same warm JIT, caches, GC pressure and background load. Comparing
 * ways measured one after the other favours whichever runs later on a warmer process. Each way's op gets
 * the same parameter index in a round.
 */
export async function measureInTurns(
  ops: readonly ((i: number) => Promise<unknown>)[],
  o: MeasureOptions,
): Promise<LatencyStats[]> {
  let i = 0;
  const warmStart = performance.now();
  for (let w = 0; w < o.warmup; w++, i++) {
    for (const op of ops) await op(i);
    if (performance.now() - warmStart > (o.warmupMs ?? o.budgetMs / 4) && w >= 2) break;
  }
  const durations = ops.map((): number[] => []);
  const wall = ops.map(() => 0);
  const start = performance.now();
  for (let n = 0; n < o.iterations; n++, i++) {
    for (let k = 0; k < ops.length; k++) {
      const t0 = performance.now();
      await ops[k](i);
      const d = performance.now() - t0;
      durations[k].push(d);
      wall[k] += d;
    }
    if (n + 1 >= o.minIterations && performance.now() - start > o.budgetMs * ops.length) break;
  }
  return durations.map((d, k) => summarize(d, wall[k]));
}

export interface RateResult {
  items: number;
  seconds: number;
  perSec: number;
}

export function rate(items: number, ms: number): RateResult {
  return { items, seconds: ms / 1000, perSec: (items * 1000) / ms };
}
