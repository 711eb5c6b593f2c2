import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import { ApiError, type GraphQLSchemaState, type SchemaProblem } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { CodeEditor } from "../../components/CodeEditor.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { useAsync } from "../../use-async.ts";
import { useFormAction } from "../../use-form-action.ts";

const PLACEHOLDER = `type Person {
  id: ID!
  name: String! @search(by: [term])
  friends: [Person] @hasInverse(field: friends)
}`;

/** "line 3: Type T; Field f: …" (or the bare message when Dgraph gives no position). */
export function problemLabel(problem: SchemaProblem): string {
  return problem.line ? `line ${problem.line}: ${problem.message}` : problem.message;
}

interface Props {
  app: string;
  /** Bumped by the tab when the schema may have changed elsewhere (a drop). */
  reloadKey: number;
  /** After a schema is applied (the explorer loads the new one). */
  onApplied: () => void;
}

/** The app's GraphQL schema: edit the SDL, apply it, see Dgraph's refusals at their lines, read the generated API. */
export function GraphQLSchemaEditor({ app, reloadKey, onApplied }: Props) {
  const api = useApi();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey asks for a fresh load
  const load = useCallback(() => api.graphqlSchema(app), [api, app, reloadKey]);
  const [state] = useAsync(load);
  const [sdl, setSdl] = useState("");
  const [generated, setGenerated] = useState<string | null>(null);
  const [problems, setProblems] = useState<SchemaProblem[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const action = useFormAction();
  const loaded = useRef<GraphQLSchemaState | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);

  // Each load fills the editor once (a refusal keeps the user's text until the next load).
  useEffect(() => {
    if (state.state !== "ready" || loaded.current === state.data) return;
    loaded.current = state.data;
    setSdl(state.data.schema ?? "");
    setGenerated(state.data.generatedSchema);
    setProblems([]);
  }, [state]);

  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    setApplied(null);
    setProblems([]);
    return action.run(
      async () => {
        const res = await api.setGraphqlSchema(app, sdl);
        setGenerated(res.generatedSchema);
        setApplied("Schema applied. The GraphQL API below serves it now.");
        onApplied();
      },
      (err) => {
        if (err instanceof ApiError && err.problems.length > 0) {
          setProblems(err.problems);
          return "The schema was not applied; the previous one keeps serving.";
        }
        return (err as Error).message;
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void apply(event);
  };

  /** Puts the caret at the start of a problem's line. */
  const goToLine = (line: number) => {
    const textarea = editor.current;
    if (!textarea) return;
    let offset = 0;
    for (let n = 1; n < line; n++) {
      const next = sdl.indexOf("\n", offset);
      if (next < 0) break;
      offset = next + 1;
    }
    textarea.focus();
    textarea.setSelectionRange(offset, offset);
  };

  const marked = new Set(problems.flatMap((p) => (p.line ? [p.line] : [])));

  return (
    <section className="stack" aria-labelledby="gql-schema-title">
      <h2 id="gql-schema-title">GraphQL schema</h2>
      <AsyncView state={state} what="GraphQL schema">
        {() => (
          <form onSubmit={apply} className="stack">
            <p className="muted">
              Dgraph's GraphQL SDL: types with <code>@search</code>, <code>@id</code>,{" "}
              <code>@hasInverse</code>… Applying it generates the queries and mutations of the explorer below,
              for this app's namespace only.
            </p>
            <label htmlFor="gql-schema">GraphQL schema (SDL)</label>
            <CodeEditor
              id="gql-schema"
              rows={12}
              value={sdl}
              onChange={setSdl}
              markedLines={marked}
              placeholder={PLACEHOLDER}
              onKeyDown={onKeyDown}
              textareaRef={editor}
              describedBy={problems.length ? "gql-schema-problems" : "gql-schema-hint"}
            />
            <div className="actions">
              <button type="submit" disabled={action.busy}>
                {action.busy ? "Applying…" : "Apply schema"}
              </button>
              <span id="gql-schema-hint" className="hint">
                Ctrl+Enter applies it.
              </span>
            </div>
            {action.error ? <ErrorBanner error={action.error} context="Schema refused" /> : null}
            {problems.length ? (
              <ul id="gql-schema-problems" className="problems" aria-label="Schema problems">
                {problems.map((p, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: problems are shown as received, never reordered
                  <li key={i}>
                    {p.line ? (
                      <button type="button" className="link" onClick={() => goToLine(p.line ?? 1)}>
                        {problemLabel(p)}
                      </button>
                    ) : (
                      problemLabel(p)
                    )}
                  </li>
                ))}
              </ul>
            ) : null}
            {applied ? (
              <p className="success" role="status">
                {applied}
              </p>
            ) : null}
            {generated ? (
              <details className="generated">
                <summary>Generated schema</summary>
                <pre className="result">{generated}</pre>
              </details>
            ) : (
              <p className="muted">
                No GraphQL schema yet: the generated API appears here once one is applied.
              </p>
            )}
          </form>
        )}
      </AsyncView>
    </section>
  );
}
