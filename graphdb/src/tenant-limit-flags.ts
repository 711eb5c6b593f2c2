/**
 * The `trellis-graphdb` flags that bound one namespace's heavy work and keep namespaces apart (issue 20):
 * reserved predicates, mutation and alter bounds, schema sizes, and the per-namespace admission. Their
 * usage text, their parseArgs options, and their parsing into GraphDBOptions and the GraphQL options.
 * Each defaults to what the engine defaults to (Dgraph's behaviour where Dgraph has one).
 */
import { DEFAULT_ALTER_LIMITS } from "./engine/alter-limits.ts";
import type { GraphDBOptions } from "./engine/graph-db.ts";
import { DEFAULT_MUTATION_LIMITS } from "./engine/mutation-parse.ts";
import { DEFAULT_ADMISSION_LIMITS } from "./engine/namespace-admission.ts";
import { DEFAULT_GRAPHQL_SCHEMA_LIMITS, type GraphQLSchemaLimits } from "./graphql/schema/schema-size.ts";
import { parseGoDuration } from "./server/request-params.ts";

const kib = (n: number) =>
  n % 1024 === 0 ? (n % 2 ** 20 === 0 ? `${n / 2 ** 20}MiB` : `${n / 1024}KiB`) : `${n}`;
const none = (n: number, show: (n: number) => string = String) => (n === 0 ? "none" : show(n));
const seconds = (ms: number) => `${ms / 1000}s`;

export const TENANT_LIMIT_USAGE = `  --protect-reserved-predicates
                           refuse every dgraph.* predicate but dgraph.type in DQL mutations, guardians'
                           too (default off, as Dgraph; dgraph.graphql.* is refused either way)
  --limit-mutation-nquads <n>
                           N-Quads one mutation request may carry (default ${DEFAULT_MUTATION_LIMITS.nquads}, as Dgraph)
  --limit-mutation-size <size>
                           bytes of mutation text one request may carry, e.g. 8MiB (default none;
                           --body-limit bounds requests anyway)
  --mutation-timeout <dur> longest a mutation may run before its commit (default none, as Dgraph)
  --alter-timeout <dur>    longest an alter (an index build) may run (default none, as Dgraph)
  --limit-index-values <n> values one alter may read to rebuild indexes (default none, as Dgraph)
  --limit-schema-size <size>
                           bytes of DQL schema text one alter may carry (default ${kib(DEFAULT_ALTER_LIMITS.schemaBytes)})
  --limit-schema-predicates <n>
                           predicates one alter may declare (default ${DEFAULT_ALTER_LIMITS.schemaPredicates})
  --limit-schema-types <n> types one alter may declare (default ${DEFAULT_ALTER_LIMITS.schemaTypes})
  --limit-graphql-schema-size <size>
                           bytes of a GraphQL schema (default ${kib(DEFAULT_GRAPHQL_SCHEMA_LIMITS.maxBytes)})
  --limit-graphql-schema-types <n>
                           types of a GraphQL schema (default ${DEFAULT_GRAPHQL_SCHEMA_LIMITS.maxTypes})
  --limit-graphql-schema-fields <n>
                           fields of a GraphQL schema, all types together (default ${DEFAULT_GRAPHQL_SCHEMA_LIMITS.maxFields})
  --limit-namespace-concurrency <n>
                           operations of one namespace running at once; 0 for no limit (default ${none(DEFAULT_ADMISSION_LIMITS.concurrent)})
  --limit-namespace-queue <n>
                           operations of one namespace waiting for their turn (default ${DEFAULT_ADMISSION_LIMITS.queued})
  --namespace-queue-wait <dur>
                           longest an operation waits for its turn (default ${seconds(DEFAULT_ADMISSION_LIMITS.waitMs)})
`;

