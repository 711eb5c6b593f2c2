import { type FormEvent, type KeyboardEvent, lazy, Suspense, useCallback, useState } from "react";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { useAsync } from "../../use-async.ts";
import { useFormAction } from "../../use-form-action.ts";
import { FederationPanel } from "./FederationPanel.tsx";
import { GraphQLSchemaEditor } from "./GraphQLSchemaEditor.tsx";

// graphql-js and the language service load with the explorer, not with the console.
const GraphQLExplorer = lazy(() =>
  import("./GraphQLExplorer.tsx").then((m) => ({ default: m.GraphQLExplorer })),
);

const EXAMPLE = `{
  nodes(func: has(dgraph.type), first: 10) {
    uid
    dgraph.type
    expand(_all_)
  }
}`;

/**
 * The app's own graph namespace: its GraphQL schema and explorer, federation, DQL queries, the DQL schema,
 * and drops (with a clear warning).
 */
export function GraphTab({ app }: { app: string }) {
  const api = useApi();
  const [query, setQuery] = useState(EXAMPLE);
  const [result, setResult] = useState<string | null>(null);
  const [queryError, setQueryError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [schema, reloadSchema] = useAsync(useCallback(() => api.graphSchema(app), [api, app]));
  const [drop, setDrop] = useState<null | "data" | "all">(null);
  const [dropped, setDropped] = useState<string | null>(null);
  /** Bumped by a drop (the GraphQL schema may be gone) and by an applied schema (the explorer reloads). */
  const [droppedCount, setDroppedCount] = useState(0);
  const [schemaVersion, setSchemaVersion] = useState(0);

  const run = async (event?: FormEvent) => {
    event?.preventDefault();
    setRunning(true);
    setQueryError(null);
    try {
      setResult(JSON.stringify(await api.graphQuery(app, query), null, 2));
    } catch (err) {
      setResult(null);
      setQueryError((err as Error).message);
    } finally {
      setRunning(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void run(event);
  };

  return (
    <div className="stack">
      <p className="muted">
        This app's own namespace of the platform's graph database: what its <code>graphdb</code> connections
        to <code>localhost</code> read and write. Other apps' data is not visible here.
      </p>
      <GraphQLSchemaEditor
        app={app}
        reloadKey={droppedCount}
        onApplied={() => setSchemaVersion((v) => v + 1)}
      />
      <Suspense
        fallback={
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading the GraphQL explorer…
          </p>
        }
      >
        <GraphQLExplorer app={app} schemaVersion={schemaVersion + droppedCount} />
      </Suspense>
      <FederationPanel app={app} reloadKey={schemaVersion + droppedCount} />
      <form onSubmit={run} className="stack" aria-labelledby="dql-title">
        <h2 id="dql-title">DQL query</h2>
        <label htmlFor="dql-query" className="sr-only">
          DQL query
        </label>
        <textarea
          id="dql-query"
          rows={8}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          spellCheck={false}
          aria-describedby="dql-hint"
        />
        <div className="actions">
          <button type="submit" disabled={running}>
            {running ? "Running…" : "Run query"}
          </button>
          <span id="dql-hint" className="hint">
            Ctrl+Enter runs the query.
          </span>
        </div>
      </form>
      {queryError ? <ErrorBanner error={queryError} context="Query failed" /> : null}
      {result !== null ? (
        <section aria-label="Query result">
          <pre className="result">{result}</pre>
        </section>
      ) : null}

      <section aria-labelledby="schema-title">
        <div className="section-head">
          <h2 id="schema-title">Schema</h2>
          <button type="button" className="secondary small" onClick={reloadSchema}>
            Reload schema
          </button>
        </div>
        <AsyncView
          state={schema}
          what="schema"
          onRetry={reloadSchema}
          isEmpty={(s) => s.schema.length === 0 && s.types.length === 0}
          empty={<p>The schema is empty. The app's functions (an alter through its connection) define it.</p>}
        >
          {(s) => (
            <>
              <table className="table schema">
                <caption className="sr-only">Predicates</caption>
                <thead>
                  <tr>
                    <th scope="col">Predicate</th>
                    <th scope="col">Type</th>
                    <th scope="col">Index</th>
                    <th scope="col">Flags</th>
                  </tr>
                </thead>
                <tbody>
                  {s.schema.map((p) => (
                    <tr key={p.predicate}>
                      <td>
                        <code>{p.predicate}</code>
                      </td>
                      <td>{p.list ? `[${p.type ?? "default"}]` : (p.type ?? "default")}</td>
                      <td>{p.index ? (p.tokenizer ?? []).join(", ") : ""}</td>
                      <td>
                        {[
                          p.reverse && "@reverse",
                          p.upsert && "@upsert",
                          p.count && "@count",
                          p.lang && "@lang",
                        ]
                          .filter(Boolean)
                          .join(" ")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {s.types.length ? (
                <>
                  <h3>Types</h3>
                  <ul className="plain">
                    {s.types.map((t) => (
                      <li key={t.name}>
                        <code>{t.name}</code>{" "}
                        <span className="muted">{t.fields.map((f) => f.name).join(", ")}</span>
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </>
          )}
        </AsyncView>
      </section>

      <GraphExport app={app} />

      <section className="danger-zone" aria-labelledby="drop-title">
        <h2 id="drop-title">Drop data</h2>
        <p>Deletes every node and edge of this app's graph. Other apps are not affected.</p>
        <div className="actions">
          <button type="button" className="danger" onClick={() => setDrop("data")}>
            Drop all data…
          </button>
          <button type="button" className="danger" onClick={() => setDrop("all")}>
            Drop data and schema…
          </button>
        </div>
        {dropped ? (
          <p className="success" role="status">
            {dropped}
          </p>
        ) : null}
      </section>
      <ConfirmDialog
        open={drop !== null}
        title={drop === "all" ? "Drop all data and the schema?" : "Drop all data?"}
        confirmLabel={drop === "all" ? "Drop data and schema" : "Drop all data"}
        onClose={() => setDrop(null)}
        onConfirm={async () => {
          await api.graphDrop(app, drop === "all");
          setDropped(drop === "all" ? "All data and the schema were dropped." : "All data was dropped.");
          setResult(null);
          setDroppedCount((n) => n + 1);
          await reloadSchema();
        }}
      >
        <p>
          <strong>This cannot be undone.</strong> Export your data first (DQL query or /export) if you may
          need it.
        </p>
        {drop === "data" ? <p>The schema and types are kept.</p> : null}
      </ConfirmDialog>
    </div>
  );
}

/** Downloads the app's graph as Dgraph's export files (data, DQL schema, GraphQL schema) in a .tar.gz. */
function GraphExport({ app }: { app: string }) {
  const api = useApi();
  const { busy, error, run } = useFormAction();
  const [saved, setSaved] = useState<string | null>(null);
  const download = (format: "rdf" | "json") =>
    run(async () => {
      setSaved(null);
      const { blob, filename } = await api.graphExport(app, format);
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setSaved(filename);
    });
  return (
    <section className="stack" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p className="muted">
        Dgraph's export files of this app's graph: the data, the DQL schema and the GraphQL schema, in one
        .tar.gz. Export before you drop data.
      </p>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => void download("rdf")}>
          Download export (RDF)
        </button>
        <button type="button" disabled={busy} onClick={() => void download("json")}>
          Download export (JSON)
        </button>
      </div>
      {error ? <ErrorBanner error={error} context="Export failed" /> : null}
      {saved ? (
        <p className="success" role="status">
          Downloaded {saved}.
        </p>
      ) : null}
    </section>
  );
}
