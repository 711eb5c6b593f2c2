/** A real engine behind real servers on loopback free ports, for the gRPC tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraph from "dgraph-js";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import {
  createGrpcServer,
  type GrpcServer,
  type GrpcServerOptions,
} from "../../src/server/grpc/grpc-server.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

export const SECRET = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");

export interface Harness {
  db: GraphDBHandle;
  /** `127.0.0.1:port` of the gRPC server. */
  grpcAddress: string;
  /** `http://127.0.0.1:port` of the HTTP server on the same engine (only with `http: true`). */
  httpAddress: string;
  /** Another gRPC server on the same engine, with other options. */
  extraGrpc(options: GrpcServerOptions): Promise<string>;
  /** A client stub that is closed with the harness. */
  stub(address?: string): dgraph.DgraphClientStub;
  close(): Promise<void>;
}

export async function startHarness(
  options: { acl?: boolean; http?: boolean; grpc?: GrpcServerOptions } = {},
): Promise<Harness> {
  const acl = options.acl ?? true;
  const dir = mkdtempSync(join(tmpdir(), "trellis-grpc-"));
  const db = createGraphDB({ dir, acl });
  const aclOptions = acl ? { acl: true, aclSecret: SECRET } : {};
  const grpcServers: GrpcServer[] = [];
  const startGrpc = async (extra: GrpcServerOptions) => {
    const server = createGrpcServer(db.engine, { ...aclOptions, ...extra });
    grpcServers.push(server);
    const { port } = await server.listen(0, "127.0.0.1");
    return `127.0.0.1:${port}`;
  };
  const grpcAddress = await startGrpc(options.grpc ?? {});
  let http: HttpServer | undefined;
  let httpAddress = "";
  if (options.http) {
    http = createHttpServer(db.engine, { ...aclOptions, keepAlive: true });
    const { port } = await http.listen(0, "127.0.0.1");
    httpAddress = `http://127.0.0.1:${port}`;
  }
  const stubs: dgraph.DgraphClientStub[] = [];
  return {
    db,
    grpcAddress,
    httpAddress,
    extraGrpc: startGrpc,
    stub(address = grpcAddress) {
      const stub = new dgraph.DgraphClientStub(address);
      stubs.push(stub);
      return stub;
    },
    async close() {
      for (const stub of stubs) stub.close();
      await Promise.all(grpcServers.map((s) => s.close()));
      await http?.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An `Operation` from plain fields. */
export function operation(fields: {
  schema?: string;
  dropAll?: boolean;
  dropAttr?: string;
}): dgraph.Operation {
  const op = new dgraph.Operation();
  if (fields.schema !== undefined) op.setSchema(fields.schema);
  if (fields.dropAll) op.setDropAll(true);
  if (fields.dropAttr !== undefined) op.setDropAttr(fields.dropAttr);
  return op;
}

/** A `Mutation` from plain fields. */
export function mutation(fields: {
  setJson?: unknown;
  deleteJson?: unknown;
  setNquads?: string;
  delNquads?: string;
  cond?: string;
  commitNow?: boolean;
}): dgraph.Mutation {
  const mu = new dgraph.Mutation();
  if (fields.setJson !== undefined) mu.setSetJson(fields.setJson);
  if (fields.deleteJson !== undefined) mu.setDeleteJson(fields.deleteJson);
  if (fields.setNquads !== undefined) mu.setSetNquads(fields.setNquads);
  if (fields.delNquads !== undefined) mu.setDelNquads(fields.delNquads);
  if (fields.cond !== undefined) mu.setCond(fields.cond);
  if (fields.commitNow) mu.setCommitNow(true);
  return mu;
}

/** The data JSON of a raw `api.Response` (from a stub call, not a Txn). */
export function responseJson(res: { getJson_asU8(): Uint8Array }): unknown {
  const bytes = res.getJson_asU8();
  return bytes.length === 0 ? undefined : JSON.parse(Buffer.from(bytes).toString("utf8"));
}

/** The gRPC status of a failed call. */
export async function grpcError(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await promise;
  } catch (e) {
    const err = e as { code?: number; details?: string };
    if (typeof err.code !== "number") throw e;
    return { code: err.code, details: err.details ?? "" };
  }
  throw new Error("expected the call to fail");
}
