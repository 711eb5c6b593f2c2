/**
 * @trellis/graphdb — an embedded graph database, wire-compatible with Dgraph.
 *
 * In-process: `const db = createGraphDB({ dir })` then `db.engine.query(...)`; as a server, see
 * `createHttpServer`, `createGrpcServer` or the `trellis-graphdb` bin.
 *
 * Tenants (one per app) are Dgraph namespaces, each with its own data, schema, types, indexes and users:
 *
 * - `await db.engine.createNamespace({ grootPassword })` → the new namespace's id (with ACL it gets a
 *   `guardians` group and a `groot` user with that password); `dropNamespace(id)` deletes every key of it;
 *   `listNamespaces()`. Namespace 0 (`GALAXY_NAMESPACE`) is the default, where stores from before
 *   namespaces keep their data.
 * - In-process requests name their namespace: `query({ namespace, query })`, `mutate({ namespace, … })`,
 *   `commit`, `alter({ namespace, … })` (drop-all stays inside it), `readView({ namespace })`,
 *   `bulkLoad(source, { namespace })`.
 * - Over the wire, a client logs into a namespace (`/login` body `{"userid","password","namespace"}`, gRPC
 *   `LoginRequest.namespace`; dgraph-js and dgraph-js-http `loginIntoNamespace("groot", password, id)`)
 *   and every request then runs in its token's namespace.
 * - `createHttpServer(engine, { requireAuth: true, aclSecret, cors })` and
 *   `createGrpcServer(engine, { requireAuth: true, aclSecret })`: every endpoint but /health and /login,
 *   every gRPC method but Login and CheckVersion, needs an access token. Give both servers the same secret.
 */
import { GraphDB, type GraphDBOptions } from "./engine/graph-db.ts";

export { DgraphError, TxnAbortedError, TxnConflictError } from "./core/errors.ts";
export { GROOT_DEFAULT_PASSWORD, GROOT_USER, GUARDIANS_GROUP } from "./engine/acl-accounts.ts";
export type { AlterLimits } from "./engine/alter-limits.ts";
export { DEFAULT_ALTER_LIMITS } from "./engine/alter-limits.ts";
export type { BulkLoadOptions, BulkLoadResult } from "./engine/bulk-loader.ts";
export type {
  AlterOperation,
  CommitRequest,
  CreateNamespaceOptions,
  GraphEngine,
  MutateRequest,
  MutateResponse,
  MutationInput,
  QueryRequest,
  QueryResponse,
  TxnContext,
} from "./engine/engine-api.ts";
export type { ExportFormat, ExportResult } from "./engine/export-writer.ts";
/** Dgraph's export of one namespace (data, DQL schema, GraphQL schema) into a folder of gzipped files. */
export { exportNamespace } from "./engine/export-writer.ts";
export type { GraphDBOptions } from "./engine/graph-db.ts";
export { DEFAULT_QUERY_TIMEOUT_MS, GraphDB } from "./engine/graph-db.ts";
export type { MutationLimits } from "./engine/mutation-parse.ts";
export { DEFAULT_MUTATION_LIMITS } from "./engine/mutation-parse.ts";
export { GALAXY_NAMESPACE } from "./engine/namespace.ts";
export type { AdmissionLimits } from "./engine/namespace-admission.ts";
export { DEFAULT_ADMISSION_LIMITS } from "./engine/namespace-admission.ts";
export type { HttpLambdaOptions, LambdaCaller, LambdaRequest } from "./graphql/execution/lambda-caller.ts";
/** `@lambda` fields served by a Dgraph lambda server (`--lambda-url`). */
export { httpLambdaCaller } from "./graphql/execution/lambda-caller.ts";
export {
  AnswerTooLargeError,
  DEFAULT_MAX_REMOTE_ANSWER_BYTES,
  type OutboundFetch,
} from "./graphql/execution/outbound-fetch.ts";
export type { GraphQLRequest, GraphQLServiceOptions, StoredSchema } from "./graphql/graphql-service.ts";
/** The generated GraphQL API of each namespace: `updateSchema`, `storedSchema`, `current`, `execute`. */
export { GraphQLService } from "./graphql/graphql-service.ts";
export type { GraphQLOperationLimits } from "./graphql/operation-limits.ts";
export { DEFAULT_GRAPHQL_LIMITS } from "./graphql/operation-limits.ts";
export type { GraphQLSchemaBuild } from "./graphql/schema/build-graphql-schema.ts";
export type { SchemaProblem } from "./graphql/schema/schema-error.ts";
export { GraphQLSchemaError } from "./graphql/schema/schema-error.ts";
export type { GraphQLSchemaLimits } from "./graphql/schema/schema-size.ts";
export { DEFAULT_GRAPHQL_SCHEMA_LIMITS } from "./graphql/schema/schema-size.ts";
export type { QueryLimits } from "./query/query-budget.ts";
export { DEFAULT_QUERY_LIMITS } from "./query/query-budget.ts";

export interface GraphDBHandle {
  engine: GraphDB;
  close(): Promise<void>;
}

/** Opens (or creates) a graph database in `dir`. */
export function createGraphDB(options: GraphDBOptions): GraphDBHandle {
  const engine = new GraphDB(options);
  return { engine, close: () => engine.close() };
}

export type {
  CliConfig as GraphDBServerConfig,
  EmbeddedServerOptions as EmbeddedGraphDBOptions,
  RunningServer as RunningGraphDBServer,
} from "./cli.ts";
/** Starts the database with its HTTP and gRPC servers in this process (what the bin runs). */
export { parseCliArgs as parseGraphDBArgs, startServer as startGraphDBServer } from "./cli.ts";
export { DEFAULT_MAX_NESTING, nestingProblem } from "./graphql/nesting-depth.ts";
export { isLoopbackHost } from "./listen-exposure.ts";
export type { CorsOption } from "./server/cors.ts";
export type { DgraphConnectionString, DgraphSslMode } from "./server/dgraph-connection-string.ts";
export { parseDgraphConnectionString, parseGrpcTarget } from "./server/dgraph-connection-string.ts";
export type { GrpcServer, GrpcServerOptions } from "./server/grpc/grpc-server.ts";
export { createGrpcServer } from "./server/grpc/grpc-server.ts";
export type { HttpServerOptions } from "./server/http-server.ts";
export { createHttpServer } from "./server/http-server.ts";
export {
  DEFAULT_LOGIN_THROTTLE,
  LoginThrottle,
  type LoginThrottleOptions,
} from "./server/login-throttle.ts";
