import type { GraphQLField, GraphQLObjectType, GraphQLSchema } from "graphql";
import { useState } from "react";

interface Props {
  schema: GraphQLSchema;
  /** Inserts a field's name into the query editor. */
  onPick?: (name: string) => void;
}

/** The generated API's entry points: each Query and Mutation field with its arguments and return type. */
export function GraphQLDocs({ schema, onPick }: Props) {
  const [filter, setFilter] = useState("");
  const roots = [schema.getQueryType(), schema.getMutationType()].filter(
    (t): t is GraphQLObjectType => t != null,
  );
  const needle = filter.trim().toLowerCase();
  return (
    <section className="gql-docs" aria-labelledby="gql-docs-title">
      <h3 id="gql-docs-title">Docs</h3>
      <label htmlFor="gql-docs-filter" className="sr-only">
        Filter fields
      </label>
      <input
        id="gql-docs-filter"
        type="search"
        placeholder="Filter fields"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {roots.map((root) => {
        const fields = Object.values(root.getFields()).filter(
          (f) => !f.name.startsWith("__") && f.name.toLowerCase().includes(needle),
        );
        return (
          <div key={root.name}>
            <h4>{root.name === schema.getQueryType()?.name ? "Query" : "Mutation"}</h4>
            {fields.length === 0 ? (
              <p className="muted">No fields{needle ? " match" : ""}.</p>
            ) : (
              <ul className="plain" aria-label={`${root.name} fields`}>
                {fields.map((field) => (
                  <FieldDoc key={field.name} field={field} onPick={onPick} />
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}

function FieldDoc({
  field,
  onPick,
}: {
  field: GraphQLField<unknown, unknown>;
  onPick?: (name: string) => void;
}) {
  return (
    <li className="gql-field">
      <code>
        {onPick ? (
          <button
            type="button"
            className="link"
            title={`Insert ${field.name}`}
            onClick={() => onPick(field.name)}
          >
            {field.name}
          </button>
        ) : (
          field.name
        )}
        {field.args.length ? (
          <span className="gql-args">
            (
            {field.args.map((arg, i) => (
              <span key={arg.name}>
                {i > 0 ? ", " : ""}
                {arg.name}: <span className="gql-type">{String(arg.type)}</span>
              </span>
            ))}
            )
          </span>
        ) : null}
        : <span className="gql-type">{String(field.type)}</span>
      </code>
      {field.description ? <div className="muted">{field.description}</div> : null}
    </li>
  );
}
