import { Fragment, useCallback, useEffect, useRef, useState } from "react";
import type { App, Execution } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { StatusDot } from "../../components/StatusDot.tsx";
import { absoluteTime, relativeTime } from "../../relative-time.ts";

const REFRESH_MS = 5000;

type StatusFilter = "" | "success" | "error";

interface Loaded {
  executions: Execution[];
  nextCursor: string | null;
}

/** Keeps pages already loaded with "Load more" when the first page refreshes. */
function mergeFirstPage(fresh: Loaded, previous: Loaded | null): Loaded {
  if (!previous) return fresh;
  const seen = new Set(fresh.executions.map((e) => e.executionId));
  const oldest = fresh.executions.at(-1)?.startedAt;
  const older = previous.executions.filter(
    (e) => !seen.has(e.executionId) && oldest !== undefined && e.startedAt <= oldest,
  );
  return {
    executions: [...fresh.executions, ...older],
    nextCursor: older.length ? previous.nextCursor : fresh.nextCursor,
  };
}

/** Function execution history: auto-refreshing, filterable, paged by cursor, rows expand to logs. */
export function ActivityTab({ app }: { app: App }) {
  const api = useApi();
  const [status, setStatus] = useState<StatusFilter>("");
  const [fn, setFn] = useState("");
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [, setTick] = useState(0);
  const generation = useRef(0);

  const filter = { status: status || undefined, function: fn || undefined } as const;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `filter` is derived from status and fn
  const refresh = useCallback(
    async (keepOlder: boolean) => {
      const mine = ++generation.current;
      setRefreshing(true);
      try {
        const page = await api.listActivity(app.name, filter);
        if (mine !== generation.current) return;
        setData((prev) => (keepOlder ? mergeFirstPage(page, prev) : page));
        setError(null);
      } catch (err) {
        if (mine === generation.current) setError(err as Error);
      } finally {
        if (mine === generation.current) setRefreshing(false);
      }
    },
    [api, app.name, status, fn],
  );

  useEffect(() => {
    setData(null);
    void refresh(false);
  }, [refresh]);

  useEffect(() => {
    if (!autoRefresh) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void refresh(true);
      setTick((t) => t + 1);
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [autoRefresh, refresh]);

  const loadMore = async () => {
    if (!data?.nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await api.listActivity(app.name, { ...filter, before: data.nextCursor });
      setData((prev) => ({
        executions: [...(prev?.executions ?? []), ...page.executions],
        nextCursor: page.nextCursor,
      }));
    } catch (err) {
      setError(err as Error);
    } finally {
      setLoadingMore(false);
    }
  };

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="stack">
      <div className="toolbar">
        <div className="field">
          <label htmlFor="activity-status">Status</label>
          <select
            id="activity-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
          >
            <option value="">All</option>
            <option value="success">Success</option>
            <option value="error">Error</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-function">Function</label>
          <select id="activity-function" value={fn} onChange={(e) => setFn(e.target.value)}>
            <option value="">All functions</option>
            {app.functions.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={autoRefresh} onChange={(e) => setAutoRefresh(e.target.checked)} />
          Refresh every 5 s
        </label>
        <button type="button" className="secondary" onClick={() => refresh(true)} disabled={refreshing}>
          {refreshing ? "Refreshing…" : "Refresh"}
        </button>
      </div>

      {error ? (
        <ErrorBanner error={error} context="Could not load activity" onRetry={() => refresh(true)} />
      ) : null}

      {data === null ? (
        error ? null : (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading activity…
          </p>
        )
      ) : data.executions.length === 0 ? (
        <div className="empty">
          <p>
            {status || fn
              ? "No executions match these filters."
              : "No executions yet. Calls to the app's endpoint show up here within seconds."}
          </p>
        </div>
      ) : (
        <table className="table activity">
          <caption className="sr-only">Function executions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Status</span>
              </th>
              <th scope="col">Function</th>
              <th scope="col">Duration</th>
              <th scope="col">When</th>
              <th scope="col">Execution ID</th>
            </tr>
          </thead>
          <tbody>
            {data.executions.map((e) => {
              const open = expanded.has(e.executionId);
              return (
                <Fragment key={e.executionId}>
                  <tr className={`execution execution-${e.status}`}>
                    <td>
                      <StatusDot tone={e.status === "success" ? "ok" : "error"} label={e.status} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-expanded={open}
                        aria-controls={`logs-${e.executionId}`}
                        onClick={() => toggle(e.executionId)}
                      >
                        <span aria-hidden="true">{open ? "▾" : "▸"}</span> {e.function}
                      </button>
                      {e.lambda ? (
                        <>
                          {" "}
                          <span className="tag" title="called by the graph database for this @lambda field">
                            @lambda {e.lambda}
                          </span>
                        </>
                      ) : null}
                    </td>
                    <td className="num">{e.durationMs} ms</td>
                    <td>
                      <time dateTime={e.startedAt} title={absoluteTime(e.startedAt)}>
                        {relativeTime(e.startedAt)}
                      </time>
                    </td>
                    <td>
                      <code>{e.executionId}</code>
                    </td>
                  </tr>
                  {open ? (
                    <tr id={`logs-${e.executionId}`} className="logs-row">
                      <td colSpan={5}>
                        {e.error ? <p className="error-text">Error: {e.error}</p> : null}
                        {e.logs.length ? (
                          <ol className="logs">
                            {e.logs.map((log, i) => (
                              // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no identity of their own
                              <li key={i} className={`log-${log.level}`}>
                                <span className="log-level">{log.level}</span> {log.message}
                              </li>
                            ))}
                          </ol>
                        ) : (
                          <p className="muted">No log lines.</p>
                        )}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
      {data?.nextCursor ? (
        <button type="button" className="secondary" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </div>
  );
}
