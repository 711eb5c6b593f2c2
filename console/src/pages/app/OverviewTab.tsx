import { useState } from "react";
import type { App } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { describeAppStatus } from "../../app-status.ts";
import { CodeBlock } from "../../components/CodeBlock.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { SecretBox } from "../../components/SecretBox.tsx";
import { SiteThumbnail } from "../../components/SiteThumbnail.tsx";
import { navigate } from "../../hash-route.ts";
import { absoluteTime, relativeTime } from "../../relative-time.ts";

/**
 * The site (its URL and a live thumbnail, when the live deployment has a front end), the GraphQL
 * endpoint, a ready-to-paste curl call, the deploy command, and deleting the app.
 */
export function OverviewTab({ app }: { app: App }) {
  const api = useApi();
  const [token, setToken] = useState<string | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const status = describeAppStatus(app.status);
  const origin = window.location.origin;
  const curl = [
    `curl -X POST ${app.url} \\`,
    `  -H 'Authorization: Bearer <API_KEY>' \\`,
    `  -H 'Content-Type: application/json' \\`,
    // The operation is the platform's, made from the deployed schema; quoted for a POSIX shell.
    `  -d '${JSON.stringify({ query: app.exampleOperation ?? "{ __typename }" }).replaceAll("'", "'\\''")}'`,
  ].join("\n");
  const deploy = `trellis deploy --url ${origin} --app ${app.name} --token ${token ?? "<deploy token>"}`;

  const rotate = async () => {
    setRotateError(null);
    setToken(await api.rotateDeployToken(app.name));
  };

  return (
    <div className="stack">
      <dl className="facts">
        <dt>Status</dt>
        <dd>{status.label}</dd>
        {app.siteUrl ? (
          <>
            <dt>Site</dt>
            <dd className="site">
              <a href={app.siteUrl} target="_blank" rel="noopener noreferrer">
                {app.siteUrl}
              </a>
              <SiteThumbnail url={app.siteUrl} label={`Open ${app.name}'s site in a new tab`} />
            </dd>
          </>
        ) : null}
        <dt>Endpoint</dt>
        <dd>
          <CodeBlock code={app.url} label="Endpoint" />
        </dd>
        <dt>Functions</dt>
        <dd>{app.functions.length ? app.functions.join(", ") : "none yet (deploy the app)"}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={app.createdAt} title={absoluteTime(app.createdAt)}>
            {relativeTime(app.createdAt)}
          </time>
        </dd>
      </dl>

      <section>
        <h2>Call it</h2>
        <p>
          Create a key in <a href={`#/apps/${encodeURIComponent(app.name)}/keys`}>API Keys</a> and put it in
          place of <code>&lt;API_KEY&gt;</code>.
        </p>
        <CodeBlock code={curl} label="Curl example" />
      </section>

      <section>
        <h2>Deploy</h2>
        <p>From the app's folder, after building it:</p>
        <CodeBlock code={deploy} label="Deploy command" />
        {token ? (
          <SecretBox title="New deploy token" secret={token} onDismiss={() => setToken(null)} />
        ) : (
          <p>
            Lost the deploy token?{" "}
            <button type="button" className="secondary small" onClick={() => setConfirmRotate(true)}>
              Rotate deploy token…
            </button>{" "}
            (the old one stops working).
          </p>
        )}
        {rotateError ? <ErrorBanner error={rotateError} /> : null}
      </section>

      <section className="danger-zone">
        <h2>Delete app</h2>
        <p>Removes the app, its deployments, keys, environment variables and activity.</p>
        <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
          Delete app…
        </button>
      </section>
      <ConfirmDialog
        open={confirmRotate}
        title={`Rotate the deploy token of ${app.name}?`}
        confirmLabel="Rotate deploy token"
        onClose={() => setConfirmRotate(false)}
        onConfirm={rotate}
      >
        <p>
          The current token stops working at once: every workflow and script that deploys with it fails until
          it has the new one (in GitHub, the repository secret the deploy action reads).
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete ${app.name}?`}
        confirmLabel="Delete app"
        onClose={() => setConfirmDelete(false)}
        onConfirm={async () => {
          await api.deleteApp(app.name);
          navigate({ view: "apps" });
        }}
      >
        <p>This cannot be undone. Its endpoint stops answering and its API keys stop working.</p>
      </ConfirmDialog>
    </div>
  );
}
