import { type FormEvent, useCallback, useState } from "react";
import { useApi } from "../api-context.ts";
import { describeAppStatus } from "../app-status.ts";
import { AsyncView } from "../components/AsyncView.tsx";
import { ErrorBanner } from "../components/ErrorBanner.tsx";
import { SecretBox } from "../components/SecretBox.tsx";
import { StatusDot } from "../components/StatusDot.tsx";
import { routeHref } from "../hash-route.ts";
import { absoluteTime, relativeTime } from "../relative-time.ts";
import { useAsync } from "../use-async.ts";
import { useFormAction } from "../use-form-action.ts";

/** The apps list and the "create app" form (which shows the new app's deploy token once). */
export function AppsPage() {
  const api = useApi();
  const [apps, reload] = useAsync(useCallback(() => api.listApps(), [api]));
  const [name, setName] = useState("");
  const { busy, error, setError, run } = useFormAction();
  const [created, setCreated] = useState<{ name: string; deployToken: string } | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    // The platform validates the name and explains what it accepts; only catch the empty case here.
    if (!trimmed) return setError("Enter a name for the app, e.g. my-app.");
    await run(async () => {
      const result = await api.createApp(trimmed);
      setCreated({ name: result.app.name, deployToken: result.deployToken });
      setName("");
      await reload();
    });
  };

  return (
    <>
      <h1>Apps</h1>
      <form className="inline-form card" onSubmit={create} aria-labelledby="create-app-title">
        <h2 id="create-app-title">Create an app</h2>
        <div className="field">
          <label htmlFor="app-name">App name</label>
          <input
            id="app-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="my-app"
            aria-describedby="app-name-hint"
          />
          <span id="app-name-hint" className="hint">
            Lower-case letters, digits and dashes. It becomes part of the endpoint URL.
          </span>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create app"}
        </button>
        {error ? <ErrorBanner error={error} /> : null}
      </form>

      {created ? (
        <div>
          <SecretBox
            title={`Deploy token for ${created.name}`}
            secret={created.deployToken}
            onDismiss={() => setCreated(null)}
          />
          <p>
            <a href={routeHref({ view: "app", app: created.name, tab: "overview" })}>Open {created.name} →</a>
          </p>
        </div>
      ) : null}

      <AsyncView
        state={apps}
        what="apps"
        onRetry={reload}
        isEmpty={(list) => list.length === 0}
        empty={<p>No apps yet. Create one above, then deploy it with the CLI or the GitHub Action.</p>}
      >
        {(list) => (
          <table className="table">
            <caption className="sr-only">Apps</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Functions</th>
                <th scope="col">Last request</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.map((app) => {
                const status = describeAppStatus(app.status);
                return (
                  <tr key={app.name}>
                    <td>
                      <a href={routeHref({ view: "app", app: app.name, tab: "overview" })}>{app.name}</a>
                    </td>
                    <td>
                      <StatusDot tone={status.tone} label={status.label} /> {status.label}
                    </td>
                    <td>{app.functions.length}</td>
                    <td>
                      {app.lastRequestAt ? (
                        <time dateTime={app.lastRequestAt} title={absoluteTime(app.lastRequestAt)}>
                          {relativeTime(app.lastRequestAt)}
                        </time>
                      ) : (
                        "never"
                      )}
                    </td>
                    <td>
                      <time dateTime={app.createdAt} title={absoluteTime(app.createdAt)}>
                        {relativeTime(app.createdAt)}
                      </time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </AsyncView>
    </>
  );
}
