/**
 * `requireAuth` (what the platform runs with): every HTTP endpoint but /health and /login, every gRPC
 * method but Login and CheckVersion, needs a valid access JWT. Without one, drop-all is refused on both
 * transports and the data stays; the same requests with a token work.
 */
import { status } from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  grpcFailure,
  type NamespaceHarness,
  startNamespaceHarness,
} from "../namespaces/namespace-harness.ts";
import { request } from "./http-client.ts";

const NO_TOKEN = "no accessJwt available";

describe("requireAuth: a token on every transport", () => {
  let h: NamespaceHarness;
  let groot: string;

  const names = async () => {
    const res = await h.post("/query", "application/dql", "{ q(func: has(name)) { name } }", groot);
    return (res.json() as { data: unknown }).data;
  };

  beforeAll(async () => {
    h = await startNamespaceHarness({ http: { requireAuth: true }, grpc: { requireAuth: true } });
    groot = await h.login("groot", "password", 0);
    await h.post("/alter", "application/dql", "name: string @index(exact) .", groot);
    await h.post("/mutate?commitNow=true", "application/rdf", '{ set { _:a <name> "kept" . } }', groot);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("refuses gRPC DropAll, Query and namespace management without credentials", async () => {
    const stub = new dgraph.DgraphClientStub(h.grpc);
    try {
      const op = new dgraph.Operation();
      op.setDropAll(true);
      expect(await grpcFailure(stub.alter(op))).toEqual({
        code: status.PERMISSION_DENIED,
        details: NO_TOKEN,
      });
      const req = new dgraph.Request();
      req.setQuery("{ q(func: has(name)) { name } }");
      expect(await grpcFailure(stub.query(req))).toEqual({
        code: status.PERMISSION_DENIED,
        details: NO_TOKEN,
      });
      const commit = new dgraph.TxnContext();
      commit.setStartTs(1);
      expect(await grpcFailure(stub.commitOrAbort(commit))).toMatchObject({ code: status.PERMISSION_DENIED });
      expect(await grpcFailure(h.call("ListNamespaces", {}))).toMatchObject({
        code: status.PERMISSION_DENIED,
      });
      // CheckVersion and Login need none.
      expect((await stub.checkVersion(new dgraph.Check())).getTag()).toMatch(/^v25\./);
      await stub.login("groot", "password");
    } finally {
      stub.close();
    }
    expect(await names()).toEqual({ q: [{ name: "kept" }] });
  });

  it("refuses HTTP drop_all and every other endpoint but /health and /login without a token", async () => {
    const drop = await h.post("/alter", "application/json", '{"drop_all": true}');
    expect(drop.json()).toEqual({
      errors: [
        { message: `rpc error: code = PermissionDenied desc = ${NO_TOKEN}`, extensions: { code: "Error" } },
      ],
    });
    for (const [path, type, body] of [
      ["/query", "application/dql", "{ q(func: has(name)) { name } }"],
      ["/mutate?commitNow=true", "application/rdf", '{ set { _:b <name> "sneaked in" . } }'],
      ["/commit?startTs=1", "application/json", "[]"],
    ]) {
      const res = (await h.post(path, type, body)).json() as { errors: { message: string }[] };
      expect(res.errors[0].message, path).toBe(`rpc error: code = PermissionDenied desc = ${NO_TOKEN}`);
    }
    for (const path of ["/ui/keywords", "/", "/state", "/assign?what=uids&num=1"]) {
      const res = await request(h.http, path, { method: "GET" });
      expect((res.json() as { errors: { message: string }[] }).errors[0].message, path).toContain(NO_TOKEN);
    }
    expect(await names()).toEqual({ q: [{ name: "kept" }] });

    const health = await request(h.http, "/health", { method: "GET" });
    expect((health.json() as { status: string }[])[0].status).toBe("healthy");
    const keywords = await request(h.http, "/ui/keywords", {
      method: "GET",
      headers: { "x-dgraph-accesstoken": groot },
    });
    expect(keywords.json()).toHaveProperty("keywords");
  });

  it("refuses a forged or expired-looking token as Dgraph does", async () => {
    const forged = `${groot.slice(0, -4)}AAAA`;
    const res = (
      await h.post("/query", "application/dql", "{ q(func: has(name)) { name } }", forged)
    ).json() as {
      errors: { message: string }[];
    };
    expect(res.errors[0].message).toBe(
      "rpc error: code = Unauthenticated desc = unable to parse jwt token: signature is invalid",
    );
  });

  it("needs an ACL secret", async () => {
    const { createHttpServer } = await import("../../src/server/http-server.ts");
    const { createGrpcServer } = await import("../../src/server/grpc/grpc-server.ts");
    expect(() => createHttpServer(h.db.engine, { requireAuth: true })).toThrow(
      /requireAuth needs an aclSecret/,
    );
    expect(() => createGrpcServer(h.db.engine, { requireAuth: true })).toThrow(
      /requireAuth needs an aclSecret/,
    );
  });
});

describe("without ACL (Dgraph's default), for contrast", () => {
  it("lets gRPC DropAll through without credentials", async () => {
    const h = await startNamespaceHarness({ db: { acl: false }, http: { acl: false }, grpc: { acl: false } });
    try {
      await h.db.engine.mutate({ commitNow: true, mutations: [{ setNquads: '_:a <name> "gone" .' }] });
      const stub = new dgraph.DgraphClientStub(h.grpc);
      const op = new dgraph.Operation();
      op.setDropAll(true);
      await stub.alter(op);
      stub.close();
      const res = await h.db.engine.query({ query: "{ q(func: has(name)) { name } }" });
      expect(JSON.parse(res.json)).toEqual({ q: [] });
    } finally {
      await h.close();
    }
  });
});
