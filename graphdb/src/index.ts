/**
 * @trellis/graphdb — an embedded graph database, wire-compatible with Dgraph.
 *
 * In-process: `const db = createGraphDB({ dir })` then `db.engine.query(...)`; as a server, see
 * `createHttpServer`, `createGrpcServer` or the `trellis-graphdb` bin.
 */
import { GraphDB, type GraphDBOptions } from "./engine/graph-db.ts";

export type { BulkLoadOptions, BulkLoadResult } from "./engine/bulk-loader.ts";
export type {
  AlterOperation,
  CommitRequest,
  GraphEngine,
  MutateRequest,
  MutateResponse,
  MutationInput,
  QueryRequest,
  QueryResponse,
  TxnContext,
} from "./engine/engine-api.ts";
export { DgraphError, TxnAbortedError, TxnConflictError } from "./engine/errors.ts";
export type { GraphDBOptions } from "./engine/graph-db.ts";
export { GraphDB } from "./engine/graph-db.ts";

export interface GraphDBHandle {
  engine: GraphDB;
  close(): Promise<void>;
}

/** Opens (or creates) a graph database in `dir`. */
export function createGraphDB(options: GraphDBOptions): GraphDBHandle {
  const engine = new GraphDB(options);
  return { engine, close: () => engine.close() };
}

export type { CliConfig as GraphDBServerConfig, RunningServer as RunningGraphDBServer } from "./cli.ts";
/** Starts the database with its HTTP and gRPC servers in this process (what the bin runs). */
export { parseCliArgs as parseGraphDBArgs, startServer as startGraphDBServer } from "./cli.ts";
export type { DgraphConnectionString, DgraphSslMode } from "./server/dgraph-connection-string.ts";
export { parseDgraphConnectionString, parseGrpcTarget } from "./server/dgraph-connection-string.ts";
export type { GrpcServer, GrpcServerOptions } from "./server/grpc-server.ts";
export { createGrpcServer } from "./server/grpc-server.ts";
export type { HttpServerOptions } from "./server/http-server.ts";
export { createHttpServer } from "./server/http-server.ts";
