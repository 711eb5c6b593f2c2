import { useCallback } from "react";
import type { GraphFederation, LambdaField } from "../../api-client.ts";
import { useApi } from "../../api-context.ts";
import { AsyncView } from "../../components/AsyncView.tsx";
import { CodeBlock } from "../../components/CodeBlock.tsx";
import { ErrorBanner } from "../../components/ErrorBanner.tsx";
import { useAsync } from "../../use-async.ts";

interface Props {
  app: string;
  /** Bumped by the tab when the GraphQL schema may have changed (applied, dropped). */
  reloadKey: number;
}

const DECLARED_IN: Record<LambdaField["declared"], string> = {
  "schema+manifest": "schema, trellis.json",
  schema: "schema",
  manifest: "trellis.json",
};

/** A short label of a row's state; the row's `problem` says the rest. */
function stateLabel(row: LambdaField): string {
  if (row.problem === null) return "served";
  if (row.declared === "schema") return "no function mapped";
  if (row.declared === "manifest") return "not in schema";
  return "function missing";
}

/**
 * The app's graph as an Apollo Federation subgraph: on or off, the SDL `_service` gives a gateway, and
 * which of the deployed app's functions serve the schema's `@lambda` fields, mismatches marked.
 */
export function FederationPanel({ app, reloadKey }: Props) {
  const api = useApi();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey asks for a fresh load
  const load = useCallback(() => api.graphFederation(app), [api, app, reloadKey]);
  const [state, reload] = useAsync(load);
  return (
    <section className="stack" aria-labelledby="federation-title">
      <div className="section-head">
        <h2 id="federation-title">Federation</h2>
        <button type="button" className="secondary small" onClick={reload}>
          Reload federation
        </button>
      </div>
      <AsyncView state={state} what="federation" onRetry={reload}>
        {(f) => (
          <>
            <FederationStatus federation={f} />
            {f.sdl !== null ? (
              <details className="generated">
                <summary>
                  <code>_service</code> SDL
                </summary>
                <CodeBlock code={f.sdl} label="_service SDL" />
              </details>
            ) : null}
            <LambdaFields federation={f} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

function FederationStatus({ federation: f }: { federation: GraphFederation }) {
  return (
    <>
      <p>
        <span className={f.enabled ? "tag ok" : "tag"}>{f.enabled ? "on" : "off"}</span>{" "}
        {f.enabled ? (
          <>
            This app's graph is an Apollo Federation subgraph: a gateway composes the SDL it answers to{" "}
            <code>{"{ _service { sdl } }"}</code>, below.
          </>
        ) : (
          <span className="muted">
            Add <code>@key(fields: "id")</code> to a type of the GraphQL schema to make this graph a subgraph
            of an Apollo gateway.
          </span>
        )}
      </p>
      {f.schemaError ? (
        <ErrorBanner error={f.schemaError} context="The stored GraphQL schema does not build" />
      ) : null}
    </>
  );
}

function LambdaFields({ federation: f }: { federation: GraphFederation }) {
  return (
    <>
      <h3>Lambda fields</h3>
      <p className="muted">
        Each <code>@lambda</code> field is served by the app function that trellis.json's <code>lambdas</code>{" "}
        maps it to (<code>"Type.field": "function"</code>)
        {f.deploymentId ? (
          <>
            , here those of deployment <code>{f.deploymentId}</code>.
          </>
        ) : (
          <>; nothing is deployed yet.</>
        )}
      </p>
      {f.manifestError ? (
        <p className="warning">The deployment's trellis.json could not be read: {f.manifestError}</p>
      ) : null}
      {f.lambdaFields.length === 0 ? (
        <div className="empty">
          No <code>@lambda</code> fields in the GraphQL schema and no <code>lambdas</code> in trellis.json.
        </div>
      ) : (
        <table className="table">
          <caption className="sr-only">Lambda fields</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Function</th>
              <th scope="col">Declared in</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {f.lambdaFields.map((row) => (
              <tr key={row.field}>
                <td>
                  <code>{row.field}</code>
                </td>
                <td>
                  {row.function === null ? <span className="muted">none</span> : <code>{row.function}</code>}
                </td>
                <td>{DECLARED_IN[row.declared]}</td>
                <td>
                  <span className={row.problem === null ? "tag ok" : "tag warn"}>{stateLabel(row)}</span>
                  {row.problem ? <div className="muted">{row.problem}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
