/**
 * What the platform asks of its embedded graph database, outside the database's own HTTP and gRPC ports:
 * the namespaces of apps, and the console's Graph tab (DQL, drops, export, the generated GraphQL API).
 * The database runs in a worker thread of its own (graph-worker.ts), so every operation is asynchronous
 * and carries only plain data; `PlatformGraph` (platform-graph.ts) is its face in the main thread.
 */
import type { AlterOperation, ExportFormat, ExportResult, StoredSchema } from "@trellis/graphdb";

/** A read-only DQL query's answer, as `/query` wraps it. */
export interface GraphQueryAnswer {
  /** The `data` object as JSON text. */
  json: string;
  latency: Record<string, number>;
  txn: { start_ts: number };
}

/** The namespace's GraphQL schema as served now. */
export interface GraphQLSchemaView {
  generatedSchema: string;
  /** Some type has `@key`: the namespace is an Apollo Federation subgraph. */
  federated: boolean;
  /** `Type.field` of every `@lambda` field. */
  lambdaFields: string[];
}

export interface GraphQLOperation {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface GraphOperations {
  listNamespaces(): Promise<number[]>;
  /** A new namespace whose groot has `grootPassword`; its id. */
  createNamespace(grootPassword: string): Promise<number>;
  setGrootPassword(namespace: number, password: string): Promise<void>;
  dropNamespace(namespace: number): Promise<void>;
  /** A read-only DQL query in a namespace. */
  query(namespace: number, query: string, vars?: Record<string, string>): Promise<GraphQueryAnswer>;
  alter(operation: AlterOperation): Promise<void>;
  /** Dgraph's export of a namespace into a new folder of `exportDir`. */
  exportNamespace(namespace: number, format: ExportFormat, exportDir: string): Promise<ExportResult>;
  storedGraphQLSchema(namespace: number): Promise<StoredSchema | undefined>;
  /** The served schema; undefined without one; throws when the stored one no longer builds. */
  currentGraphQLSchema(namespace: number): Promise<GraphQLSchemaView | undefined>;
  /** Validates, applies and stores an SDL; throws GraphQLSchemaError (changing nothing) when invalid. */
  updateGraphQLSchema(namespace: number, sdl: string): Promise<{ generatedSchema: string }>;
  /** One GraphQL operation; the response as JSON text. */
  executeGraphQL(namespace: number, operation: GraphQLOperation): Promise<string>;
}

export type GraphOperationName = keyof GraphOperations;
