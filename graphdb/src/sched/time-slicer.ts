/**
 * Long work on the thread that serves requests runs in slices: `pause()` is called between steps and
 * returns a promise to await (one setImmediate, other work running meanwhile) once the slice has run for
 * `ms`, or undefined while it has not (so the hot path awaits nothing).
 */
export function timeSlicer(ms: number): () => Promise<void> | undefined {
  let sliceEnd = performance.now() + ms;
  return () => {
    if (performance.now() < sliceEnd) return undefined;
    return new Promise<void>((resume) =>
      setImmediate(() => {
        sliceEnd = performance.now() + ms;
        resume();
      }),
    );
  };
}
