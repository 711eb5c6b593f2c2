/**
 * Two namespaces with the same predicate and type names, writing to the same uids, over both transports
 * with the real clients (dgraph-js-http 23 and dgraph-js, each logged in with `loginIntoNamespace`): each
 * sees only its own data, schema, types, indexes, reverse edges and counts — and the galaxy sees neither.
 */
import type * as dgraph from "dgraph-js";
import type * as dgraphHttp from "dgraph-js-http-23";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDgraphConnectionString } from "../../src/index.ts";
import { type NamespaceHarness, startNamespaceHarness } from "./namespace-harness.ts";

const SCHEMA = `
name: string @index(exact) .
secret: string .
friend: [uid] @reverse @count .
type Person {
  name
  secret
  friend
}`;

describe("namespaces: isolation over HTTP and gRPC", () => {
  let h: NamespaceHarness;
  let a: number;
  let b: number;
  /** Uids both namespaces write to. */
  let u1: string;
  let u2: string;
  let httpA: dgraphHttp.DgraphClient;
  let httpB: dgraphHttp.DgraphClient;
  let grpcA: dgraph.DgraphClient;
  let grpcB: dgraph.DgraphClient;

  const httpQuery = async (client: dgraphHttp.DgraphClient, q: string) =>
    (await client.newTxn({ readOnly: true }).query(q)).data as Record<string, unknown>;
  const grpcQuery = async (client: dgraph.DgraphClient, q: string) =>
    (await client.newTxn({ readOnly: true }).query(q)).getJson() as Record<string, unknown>;

  beforeAll(async () => {
    h = await startNamespaceHarness();
    a = await h.db.engine.createNamespace({ grootPassword: "apple-pass" });
    b = await h.db.engine.createNamespace({ grootPassword: "banana-pass" });
    const { startId } = h.db.engine.assignUids(2);
    u1 = `0x${startId.toString(16)}`;
    u2 = `0x${(startId + 1).toString(16)}`;
    httpA = await h.httpClient("groot", "apple-pass", a);
    httpB = await h.httpClient("groot", "banana-pass", b);
    grpcA = await h.grpcClient("groot", "apple-pass", a);
    grpcB = await h.grpcClient("groot", "banana-pass", b);

    // Namespace A over HTTP, B over gRPC: same schema, same uids, different values.
    await httpA.alter({ schema: SCHEMA });
    const ta = httpA.newTxn();
    const ra = await ta.mutate({
      setNquads: [
        `<${u1}> <name> "Ann" .`,
        `<${u1}> <secret> "a-secret" .`,
        `<${u1}> <dgraph.type> "Person" .`,
        `<${u1}> <friend> <${u2}> .`,
        `<${u2}> <name> "Ann's friend" .`,
      ].join("\n"),
    });
    expect(ra.extensions?.txn?.preds).toContain(`1-${a.toString(16)}-name`);
    await ta.commit();

    const { Operation, Mutation } = await import("dgraph-js");
    const op = new Operation();
    op.setSchema(SCHEMA);
    await grpcB.alter(op);
    const mu = new Mutation();
    mu.setSetNquads(
      [
        `<${u1}> <name> "Bob" .`,
        `<${u1}> <secret> "b-secret" .`,
        `<${u1}> <dgraph.type> "Person" .`,
        `<${u2}> <friend> <${u1}> .`,
        `<${u2}> <name> "Bob's friend" .`,
      ].join("\n"),
    );
    mu.setCommitNow(true);
    await grpcB.newTxn().mutate(mu);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("logs into each namespace with loginIntoNamespace, and the token carries the namespace", async () => {
    const tokenA = httpA.anyClient().getAuthTokens().accessToken as string;
    const claims = JSON.parse(Buffer.from(tokenA.split(".")[1], "base64url").toString()) as {
      namespace: number;
      userid: string;
      groups: string[];
    };
    expect(claims).toMatchObject({ namespace: a, userid: "groot", groups: ["guardians"] });
    // Another namespace's password does not open this one.
    await expect(h.login("groot", "banana-pass", a)).rejects.toThrow("invalid username or password");
    await expect(h.login("groot", "apple-pass", 999)).rejects.toThrow("invalid username or password");
  });

  it("reads only its own values at the same uids, over both transports", async () => {
    const q = `{ q(func: uid(${u1})) { name secret } }`;
    expect(await httpQuery(httpA, q)).toEqual({ q: [{ name: "Ann", secret: "a-secret" }] });
    expect(await grpcQuery(grpcA, q)).toEqual({ q: [{ name: "Ann", secret: "a-secret" }] });
    expect(await httpQuery(httpB, q)).toEqual({ q: [{ name: "Bob", secret: "b-secret" }] });
    expect(await grpcQuery(grpcB, q)).toEqual({ q: [{ name: "Bob", secret: "b-secret" }] });
  });

  it("finds only its own nodes through indexes, has(), type() and expand(_all_)", async () => {
    expect(await httpQuery(httpA, `{ q(func: eq(name, "Bob")) { uid } }`)).toEqual({ q: [] });
    expect(await grpcQuery(grpcB, `{ q(func: eq(name, "Ann")) { uid } }`)).toEqual({ q: [] });
    expect(await httpQuery(httpA, `{ q(func: has(secret)) { secret } }`)).toEqual({
      q: [{ secret: "a-secret" }],
    });
    expect(await grpcQuery(grpcB, `{ q(func: has(secret)) { secret } }`)).toEqual({
      q: [{ secret: "b-secret" }],
    });
    const typed = `{ q(func: type(Person)) { expand(_all_) } }`;
    expect(await httpQuery(httpA, typed)).toEqual({ q: [{ name: "Ann", secret: "a-secret" }] });
    expect(await grpcQuery(grpcB, typed)).toEqual({ q: [{ name: "Bob", secret: "b-secret" }] });
  });

  it("keeps reverse edges and the count index apart", async () => {
    // A: u1 -friend-> u2. B: u2 -friend-> u1.
    const q = `{ q(func: uid(${u1}, ${u2})) { name count(friend) ~friend { name } } }`;
    expect(await httpQuery(httpA, q)).toEqual({
      q: [
        { name: "Ann", "count(friend)": 1 },
        { name: "Ann's friend", "count(friend)": 0, "~friend": [{ name: "Ann" }] },
      ],
    });
    expect(await grpcQuery(grpcB, q)).toEqual({
      q: [
        { name: "Bob", "count(friend)": 0, "~friend": [{ name: "Bob's friend" }] },
        { name: "Bob's friend", "count(friend)": 1 },
      ],
    });
    const counted = `{ q(func: eq(count(friend), 1)) { name } }`;
    expect(await httpQuery(httpA, counted)).toEqual({ q: [{ name: "Ann" }] });
    expect(await grpcQuery(grpcB, counted)).toEqual({ q: [{ name: "Bob's friend" }] });
  });

  it("has its own schema and types", async () => {
    await httpA.alter({ schema: "onlyA: int @index(int) .\ntype OnlyA {\n  onlyA\n}" });
    const schemaOf = async (client: dgraphHttp.DgraphClient) => {
      const data = (await httpQuery(client, "schema {}")) as {
        schema: { predicate: string }[];
        types: { name: string }[];
      };
      return { preds: data.schema.map((p) => p.predicate), types: data.types.map((t) => t.name) };
    };
    const inA = await schemaOf(httpA);
    const inB = await schemaOf(httpB);
    expect(inA.preds).toContain("onlyA");
    expect(inA.types).toContain("OnlyA");
    expect(inB.preds).not.toContain("onlyA");
    expect(inB.types).not.toContain("OnlyA");
    expect(inB.preds).toEqual(expect.arrayContaining(["name", "secret", "friend", "dgraph.type"]));
    // The galaxy has neither namespace's predicates.
    const galaxy = await h.httpClient("groot", "password", 0);
    const inGalaxy = await schemaOf(galaxy);
    expect(inGalaxy.preds).not.toContain("name");
    expect(inGalaxy.types).not.toContain("Person");
    expect(await httpQuery(galaxy, `{ q(func: uid(${u1})) { name secret } }`)).toEqual({ q: [] });
  });

  it("runs upserts against its own data only", async () => {
    const upsert = `upsert {
      query { v as var(func: eq(name, "Bob")) }
      mutation @if(eq(len(v), 0)) {
        set {
          _:n <name> "Bob" .
          _:n <secret> "made-in-a" .
        }
      }
    }`;
    const res = await h.post(
      "/mutate?commitNow=true",
      "application/rdf",
      upsert,
      await h.login("groot", "apple-pass", a),
    );
    expect(res.json()).toMatchObject({ data: { code: "Success" } });
    expect(await grpcQuery(grpcB, `{ q(func: eq(name, "Bob")) { secret } }`)).toEqual({
      q: [{ secret: "b-secret" }],
    });
    expect(await grpcQuery(grpcA, `{ q(func: eq(name, "Bob")) { secret } }`)).toEqual({
      q: [{ secret: "made-in-a" }],
    });
  });

  it("drops a predicate in its own namespace only", async () => {
    await httpA.alter({ dropAttr: "secret" });
    expect(await httpQuery(httpA, `{ q(func: uid(${u1})) { secret } }`)).toEqual({ q: [] });
    expect(await grpcQuery(grpcB, `{ q(func: uid(${u1})) { secret } }`)).toEqual({
      q: [{ secret: "b-secret" }],
    });
  });

  it("rebuilds a changed index in its own namespace only", async () => {
    await httpA.alter({ schema: "name: string @index(exact, term) ." });
    expect(await httpQuery(httpA, `{ q(func: anyofterms(name, "Ann Bob")) { name } }`)).toEqual({
      q: [{ name: "Ann" }, { name: "Bob" }],
    });
    await expect(httpQuery(httpB, `{ q(func: anyofterms(name, "Ann Bob")) { name } }`)).rejects.toThrow(
      "Attribute name is not indexed with type term",
    );
  });

  it("does not conflict with another namespace writing the same uid and predicate", async () => {
    const { Mutation } = await import("dgraph-js");
    const txnA = grpcA.newTxn();
    const txnB = grpcB.newTxn();
    for (const [txn, value] of [
      [txnA, "A concurrent"],
      [txnB, "B concurrent"],
    ] as const) {
      const mu = new Mutation();
      mu.setSetNquads(`<${u2}> <name> "${value}" .`);
      await txn.mutate(mu);
    }
    await txnA.commit();
    await txnB.commit();
    expect(await grpcQuery(grpcA, `{ q(func: uid(${u2})) { name } }`)).toEqual({
      q: [{ name: "A concurrent" }],
    });
    expect(await grpcQuery(grpcB, `{ q(func: uid(${u2})) { name } }`)).toEqual({
      q: [{ name: "B concurrent" }],
    });
  });

  it("refreshes a login into the refresh token's namespace", async () => {
    const { refreshToken } = httpA.anyClient().getAuthTokens();
    const res = await h.post("/login", "application/json", JSON.stringify({ refresh_token: refreshToken }));
    const token = (res.json() as { data: { accessJWT: string } }).data.accessJWT;
    expect(JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).namespace).toBe(a);
    const q = await h.post("/query", "application/dql", `{ q(func: uid(${u1})) { name } }`, token);
    expect((q.json() as { data: unknown }).data).toEqual({ q: [{ name: "Ann" }] });
  });

  it("reads the namespace to log into from a dgraph:// connection string", async () => {
    const conn = parseDgraphConnectionString(`dgraph://groot:banana-pass@${h.grpc}?namespace=${b}`);
    expect(conn).toMatchObject({ username: "groot", password: "banana-pass", namespace: b });
    const client = await h.grpcClient(
      conn.username as string,
      conn.password as string,
      conn.namespace as number,
    );
    expect(await grpcQuery(client, `{ q(func: uid(${u1})) { name } }`)).toEqual({ q: [{ name: "Bob" }] });
    expect(parseDgraphConnectionString(`dgraph://${h.grpc}`).namespace).toBeUndefined();
    expect(() => parseDgraphConnectionString(`dgraph://${h.grpc}?namespace=-1`)).toThrow(
      "Invalid connection string: namespace must be a decimal id (0 to 2^53-1), got -1",
    );
  });

  it("continues a transaction across transports within a namespace", async () => {
    const txn = grpcB.newTxn();
    const { Mutation } = await import("dgraph-js");
    const mu = new Mutation();
    mu.setSetNquads(`<${u2}> <secret> "cross-transport" .`);
    const res = await txn.mutate(mu);
    const startTs = res.getTxn()?.getStartTs() as number;
    // Committed over HTTP with B's token: same namespace, so allowed.
    const commit = await h.post(
      `/commit?startTs=${startTs}`,
      "application/json",
      "[]",
      await h.login("groot", "banana-pass", b),
    );
    expect(commit.json()).toMatchObject({ data: { code: "Success" } });
    expect(await httpQuery(httpB, `{ q(func: uid(${u2})) { secret } }`)).toEqual({
      q: [{ secret: "cross-transport" }],
    });
    expect(await httpQuery(httpA, `{ q(func: uid(${u2})) { secret } }`)).toEqual({ q: [] });
  });
});
