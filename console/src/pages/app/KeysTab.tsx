import { type FormEvent, useCallback, useState } from "react";
import type { ApiKey } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { SecretBox } from "../../components/SecretBox.tsx";
import { absoluteTime, relativeTime } from "../../relative-time.ts";
import { useAsync } from "../../use-async.ts";
import { useFormAction } from "../../use-form-action.ts";

function When({ iso, fallback }: { iso: string | null; fallback: string }) {
  if (!iso) return <>{fallback}</>;
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

/** API keys for the app's GraphQL endpoint: create (secret shown once), list, revoke. */
export function KeysTab({ app }: { app: string }) {
  const api = useApi();
  const [keys, reload] = useAsync(useCallback(() => api.listKeys(app), [api, app]));
  const [name, setName] = useState("");
  const { busy, error, setError, run } = useFormAction();
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError("Give the key a name that says who uses it, e.g. web-frontend.");
    await run(async () => {
      const created = await api.createKey(app, trimmed);
      setSecret({ name: created.key.name, secret: created.secret });
      setName("");
      await reload();
    });
  };

  return (
    <div className="stack">
      <p>
        Clients send a key as <code>Authorization: Bearer &lt;key&gt;</code>. Revoked keys stop working at
        once.
      </p>
      <form className="card inline-form" onSubmit={create} aria-labelledby="key-form-title">
        <h2 id="key-form-title">Create a key</h2>
        <div className="field">
          <label htmlFor="key-name">Key name</label>
          <input
            id="key-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="web-frontend"
            autoComplete="off"
          />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create key"}
        </button>
        {error ? <ErrorBanner error={error} /> : null}
      </form>
      {secret ? (
        <SecretBox
          title={`API key ${secret.name}`}
          secret={secret.secret}
          onDismiss={() => setSecret(null)}
        />
      ) : null}
      <AsyncView
        state={keys}
        what="API keys"
        onRetry={reload}
        isEmpty={(list) => list.length === 0}
        empty={<p>No API keys yet. Without one, nobody can call the endpoint.</p>}
      >
        {(list) => (
          <table className="table">
            <caption className="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <tr key={key.id} className={key.revokedAt ? "revoked" : undefined}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <When iso={key.createdAt} fallback="" />
                  </td>
                  <td>
                    <When iso={key.lastUsedAt} fallback="never" />
                  </td>
                  <td>
                    {key.revokedAt ? (
                      <>
                        revoked <When iso={key.revokedAt} fallback="" />
                      </>
                    ) : (
                      <button type="button" className="danger small" onClick={() => setRevoking(key)}>
                        Revoke<span className="sr-only"> {key.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </AsyncView>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke key ${revoking?.name ?? ""}?`}
        confirmLabel="Revoke key"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await api.revokeKey(app, revoking.id);
          await reload();
        }}
      >
        <p>This cannot be undone. Clients using this key get 401 from the next request on.</p>
      </ConfirmDialog>
    </div>
  );
}
