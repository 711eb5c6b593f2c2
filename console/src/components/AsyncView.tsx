import type { ReactNode } from "react";
import type { AsyncState } from "../use-async.ts";
import { ErrorBanner } from "./ErrorBanner.tsx";

interface Props<T> {
  state: AsyncState<T>;
  /** What is loading, e.g. "apps" → "Loading apps…". */
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  onRetry?: () => void;
  children: (data: T) => ReactNode;
}

/** Renders the loading, error, empty or loaded state of one request (every data view has all four). */
export function AsyncView<T>({ state, what, isEmpty, empty, onRetry, children }: Props<T>) {
  if (state.state === "loading") {
    return (
      <p className="muted" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" /> Loading {what}…
      </p>
    );
  }
  if (state.state === "error") {
    return <ErrorBanner error={state.error} onRetry={onRetry} context={`Could not load ${what}`} />;
  }
  if (isEmpty?.(state.data)) return <div className="empty">{empty}</div>;
  return <>{children(state.data)}</>;
}
