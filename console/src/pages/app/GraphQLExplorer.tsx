/**
 * The GraphQL explorer of an app's generated API: a query editor with autocomplete from the schema
 * (introspected from the server), variables, Run (Ctrl/Cmd+Enter), the result, the API's docs and the
 * last operations run. Loaded on demand: graphql-js stays out of the console's main bundle.
 */
import {
  buildClientSchema,
  type GraphQLSchema,
  getIntrospectionQuery,
  type IntrospectionQuery,
} from "graphql";
import { type FormEvent, type KeyboardEvent, useCallback, useLayoutEffect, useRef, useState } from "react";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { CodeEditor } from "../../components/CodeEditor.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { type Suggestions, suggestionsAt } from "../../graphql/autocomplete.ts";
import {
  clearHistory,
  type HistoryEntry,
  historyLabel,
  loadHistory,
  recordHistory,
} from "../../graphql/query-history.ts";
import { absoluteTime, relativeTime } from "../../relative-time.ts";
import { useAsync } from "../../use-async.ts";
import { useFormAction } from "../../use-form-action.ts";
import { GraphQLDocs } from "./GraphQLDocs.tsx";

interface Props {
  app: string;
  /** Changes when a schema was applied or dropped: the schema is introspected again. */
  schemaVersion: number;
}

/** The server's schema, or null when the app has none yet. */
type LoadedSchema = GraphQLSchema | null;

export function GraphQLExplorer({ app, schemaVersion }: Props) {
  const api = useApi();
  // biome-ignore lint/correctness/useExhaustiveDependencies: schemaVersion asks for a fresh introspection
  const load = useCallback(async (): Promise<LoadedSchema> => {
    const res = await api.graphql(app, { query: getIntrospectionQuery() });
    if (!res.data) {
      const message = res.errors?.[0]?.message ?? "no data";
      if (message.includes("no GraphQL schema")) return null;
      throw new Error(message);
    }
    return buildClientSchema(res.data as unknown as IntrospectionQuery);
  }, [api, app, schemaVersion]);
  const [schema, reload] = useAsync(load);

  return (
    <section className="stack" aria-labelledby="gql-explorer-title">
      <div className="section-head">
        <h2 id="gql-explorer-title">GraphQL explorer</h2>
        <button type="button" className="secondary small" onClick={reload}>
          Reload API
        </button>
      </div>
      <AsyncView
        state={schema}
        what="GraphQL API"
        onRetry={reload}
        isEmpty={(s) => s === null}
        empty={<p>No GraphQL schema yet. Apply one above to get its generated queries and mutations here.</p>}
      >
        {(s) => (s ? <Explorer app={app} schema={s} /> : null)}
      </AsyncView>
    </section>
  );
}

