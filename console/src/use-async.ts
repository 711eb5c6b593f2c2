import { useCallback, useEffect, useRef, useState } from "react";

/** Loading / loaded / failed state of one request, so every data view renders all three. */
export type AsyncState<T> =
  | { state: "loading" }
  | { state: "ready"; data: T; refreshing: boolean }
  | { state: "error"; error: Error };

/**
 * Runs `load` (pass a `useCallback`) whenever it changes and exposes `reload`, which keeps showing the
 * old data while refreshing. Responses that arrive after a newer request started are dropped.
 */
export function useAsync<T>(load: () => Promise<T>): [AsyncState<T>, () => Promise<void>] {
  const [state, setState] = useState<AsyncState<T>>({ state: "loading" });
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setState((prev) => (prev.state === "ready" ? { ...prev, refreshing: true } : { state: "loading" }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ state: "ready", data, refreshing: false });
    } catch (err) {
      if (mine === generation.current) setState({ state: "error", error: err as Error });
    }
  }, [load]);
  useEffect(() => {
    setState({ state: "loading" });
    void run();
  }, [run]);
  return [state, run];
}