export const TENANT_LIMIT_OPTIONS = {
  "protect-reserved-predicates": { type: "boolean" },
  "limit-mutation-nquads": { type: "string" },
  "limit-mutation-size": { type: "string" },
  "mutation-timeout": { type: "string" },
  "alter-timeout": { type: "string" },
  "limit-index-values": { type: "string" },
  "limit-schema-size": { type: "string" },
  "limit-schema-predicates": { type: "string" },
  "limit-schema-types": { type: "string" },
  "limit-graphql-schema-size": { type: "string" },
  "limit-graphql-schema-types": { type: "string" },
  "limit-graphql-schema-fields": { type: "string" },
  "limit-namespace-concurrency": { type: "string" },
  "limit-namespace-queue": { type: "string" },
  "namespace-queue-wait": { type: "string" },
} as const;

type Flag = keyof typeof TENANT_LIMIT_OPTIONS;

export interface TenantLimitConfig {
  engineLimits: Pick<
    GraphDBOptions,
    "protectReservedPredicates" | "mutationLimits" | "alterLimits" | "admission"
  >;
  graphqlSchemaLimits: GraphQLSchemaLimits;
}

/** Reads the flags (absent ones keep the defaults); throws `usageError(message)` for a bad value. */
export function parseTenantLimitFlags(
  values: Partial<Record<Flag, string | boolean>>,
  usageError: (message: string) => Error,
): TenantLimitConfig {
  const text = (flag: Flag) => values[flag] as string | undefined;
  const count = (flag: Flag, fallback: number, zero = false) => {
    const value = text(flag);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || (n < 1 && !zero)) {
      throw usageError(`--${flag}: not a ${zero ? "" : "positive "}whole number: ${value}`);
    }
    return n;
  };
  const duration = (flag: Flag, fallback: number) => {
    const value = text(flag);
    if (value === undefined) return fallback;
    let ms: number;
    try {
      ms = parseGoDuration(value) / 1e6;
    } catch (e) {
      throw usageError(`--${flag}: ${(e as Error).message} (write it as 30s, 500ms, 2m; 0 for none)`);
    }
    if (ms < 0) throw usageError(`--${flag}: must not be negative: ${value}`);
    return ms;
  };
  const size = (flag: Flag, fallback: number) => {
    const value = text(flag);
    if (value === undefined) return fallback;
    const m = /^(\d+)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(value.trim());
    const bytes =
      m === null ? Number.NaN : Number(m[1]) * 1024 ** " kmg".indexOf((m[2] ?? " ").toLowerCase());
    if (!Number.isSafeInteger(bytes) || bytes < 1)
      throw usageError(`--${flag}: not a size: ${value} (write it as 8MiB)`);
    return bytes;
  };
  const m = DEFAULT_MUTATION_LIMITS;
  const a = DEFAULT_ALTER_LIMITS;
  const g = DEFAULT_GRAPHQL_SCHEMA_LIMITS;
  const q = DEFAULT_ADMISSION_LIMITS;
  return {
    engineLimits: {
      protectReservedPredicates: values["protect-reserved-predicates"] === true,
      mutationLimits: {
        nquads: count("limit-mutation-nquads", m.nquads),
        bytes: size("limit-mutation-size", m.bytes),
        timeoutMs: duration("mutation-timeout", m.timeoutMs),
      },
      alterLimits: {
        timeoutMs: duration("alter-timeout", a.timeoutMs),
        indexValues: count("limit-index-values", a.indexValues, true),
        schemaBytes: size("limit-schema-size", a.schemaBytes),
        schemaPredicates: count("limit-schema-predicates", a.schemaPredicates),
        schemaTypes: count("limit-schema-types", a.schemaTypes),
      },
      admission: {
        concurrent: count("limit-namespace-concurrency", q.concurrent, true),
        queued: count("limit-namespace-queue", q.queued),
        waitMs: duration("namespace-queue-wait", q.waitMs),
      },
    },
    graphqlSchemaLimits: {
      maxBytes: size("limit-graphql-schema-size", g.maxBytes),
      maxTypes: count("limit-graphql-schema-types", g.maxTypes),
      maxFields: count("limit-graphql-schema-fields", g.maxFields),
    },
  };
}
