/**
 * `items.sort(compare)` for arrays large enough that one sort would hold the thread (100k keys: tens of
 * milliseconds), with `pause` between steps: runs sorted natively, then merged pass by pass. Stable.
 */
export async function sortInSlices<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  pause: () => Promise<void> | undefined,
): Promise<T[]> {
  const n = items.length;
  if (n <= RUN) return items.sort(compare);
  let from = items;
  for (let start = 0; start < n; start += RUN) {
    const run = from.slice(start, start + RUN).sort(compare);
    for (let i = 0; i < run.length; i++) from[start + i] = run[i] as T;
    const paused = pause();
    if (paused !== undefined) await paused;
  }
  let to = new Array<T>(n);
  for (let width = RUN; width < n; width *= 2) {
    let moved = 0;
    for (let left = 0; left < n; left += 2 * width) {
      const mid = Math.min(left + width, n);
      const end = Math.min(left + 2 * width, n);
      let i = left;
      let j = mid;
      let k = left;
      while (i < mid && j < end)
        to[k++] = compare(from[j] as T, from[i] as T) < 0 ? (from[j++] as T) : (from[i++] as T);
      while (i < mid) to[k++] = from[i++] as T;
      while (j < end) to[k++] = from[j++] as T;
      moved += end - left;
      if (moved >= STEP) {
        moved = 0;
        const paused = pause();
        if (paused !== undefined) await paused;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Elements sorted natively in one go. */
const RUN = 4096;
/** Elements merged between checks of the clock. */
const STEP = 16_384;
