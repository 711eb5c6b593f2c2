import { useCallback, useState } from "react";
import type { Deployment } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { StatusDot } from "../../components/StatusDot.tsx";
import { absoluteTime, relativeTime } from "../../relative-time.ts";
import { useAsync } from "../../use-async.ts";
import { DeploymentContents } from "./DeploymentContents.tsx";

const TONE = { active: "ok", previous: "idle", failed: "error", preview: "ok" } as const;
function Status({ deployment }: { deployment: Deployment }) {
  const label = deployment.status;
  return (
    <>
      <StatusDot tone={TONE[deployment.status]} label={label} /> {label}
    </>
  );
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

/**
 * The app's deployments, newest first, in two tables: production (what the app's URL serves, with
 * rollback to any earlier good deployment) and previews (one per branch other than main, each at its own
 * URL, removable). Each row shows what the deployment holds: pages and functions.
 */
export function DeploymentsTab({ app, onChanged }: { app: string; onChanged: () => void }) {
  const api = useApi();
  const [deployments, reload] = useAsync(useCallback(() => api.listDeployments(app), [api, app]));
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Deployment | null>(null);

  const [rollingBack, setRollingBack] = useState<Deployment | null>(null);
  /** Runs from the confirmation dialog, which shows a failure itself. */
  const rollback = async (deployment: Deployment) => {
    setBusy(deployment.id);
    try {
      await api.rollback(app, deployment.id);
      await reload();
      onChanged();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack">
      <AsyncView
        state={deployments}
        what="deployments"
        onRetry={reload}
        isEmpty={(list) => list.length === 0}
        empty={<p>Not deployed yet. Use the deploy command on the Overview tab, or the GitHub Action.</p>}
      >
        {(list) => {
          const production = list.filter((d) => d.preview === null);
          const previews = list.filter((d) => d.preview !== null);
          return (
            <>
              <section aria-labelledby="production-heading">
                <h2 id="production-heading">Production</h2>
                {production.length === 0 ? (
                  <p className="muted">Nothing deployed to production yet: deploy from main.</p>
                ) : (
                  <table className="table deployments">
                    <caption className="sr-only">Production deployments, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Status</th>
                        <th scope="col">ID</th>
                        <th scope="col">When</th>
                        <th scope="col">Source</th>
                        <th scope="col">Contents</th>
                        <th scope="col">
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {production.map((d) => (
                        <tr key={d.id}>
                          <td>
                            <Status deployment={d} />
                          </td>
                          <td>
                            <code>{d.id}</code>
                          </td>
                          <td>
                            <When iso={d.createdAt} />
                          </td>
                          <td>
                            {d.source}
                            {d.branch ? <div className="muted">{d.branch}</div> : null}
                          </td>
                          <td>
                            <DeploymentContents deployment={d} />
                          </td>
                          <td>
                            {d.status === "previous" ? (
                              <button
                                type="button"
                                className="secondary small"
                                disabled={busy !== null}
                                onClick={() => setRollingBack(d)}
                              >
                                {busy === d.id ? "Rolling back…" : "Roll back to this…"}
                              </button>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>

              <section aria-labelledby="previews-heading">
                <h2 id="previews-heading">Previews</h2>
                {previews.length === 0 ? (
                  <p className="muted">
                    No previews. A deploy from a branch other than main (the GitHub Action names its branch)
                    becomes that branch's preview, at a URL of its own, beside production.
                  </p>
                ) : (
                  <table className="table deployments">
                    <caption className="sr-only">Preview deployments, one per branch, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Status</th>
                        <th scope="col">Branch</th>
                        <th scope="col">Preview URL</th>
                        <th scope="col">When</th>
                        <th scope="col">Contents</th>
                        <th scope="col">
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {previews.map((d) => (
                        <tr key={d.id}>
                          <td>
                            <Status deployment={d} />
                          </td>
                          <td>
                            <code>{d.branch ?? d.preview}</code>
                            <div className="muted">
                              <code>{d.id}</code> · {d.source}
                            </div>
                          </td>
                          <td>
                            {d.previewUrl ? (
                              <a href={d.previewUrl} target="_blank" rel="noopener noreferrer">
                                {d.previewUrl}
                              </a>
                            ) : (
                              <span className="muted">none</span>
                            )}
                          </td>
                          <td>
                            <When iso={d.createdAt} />
                          </td>
                          <td>
                            <DeploymentContents deployment={d} />
                          </td>
                          <td>
                            {d.status === "preview" ? (
                              <button
                                type="button"
                                className="secondary small"
                                aria-label={`Remove preview ${d.branch ?? d.preview}`}
                                onClick={() => setRemoving(d)}
                              >
                                Remove preview…
                              </button>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            </>
          );
        }}
      </AsyncView>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the preview of ${removing?.branch ?? removing?.preview ?? ""}?`}
        confirmLabel="Remove preview"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await api.removeDeployment(app, removing.id);
          await reload();
        }}
      >
        <p>
          {removing?.previewUrl ?? "Its URL"} stops answering, pages and functions alike. Production is not
          affected; deploying the branch again makes a new preview.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={rollingBack !== null}
        title={`Roll production back to ${rollingBack?.id ?? ""}?`}
        confirmLabel="Roll back"
        onClose={() => setRollingBack(null)}
        onConfirm={async () => {
          if (rollingBack) await rollback(rollingBack);
        }}
      >
        <p>
          The app's URL switches at once to this deployment's functions and pages; calls in flight finish on
          the current one. It stays listed, and can be made live again the same way.
        </p>
      </ConfirmDialog>
    </div>
  );
}
