import { type FormEvent, useCallback, useRef, useState } from "react";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { absoluteTime, relativeTime } from "../../relative-time.ts";
import { useAsync } from "../../use-async.ts";
import { useFormAction } from "../../use-form-action.ts";

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * Environment variables (secrets for connection placeholders). Values are write-only: the server
 * returns them masked, and the form forgets the clear value as soon as it is saved.
 */
export function EnvTab({ app }: { app: string }) {
  const api = useApi();
  const [env, reload] = useAsync(useCallback(() => api.listEnv(app), [api, app]));
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [editing, setEditing] = useState(false);
  const { busy, error, setError, run } = useFormAction();
  const [saved, setSaved] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const valueInput = useRef<HTMLInputElement>(null);

  const startEdit = (varName: string) => {
    setName(varName);
    setValue("");
    setEditing(true);
    setError(null);
    setSaved(null);
    valueInput.current?.focus();
  };

  const reset = () => {
    setName("");
    setValue("");
    setEditing(false);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!ENV_NAME.test(trimmed)) {
      return setError("Names use upper-case letters, digits and underscores, e.g. TRELLIS_OPENAI_API_KEY.");
    }
    if (value === "") return setError("Enter a value.");
    await run(async () => {
      await api.setEnv(app, trimmed, value);
      reset();
      setSaved(trimmed);
      await reload();
    });
  };

  return (
    <div className="stack">
      <p>
        Secrets for your app's connections. A placeholder <code>{"{{API_KEY}}"}</code> on connection{" "}
        <code>openai</code> reads <code>TRELLIS_OPENAI_API_KEY</code>. New values apply to the next request.
      </p>
      <AsyncView state={env} what="environment variables" onRetry={reload}>
        {({ vars, required }) => (
          <>
            {required.length ? (
              <section aria-labelledby="required-title">
                <h2 id="required-title">Needed by this deployment</h2>
                <ul className="plain">
                  {required.map((r) => (
                    <li key={r.variable}>
                      <code>{r.variable}</code> <span className="muted">({r.connection} connection)</span>{" "}
                      {r.set ? (
                        <span className="tag ok">set</span>
                      ) : (
                        <>
                          <span className="tag warn">missing</span>{" "}
                          <button
                            type="button"
                            className="secondary small"
                            onClick={() => startEdit(r.variable)}
                          >
                            Set {r.variable}
                          </button>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {vars.length === 0 ? (
              <div className="empty">
                <p>No environment variables yet. Add one below.</p>
              </div>
            ) : (
              <table className="table">
                <caption className="sr-only">Environment variables</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Value</th>
                    <th scope="col">Updated</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {vars.map((v) => (
                    <tr key={v.name}>
                      <td>
                        <code>{v.name}</code>
                      </td>
                      <td>
                        <code className="masked">{v.maskedValue}</code>
                        <span className="sr-only"> (value hidden)</span>
                      </td>
                      <td>
                        <time dateTime={v.updatedAt} title={absoluteTime(v.updatedAt)}>
                          {relativeTime(v.updatedAt)}
                        </time>
                      </td>
                      <td>
                        <div className="row-actions">
                          <button type="button" className="secondary small" onClick={() => startEdit(v.name)}>
                            Edit<span className="sr-only"> {v.name}</span>
                          </button>
                          <button type="button" className="danger small" onClick={() => setDeleting(v.name)}>
                            Delete<span className="sr-only"> {v.name}</span>
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </AsyncView>

      <form className="card inline-form" onSubmit={save} aria-labelledby="env-form-title">
        <h2 id="env-form-title">{editing ? `Change ${name}` : "Add a variable"}</h2>
        <div className="field">
          <label htmlFor="env-name">Name</label>
          <input
            id="env-name"
            value={name}
            readOnly={editing}
            onChange={(e) => setName(e.target.value.toUpperCase())}
            placeholder="TRELLIS_OPENAI_API_KEY"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="env-value">Value</label>
          <input
            id="env-value"
            ref={valueInput}
            type="password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="new-password"
            placeholder={editing ? "new value" : ""}
          />
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </button>
        {editing ? (
          <button type="button" className="secondary" onClick={reset}>
            Cancel
          </button>
        ) : null}
        {error ? <ErrorBanner error={error} /> : null}
        {saved ? (
          <p className="success" role="status">
            Saved {saved}.
          </p>
        ) : null}
      </form>

      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ?? ""}?`}
        confirmLabel="Delete variable"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await api.deleteEnv(app, deleting);
          await reload();
        }}
      >
        <p>Connections that use it will fail until it is set again.</p>
      </ConfirmDialog>
    </div>
  );
}
