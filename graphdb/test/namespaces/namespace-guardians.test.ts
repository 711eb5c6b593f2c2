/**
 * What a namespace's groot may do and what it may not: drop its own namespace's data (drop-all included)
 * but nothing of another, touch no other namespace's transaction, and manage no namespace — that is for
 * the galaxy's guardians (gRPC CreateNamespace, DropNamespace, ListNamespaces), whose drop-all drops
 * everything, as Dgraph's does.
 */
import { status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grpcFailure, type NamespaceHarness, startNamespaceHarness } from "./namespace-harness.ts";

const GALAXY_ONLY = "Only guardian of galaxy is allowed to do this operation";

describe("namespaces: guardians and namespace management", () => {
  let h: NamespaceHarness;
  let a: number;
  let b: number;
  let tokenA: string;
  let tokenB: string;
  let galaxy: string;

  const dql = async (token: string, query: string) =>
    (await h.post("/query", "application/dql", query, token)).json() as {
      data?: Record<string, unknown>;
      errors?: { message: string }[];
    };
  const setNquads = async (token: string, nquads: string) => {
    const res = await h.post("/mutate?commitNow=true", "application/rdf", `{ set { ${nquads} } }`, token);
    expect(res.json()).toMatchObject({ data: { code: "Success" } });
  };

  beforeEach(async () => {
    h = await startNamespaceHarness();
    galaxy = await h.login("groot", "password", 0);
    a = await h.db.engine.createNamespace({ grootPassword: "apple-pass" });
    b = await h.db.engine.createNamespace({ grootPassword: "banana-pass" });
    tokenA = await h.login("groot", "apple-pass", a);
    tokenB = await h.login("groot", "banana-pass", b);
    for (const [token, who] of [
      [galaxy, "galaxy"],
      [tokenA, "a"],
      [tokenB, "b"],
    ]) {
      await h.post("/alter", "application/dql", "name: string @index(exact) .", token);
      await setNquads(token, `_:x <name> "${who}" .`);
    }
  });

  afterEach(async () => {
    await h?.close();
  });

  it("a namespace's drop_all drops that namespace only, and its groot keeps its password", async () => {
    const drop = await h.post("/alter", "application/json", '{"drop_all": true}', tokenA);
    expect(drop.json()).toEqual({ data: { code: "Success", message: "Done" } });
    expect((await dql(tokenA, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [] });
    expect((await dql(tokenB, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [{ name: "b" }] });
    expect((await dql(galaxy, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [{ name: "galaxy" }] });
    // Schema gone in A only; A's groot is back with its own password, not Dgraph's default.
    const schemaA = (await dql(tokenA, "schema(pred: [name]) { type }")).data;
    expect(schemaA).toEqual({});
    expect((await dql(tokenB, "schema(pred: [name]) { type }")).data).toEqual({
      schema: [{ predicate: "name", type: "string" }],
    });
    await expect(h.login("groot", "apple-pass", a)).resolves.toMatch(/^ey/);
    await expect(h.login("groot", "password", a)).rejects.toThrow("invalid username or password");
  });

  it("over gRPC too: DropAll with a namespace's token drops that namespace only", async () => {
    const client = await h.grpcClient("groot", "banana-pass", b);
    const { Operation } = await import("dgraph-js");
    const op = new Operation();
    op.setDropAll(true);
    await client.alter(op);
    expect((await dql(tokenB, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [] });
    expect((await dql(tokenA, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [{ name: "a" }] });
  });

  it("cannot commit, abort or continue another namespace's transaction", async () => {
    const open = await h.post("/mutate", "application/rdf", '{ set { _:y <name> "b2" . } }', tokenB);
    const txn = (open.json() as { extensions: { txn: { start_ts: number; hash: string } } }).extensions.txn;
    // Without the hash (as dgraph-js-http 20 sends): refused by the engine.
    for (const path of [`/commit?startTs=${txn.start_ts}`, `/commit?startTs=${txn.start_ts}&abort=true`]) {
      const res = (await h.post(path, "application/json", "[]", tokenA)).json() as {
        errors: { message: string }[];
      };
      expect(res.errors[0].message).toBe(
        `startTs ${txn.start_ts} is not a transaction of this namespace; start a new transaction`,
      );
    }
    const read = await dql(tokenA, "{ q(func: has(name)) { name } }");
    expect(read.data).toEqual({ q: [{ name: "a" }] });
    const readAtB = (
      await h.post(
        `/query?startTs=${txn.start_ts}`,
        "application/dql",
        "{ q(func: has(name)) { name } }",
        tokenA,
      )
    ).json() as { errors: { message: string }[] };
    expect(readAtB.errors[0].message).toContain("is not a transaction of this namespace");
    // With B's hash: Dgraph's hash check refuses it first.
    const hashed = (
      await h.post(`/commit?startTs=${txn.start_ts}&hash=${txn.hash}`, "application/json", "[]", tokenA)
    ).json() as { errors: { message: string }[] };
    expect(hashed.errors[0].message).toBe("hash mismatch the claimed startTs|namespace");
    // B's transaction is unharmed and commits.
    const commit = await h.post(
      `/commit?startTs=${txn.start_ts}&hash=${txn.hash}`,
      "application/json",
      "[]",
      tokenB,
    );
    expect(commit.json()).toMatchObject({ data: { code: "Success" } });
    expect((await dql(tokenB, "{ q(func: has(name)) { name } }")).data).toEqual({
      q: [{ name: "b" }, { name: "b2" }],
    });
  });

  it("manages namespaces for the galaxy's guardians only", async () => {
    for (const [method, message] of [
      ["CreateNamespace", {}],
      ["DropNamespace", { namespace: b }],
      ["ListNamespaces", {}],
    ] as const) {
      const refused = await grpcFailure(h.call(method, message, tokenA));
      expect(refused).toEqual({ code: status.PERMISSION_DENIED, details: GALAXY_ONLY });
      const anonymous = await grpcFailure(h.call(method, message));
      expect(anonymous).toEqual({ code: status.PERMISSION_DENIED, details: "no accessJwt available" });
    }
    expect(h.db.engine.listNamespaces()).toEqual([0, a, b]);

    const created = await h.call<{ namespace: number }>("CreateNamespace", {}, galaxy);
    expect(created.namespace).toBe(b + 1);
    // Dgraph's gRPC CreateNamespace has no password field: the new groot gets Dgraph's default.
    const tokenC = await h.login("groot", "password", created.namespace);
    expect((await dql(tokenC, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [] });
    const listed = await h.call<{ namespaces: Record<string, { id: number }> }>("ListNamespaces", {}, galaxy);
    expect(
      Object.values(listed.namespaces)
        .map((n) => n.id)
        .sort((x, y) => x - y),
    ).toEqual([0, a, b, created.namespace]);

    await h.call("DropNamespace", { namespace: b }, galaxy);
    expect(h.db.engine.listNamespaces()).toEqual([0, a, created.namespace]);
    // B's token no longer reaches anything, and nobody logs into B any more.
    expect((await dql(tokenB, "{ q(func: has(name)) { name } }")).errors?.[0].message).toBe(
      `Namespace 0x${b.toString(16)} does not exist (it was dropped or never created): log in to an existing namespace`,
    );
    await expect(h.login("groot", "banana-pass", b)).rejects.toThrow("invalid username or password");
    expect(await grpcFailure(h.call("DropNamespace", { namespace: b }, galaxy))).toMatchObject({
      details: `error deleting non-existing namespace 0x${b.toString(16)}`,
    });
    expect(await grpcFailure(h.call("DropNamespace", { namespace: 0 }, galaxy))).toMatchObject({
      details: "Cannot delete default namespace.",
    });
    // A is untouched; a new namespace never reuses a dropped id.
    expect((await dql(tokenA, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [{ name: "a" }] });
    expect((await h.call<{ namespace: number }>("CreateNamespace", {}, galaxy)).namespace).toBe(
      created.namespace + 1,
    );
  });

  it("the galaxy's drop_all drops every namespace, as Dgraph's", async () => {
    const drop = await h.post("/alter", "application/json", '{"drop_all": true}', galaxy);
    expect(drop.json()).toEqual({ data: { code: "Success", message: "Done" } });
    expect(h.db.engine.listNamespaces()).toEqual([0]);
    expect((await dql(galaxy, "{ q(func: has(name)) { name } }")).data).toEqual({ q: [] });
    expect((await dql(tokenA, "{ q(func: has(name)) { name } }")).errors?.[0].message).toContain(
      "does not exist",
    );
    await expect(h.login("groot", "password", 0)).resolves.toMatch(/^ey/);
  });

  it("keeps a namespace's guardians out of cluster state and galaxy-only routes", async () => {
    const state = await h.post("/state", undefined, "", tokenA);
    expect((state.json() as { errors: { message: string }[] }).errors[0].message).toBe(
      `rpc error: code = PermissionDenied desc = ${GALAXY_ONLY}`,
    );
    const galaxyState = (await h.post("/state", undefined, "", galaxy)).json() as { maxNsID: string };
    expect(galaxyState.maxNsID).toBe(String(b));
  });
});
