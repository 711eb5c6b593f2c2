import { useCallback, useState } from "react";
import type { Deployment } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { StatusDot } from "../../components/StatusDot.tsx";
import { absoluteTime, relativeTime } from "../../relative-time.ts";
import { useAsync } from "../../use-async.ts";

const TONE = { active: "ok", previous: "idle", failed: "error" } as const;

/** Deployment history (newest first) with rollback to any earlier good deployment. */
export function DeploymentsTab({ app, onChanged }: { app: string; onChanged: () => void }) {
  const api = useApi();
  const [deployments, reload] = useAsync(useCallback(() => api.listDeployments(app), [api, app]));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const rollback = async (deployment: Deployment) => {
    setBusy(deployment.id);
    setError(null);
    try {
      await api.rollback(app, deployment.id);
      await reload();
      onChanged();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack">
      {error ? <ErrorBanner error={error} context="Rollback failed" /> : null}
      <AsyncView
        state={deployments}
        what="deployments"
        onRetry={reload}
        isEmpty={(list) => list.length === 0}
        empty={<p>Not deployed yet. Use the deploy command on the Overview tab, or the GitHub Action.</p>}
      >
        {(list) => (
          <table className="table">
            <caption className="sr-only">Deployments, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">ID</th>
                <th scope="col">When</th>
                <th scope="col">Source</th>
                <th scope="col">Functions / message</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.id}>
                  <td>
                    <StatusDot tone={TONE[d.status]} label={d.status} /> {d.status}
                  </td>
                  <td>
                    <code>{d.id}</code>
                  </td>
                  <td>
                    <time dateTime={d.createdAt} title={absoluteTime(d.createdAt)}>
                      {relativeTime(d.createdAt)}
                    </time>
                  </td>
                  <td>{d.source}</td>
                  <td>
                    {d.functions.length ? d.functions.join(", ") : null}
                    {d.message ? (
                      <div className={d.status === "failed" ? "error-text" : "muted"}>{d.message}</div>
                    ) : null}
                  </td>
                  <td>
                    {d.status === "previous" ? (
                      <button
                        type="button"
                        className="secondary small"
                        disabled={busy !== null}
                        onClick={() => rollback(d)}
                      >
                        {busy === d.id ? "Rolling back…" : "Roll back to this"}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </AsyncView>
    </div>
  );
}