function Explorer({ app, schema }: { app: string; schema: GraphQLSchema }) {
  const api = useApi();
  const [query, setQuery] = useState("");
  const [variables, setVariables] = useState("");
  const [result, setResult] = useState<string | null>(null);
  const [history, setHistory] = useState<HistoryEntry[]>(() => loadHistory(app));
  const [suggestions, setSuggestions] = useState<(Suggestions & { caret: number }) | null>(null);
  const [active, setActive] = useState(0);
  const action = useFormAction();
  const editor = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes after the next render (an accepted suggestion, a picked field). */
  const pendingCaret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null || !editor.current) return;
    pendingCaret.current = null;
    editor.current.focus();
    editor.current.setSelectionRange(caret, caret);
  });

  const suggest = (text: string, caret: number, explicit = false) => {
    const found = suggestionsAt(schema, text, caret, explicit);
    setSuggestions(found ? { ...found, caret } : null);
    setActive(0);
  };

  const insert = (from: number, to: number, text: string) => {
    setQuery(query.slice(0, from) + text + query.slice(to));
    pendingCaret.current = from + text.length;
    setSuggestions(null);
  };

  const accept = (index: number) => {
    const item = suggestions?.items[index];
    if (suggestions && item) insert(suggestions.from, suggestions.to, item.label);
  };

  const run = (event?: FormEvent) => {
    event?.preventDefault();
    setSuggestions(null);
    return action.run(async () => {
      let vars: Record<string, unknown> | null = null;
      if (variables.trim() !== "") {
        try {
          vars = JSON.parse(variables);
        } catch (err) {
          throw new Error(`The variables are not valid JSON: ${(err as Error).message}`);
        }
        if (typeof vars !== "object" || vars === null || Array.isArray(vars)) {
          throw new Error('The variables must be a JSON object, like {"id": "0x1"}.');
        }
      }
      setResult(null);
      const res = await api.graphql(app, { query, variables: vars });
      setResult(JSON.stringify(res, null, 2));
      setHistory(recordHistory(app, query, variables));
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      void run(event);
      return;
    }
    if (event.key === " " && event.ctrlKey) {
      event.preventDefault();
      suggest(query, event.currentTarget.selectionStart, true);
      return;
    }
    if (!suggestions) return;
    const count = suggestions.items.length;
    if (event.key === "ArrowDown") setActive((active + 1) % count);
    else if (event.key === "ArrowUp") setActive((active - 1 + count) % count);
    else if (event.key === "Enter" || event.key === "Tab") accept(active);
    else if (event.key === "Escape") setSuggestions(null);
    else return;
    event.preventDefault();
  };

  const reuse = (entry: HistoryEntry) => {
    setQuery(entry.query);
    setVariables(entry.variables);
    setSuggestions(null);
    pendingCaret.current = entry.query.length;
  };

  const pickField = (name: string) => {
    const caret = editor.current?.selectionStart ?? query.length;
    insert(caret, caret, name);
  };

  return (
    <div className="gql-explorer">
      <div className="stack gql-main">
        <form onSubmit={run} className="stack">
          <label htmlFor="gql-query">GraphQL query</label>
          <CodeEditor
            id="gql-query"
            rows={10}
            value={query}
            placeholder={"{\n  query… (type a field name: suggestions appear; Ctrl+Space asks for them)\n}"}
            onChange={(text) => {
              setQuery(text);
              suggest(text, editor.current?.selectionStart ?? text.length);
            }}
            onKeyDown={onKeyDown}
            onSelect={(e) => {
              if (suggestions && e.currentTarget.selectionStart !== suggestions.caret) setSuggestions(null);
            }}
            onBlur={() => setSuggestions(null)}
            textareaRef={editor}
            describedBy="gql-query-hint"
            suggestions={{
              listId: "gql-suggestions",
              expanded: suggestions !== null,
              activeId: suggestions ? `gql-suggestion-${active}` : undefined,
            }}
          />
          {suggestions ? (
            <div id="gql-suggestions" className="suggestions" role="listbox" aria-label="Suggestions">
              {suggestions.items.map((item, i) => (
                <div
                  key={item.label}
                  id={`gql-suggestion-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  title={item.description || undefined}
                  // Keeps the editor focused (a click would blur it and close the list first).
                  onMouseDown={(e) => {
                    e.preventDefault();
                    accept(i);
                  }}
                >
                  <span className="label">{item.label}</span>
                  {item.detail ? <span className="detail">{item.detail}</span> : null}
                </div>
              ))}
            </div>
          ) : null}
          <label htmlFor="gql-variables">Variables (JSON)</label>
          <CodeEditor
            id="gql-variables"
            rows={3}
            value={variables}
            onChange={setVariables}
            placeholder={'{ "name": "Ada" }'}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void run(e);
            }}
          />
          <div className="actions">
            <button type="submit" disabled={action.busy || query.trim() === ""}>
              {action.busy ? "Running…" : "Run GraphQL"}
            </button>
            <span id="gql-query-hint" className="hint">
              Ctrl+Enter (⌘+Enter) runs it; Tab or Enter takes a suggestion, Esc closes the list.
            </span>
          </div>
        </form>
        {action.error ? <ErrorBanner error={action.error} context="GraphQL request failed" /> : null}
        {result !== null ? (
          <section aria-label="GraphQL result">
            <pre className="result">{result}</pre>
          </section>
        ) : null}
      </div>
      <div className="stack gql-side">
        <GraphQLDocs schema={schema} onPick={pickField} />
        <section className="gql-history" aria-labelledby="gql-history-title">
          <div className="section-head">
            <h3 id="gql-history-title">History</h3>
            {history.length ? (
              <button
                type="button"
                className="secondary small"
                onClick={() => {
                  clearHistory(app);
                  setHistory([]);
                }}
              >
                Clear
              </button>
            ) : null}
          </div>
          {history.length === 0 ? (
            <p className="muted">The operations you run appear here (kept in this browser).</p>
          ) : (
            <ol className="plain" aria-label="Recent operations">
              {history.map((entry) => (
                <li key={`${entry.at}-${entry.query}-${entry.variables}`}>
                  <button type="button" className="link history-entry" onClick={() => reuse(entry)}>
                    <code>{historyLabel(entry.query)}</code>
                  </button>{" "}
                  <time className="muted" dateTime={entry.at} title={absoluteTime(entry.at)}>
                    {relativeTime(entry.at)}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}
