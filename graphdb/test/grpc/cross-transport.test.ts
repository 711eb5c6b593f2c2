/**
 * One engine, two transports: a transaction begun over HTTP (raw fetch) is continued and committed over
 * gRPC (dgraph-js stub calls) and the other way round; HTTP and gRPC readers at the same start ts see the
 * same snapshot. ACL on, with tokens and txn hashes valid on both transports (same secret).
 */
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, mutation, operation, responseJson, startHarness } from "./harness.ts";

interface HttpTxn {
  start_ts: number;
  commit_ts?: number;
  keys?: string[];
  preds?: string[];
  hash?: string;
}

interface HttpBody {
  data?: { uids?: Record<string, string> } & Record<string, unknown>;
  errors?: { message: string }[];
  extensions?: { txn?: HttpTxn };
}

describe("a transaction across HTTP and gRPC on one engine (ACL on)", () => {
  let h: Harness;
  let token: string;
  let stub: dgraph.DgraphClientStub;

  async function http(path: string, contentType: string, body: string): Promise<HttpBody> {
    const res = await fetch(`${h.httpAddress}${path}`, {
      method: "POST",
      headers: { "content-type": contentType, "x-dgraph-accesstoken": token },
      body,
    });
    const json = (await res.json()) as HttpBody;
    if (json.errors) throw new Error(`HTTP ${path}: ${json.errors[0].message}`);
    return json;
  }

  /** A raw gRPC Query with an explicit start ts (what a client continuing someone else's txn sends). */
  function grpcRequest(fields: {
    startTs?: number;
    query?: string;
    hash?: string;
    mutations?: dgraph.Mutation[];
  }) {
    const req = new dgraph.Request();
    if (fields.startTs) req.setStartTs(fields.startTs);
    if (fields.query) req.setQuery(fields.query);
    if (fields.hash) req.setHash(fields.hash);
    if (fields.mutations) req.setMutationsList(fields.mutations);
    return stub.query(req);
  }

  beforeAll(async () => {
    h = await startHarness({ http: true });
    // Log in over HTTP; the access token then also authenticates the gRPC calls.
    const login = await fetch(`${h.httpAddress}/login`, {
      method: "POST",
      body: JSON.stringify({ userid: "groot", password: "password" }),
    });
    token = ((await login.json()) as { data: { accessJWT: string } }).data.accessJWT;
    stub = h.stub();
    const metadata = new dgraph.grpc.Metadata();
    metadata.set("accessJwt", token);
    await stub.alter(operation({ dropAll: true }), metadata);
    await stub.login("groot", "password");
    await stub.alter(operation({ schema: "name: string @index(exact) .\nage: int ." }));
  });

  afterAll(async () => {
    await h?.close();
  });

  it("begun over HTTP, continued and committed over gRPC: sees its own writes", async () => {
    const begun = await http("/mutate", "application/rdf", '{ set { _:a <name> "Alice" . } }');
    const txn = begun.extensions?.txn as HttpTxn;
    const alice = begun.data?.uids?.a as string;
    expect(txn.start_ts).toBeGreaterThan(0);
    expect(txn.hash).toMatch(/^[0-9a-f]{64}$/);

    // The gRPC query at the HTTP txn's start ts (echoing its hash) sees the uncommitted write.
    const seen = await grpcRequest({
      startTs: txn.start_ts,
      hash: txn.hash,
      query: `{ q(func: uid(${alice})) { name } }`,
    });
    expect(responseJson(seen)).toEqual({ q: [{ name: "Alice" }] });
    expect(seen.getTxn()?.getStartTs()).toBe(txn.start_ts);
    expect(seen.getTxn()?.getHash()).toBe(txn.hash);

    // A second write in the same txn over gRPC.
    const more = await grpcRequest({
      startTs: txn.start_ts,
      hash: txn.hash,
      mutations: [mutation({ setNquads: `<${alice}> <age> "30" .` })],
    });
    const keys = [...(txn.keys ?? []), ...(more.getTxn()?.getKeysList() ?? [])];

    // Others do not see either write yet.
    const outside = await grpcRequest({ query: `{ q(func: uid(${alice})) { name age } }` });
    expect(responseJson(outside)).toEqual({ q: [] });

    const ctx = new dgraph.TxnContext();
    ctx.setStartTs(txn.start_ts);
    ctx.setKeysList(keys);
    ctx.setHash(txn.hash as string);
    const committed = await stub.commitOrAbort(ctx);
    expect(committed.getCommitTs()).toBeGreaterThan(txn.start_ts);

    const after = await http("/query", "application/dql", `{ q(func: uid(${alice})) { name age } }`);
    expect(after.data).toEqual({ q: [{ name: "Alice", age: 30 }] });
  });

  it("begun over gRPC (dgraph-js Txn), committed over HTTP /commit", async () => {
    const client = new dgraph.DgraphClient(stub);
    const txn = client.newTxn();
    const res = await txn.mutate(mutation({ setJson: { uid: "_:b", name: "Bob" } }));
    const bob = res.getUidsMap().get("b") as string;
    const startTs = res.getTxn()?.getStartTs() as number;
    const hash = res.getTxn()?.getHash() as string;

    const inside = await http(
      `/query?startTs=${startTs}&hash=${hash}`,
      "application/dql",
      `{ q(func: uid(${bob})) { name } }`,
    );
    expect(inside.data).toEqual({ q: [{ name: "Bob" }] });
    await http(
      `/mutate?startTs=${startTs}&hash=${hash}`,
      "application/rdf",
      `{ set { <${bob}> <age> "41" . } }`,
    );

    const commit = await http(
      `/commit?startTs=${startTs}&hash=${hash}`,
      "application/json",
      JSON.stringify(res.getTxn()?.getKeysList()),
    );
    expect(commit.extensions?.txn?.commit_ts).toBeGreaterThan(startTs);
    const after = await client.newTxn({ readOnly: true }).query(`{ q(func: uid(${bob})) { name age } }`);
    expect(after.getJson()).toEqual({ q: [{ name: "Bob", age: 41 }] });
  });

  it("HTTP and gRPC readers at the same start ts see the same snapshot", async () => {
    const created = await stub.query(
      (() => {
        const r = new dgraph.Request();
        r.setMutationsList([mutation({ setJson: { uid: "_:c", name: "Carol", age: 1 } })]);
        r.setCommitNow(true);
        return r;
      })(),
    );
    const carol = created.getUidsMap().get("c") as string;
    const q = `{ q(func: uid(${carol})) { name age } }`;

    // A read-write txn begun over HTTP fixes the snapshot at its start ts …
    const reader = await http("/query", "application/dql", q);
    const ts = reader.extensions?.txn?.start_ts as number;
    const hash = reader.extensions?.txn?.hash as string;
    expect(reader.data).toEqual({ q: [{ name: "Carol", age: 1 }] });

    // … then a later commit changes the data (over gRPC) …
    await stub.query(
      (() => {
        const r = new dgraph.Request();
        r.setMutationsList([mutation({ setNquads: `<${carol}> <age> "2" .` })]);
        r.setCommitNow(true);
        return r;
      })(),
    );

    // … and both transports, reading at that ts, still see the old value; fresh readers see the new one.
    const overHttp = await http(`/query?startTs=${ts}&hash=${hash}`, "application/dql", q);
    const overGrpc = await grpcRequest({ startTs: ts, hash, query: q });
    expect(overHttp.data).toEqual({ q: [{ name: "Carol", age: 1 }] });
    expect(responseJson(overGrpc)).toEqual(overHttp.data);
    expect(overGrpc.getTxn()?.getStartTs()).toBe(ts);

    const freshHttp = await http("/query?ro=true", "application/dql", q);
    const freshGrpc = await new dgraph.DgraphClient(stub).newTxn({ readOnly: true }).query(q);
    expect(freshHttp.data).toEqual({ q: [{ name: "Carol", age: 2 }] });
    expect(freshGrpc.getJson()).toEqual(freshHttp.data);
    // Read-only timestamps are shared across transports too.
    expect(freshGrpc.getTxn()?.getStartTs()).toBe(freshHttp.extensions?.txn?.start_ts);
  });

  it("rejects a wrong txn hash on either transport", async () => {
    const begun = await http("/query", "application/dql", "{ q(func: uid(1)) { uid } }");
    const ts = begun.extensions?.txn?.start_ts as number;
    await expect(
      grpcRequest({ startTs: ts, hash: "00".repeat(32), query: "{ q(func: uid(1)) { uid } }" }),
    ).rejects.toThrow("hash mismatch the claimed startTs|namespace");
  });
});
