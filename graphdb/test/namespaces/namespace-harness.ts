/**
 * One database behind real HTTP and gRPC servers on loopback free ports (the same ACL secret, so a token
 * from one transport works on the other), plus the clients the namespace tests use: the real npm clients
 * (dgraph-js-http 23's `loginIntoNamespace`, dgraph-js), a raw HTTP client, and a raw gRPC client of the
 * v25 namespace methods (which dgraph-js 24 does not have), built from graphdb's own api.proto as dgo's
 * generated client would be.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, loadPackageDefinition, Metadata, type ServiceError } from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import * as dgraphHttp from "dgraph-js-http-23";
import { createGraphDB, type GraphDBHandle, type GraphDBOptions } from "../../src/index.ts";
import { apiPackageDefinition } from "../../src/server/grpc/grpc-proto.ts";
import {
  createGrpcServer,
  type GrpcServer,
  type GrpcServerOptions,
} from "../../src/server/grpc/grpc-server.ts";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../../src/server/http-server.ts";
import { post, type RawResponse, request } from "../server/http-client.ts";

export const SECRET = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");

export interface NamespaceHarness {
  db: GraphDBHandle;
  dir: string;
  /** `http://127.0.0.1:port` */
  http: string;
  /** `127.0.0.1:port` */
  grpc: string;
  /** Logs in over HTTP (raw `/login`); the access JWT. Throws with the server's error on failure. */
  login(userid: string, password: string, namespace: number): Promise<string>;
  /** A dgraph-js-http (23) client logged into a namespace with `loginIntoNamespace`. */
  httpClient(userid: string, password: string, namespace: number): Promise<dgraphHttp.DgraphClient>;
  /** A dgraph-js client logged into a namespace with `loginIntoNamespace`; closed with the harness. */
  grpcClient(userid: string, password: string, namespace: number): Promise<dgraph.DgraphClient>;
  /** A raw POST with an optional access token. */
  post(path: string, contentType: string | undefined, body: string, token?: string): Promise<RawResponse>;
  /** A raw call of an `api.Dgraph` method (the v25 namespace methods included). */
  call<T>(method: string, message: object, token?: string): Promise<T>;
  close(): Promise<void>;
}

export async function startNamespaceHarness(
  options: { db?: Partial<GraphDBOptions>; http?: HttpServerOptions; grpc?: GrpcServerOptions } = {},
): Promise<NamespaceHarness> {
  const dir = mkdtempSync(join(tmpdir(), "trellis-ns-"));
  const db = createGraphDB({ dir, acl: true, ...options.db });
  const httpServer: HttpServer = createHttpServer(db.engine, {
    acl: true,
    aclSecret: SECRET,
    ...options.http,
  });
  const grpcServer: GrpcServer = createGrpcServer(db.engine, {
    acl: true,
    aclSecret: SECRET,
    ...options.grpc,
  });
  const { port } = await httpServer.listen(0, "127.0.0.1");
  const { port: grpcPort } = await grpcServer.listen(0, "127.0.0.1");
  const http = `http://127.0.0.1:${port}`;
  const grpc = `127.0.0.1:${grpcPort}`;
  const stubs: dgraph.DgraphClientStub[] = [];
  const Dgraph = (
    loadPackageDefinition(apiPackageDefinition()) as unknown as {
      api: {
        Dgraph: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => RawClient;
      };
    }
  ).api.Dgraph;
  const raw = new Dgraph(grpc, credentials.createInsecure());

  return {
    db,
    dir,
    http,
    grpc,
    async login(userid, password, namespace) {
      const res = await request(http, "/login", { body: JSON.stringify({ userid, password, namespace }) });
      const body = res.json() as { data?: { accessJWT: string }; errors?: { message: string }[] };
      if (!body.data) throw new Error(body.errors?.[0]?.message ?? res.text);
      return body.data.accessJWT;
    },
    async httpClient(userid, password, namespace) {
      const stub = new dgraphHttp.DgraphClientStub(http);
      const client = new dgraphHttp.DgraphClient(stub);
      await client.loginIntoNamespace(userid, password, namespace);
      return client;
    },
    async grpcClient(userid, password, namespace) {
      const stub = new dgraph.DgraphClientStub(grpc);
      stubs.push(stub);
      await stub.loginIntoNamespace(userid, password, namespace);
      return new dgraph.DgraphClient(stub);
    },
    post(path, contentType, body, token) {
      if (token === undefined) return post(http, path, contentType, body);
      const headers: Record<string, string> = { "x-dgraph-accesstoken": token };
      if (contentType !== undefined) headers["content-type"] = contentType;
      return request(http, path, { body, headers });
    },
    call<T>(method: string, message: object, token?: string) {
      const metadata = new Metadata();
      if (token !== undefined) metadata.set("accessJwt", token);
      return new Promise<T>((resolve, reject) =>
        raw[method](message, metadata, (err: ServiceError | null, res: T) =>
          err ? reject(err) : resolve(res),
        ),
      );
    },
    async close() {
      for (const stub of stubs) stub.close();
      raw.close();
      await grpcServer.close();
      await httpServer.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type RawClient = Record<
  string,
  (message: object, metadata: Metadata, callback: (err: ServiceError | null, res: never) => void) => void
> & { close(): void };

/** The gRPC status of a call expected to fail. */
export async function grpcFailure(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await promise;
  } catch (e) {
    const err = e as { code?: number; details?: string };
    if (typeof err.code !== "number") throw e;
    return { code: err.code, details: err.details ?? "" };
  }
  throw new Error("expected the call to fail");
}
