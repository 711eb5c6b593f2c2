/**
 * The real `dgraph-js` client (npm, gRPC via @grpc/grpc-js) against the gRPC server with ACL on, following
 * the client's own test suite: login, alter, drop all, queries with variables, JSON and N-Quad mutations,
 * commit, discard, conflicts, upserts via doRequest, read-only and best-effort transactions.
 */
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { grpcError, type Harness, mutation, operation, startHarness } from "./harness.ts";

describe("dgraph-js against the gRPC server (ACL on)", () => {
  let h: Harness;
  let stub: dgraph.DgraphClientStub;
  let client: dgraph.DgraphClient;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  // The client suite's setup(): log in as groot, then drop everything.
  beforeEach(async () => {
    stub = h.stub();
    client = new dgraph.DgraphClient(stub);
    await stub.login("groot", "password");
    await client.alter(operation({ dropAll: true }));
  });

  async function query(q: string, vars?: Record<string, string>): Promise<unknown> {
    const txn = client.newTxn({ readOnly: true });
    const res = vars ? await txn.queryWithVars(q, vars) : await txn.query(q);
    return res.getJson();
  }

  describe("login and version", () => {
    it("returns the JWTs as a binary api.Jwt and reports the version tag", async () => {
      const jwt = await h.stub().login("groot", "password");
      expect(jwt.getAccessJwt().split(".")).toHaveLength(3);
      expect(jwt.getRefreshJwt().split(".")).toHaveLength(3);
      const version = await stub.checkVersion(new dgraph.Check());
      expect(version.getTag()).toMatch(/^v\d+\.\d+\.\d+/);
      expect(version.getTag()).toBe("v25.0.0");
    });

    it("rejects a wrong password and a differently-cased user id", async () => {
      const other = h.stub();
      await expect(other.login("groot", "wrong")).rejects.toThrow("invalid username or password");
      await expect(other.login("Groot", "password")).rejects.toThrow("invalid username or password");
    });

    it("logs in with the refresh token", async () => {
      const refreshJwt = (await h.stub().login("groot", "password")).getRefreshJwt();
      const fresh = h.stub();
      const jwt = await fresh.login(undefined, undefined, refreshJwt);
      expect(jwt.getAccessJwt()).toBeTruthy();
      const res = await new dgraph.DgraphClient(fresh).newTxn().query("{ q(func: uid(1)) { uid } }");
      expect(res.getJson()).toEqual({ q: [{ uid: "0x1" }] });
    });

    it("refuses calls without an access token (PERMISSION_DENIED)", async () => {
      const anonymous = new dgraph.DgraphClient(h.stub());
      const err = await grpcError(anonymous.newTxn().query("{ q(func: uid(1)) { uid } }"));
      expect(err).toEqual({ code: dgraph.grpc.status.PERMISSION_DENIED, details: "no accessJwt available" });
    });

    it("refreshes an expired access token transparently (UNAUTHENTICATED → retryLogin)", async () => {
      // JWT expiry has a one-second granularity, so a token lives between TTL - 1 s and TTL: two seconds
      // leave the refreshed token at least one to carry the retried query, even on a loaded machine.
      const shortLived = await h.extraGrpc({ aclAccessTtlMs: 2_000 });
      const s = h.stub(shortLived);
      await s.login("groot", "password");
      const c = new dgraph.DgraphClient(s);
      await new Promise((r) => setTimeout(r, 3_100));
      const res = await c.newTxn().query("{ q(func: uid(1)) { uid } }");
      expect(res.getJson()).toEqual({ q: [{ uid: "0x1" }] });
    });
  });

  describe("alter", () => {
    it("sets a schema, drops an attribute and drops all", async () => {
      await client.alter(operation({ schema: "name: string @index(exact) .\nage: int ." }));
      const schema = (await query("schema(pred: [name, age]) { type index }")) as {
        schema: { predicate: string }[];
      };
      expect(schema.schema.map((p) => p.predicate).sort()).toEqual(["age", "name"]);
      await client.alter(operation({ dropAttr: "age" }));
      expect(await query("schema(pred: [age]) { type }")).toEqual({});
      await client.alter(operation({ dropAll: true }));
      expect(await query("schema(pred: [name]) { type }")).toEqual({});
    });

    it("reports schema errors and empty operations", async () => {
      await expect(client.alter(operation({ schema: "name: strin ." }))).rejects.toThrow(
        "line 1 column 6: Undefined Type",
      );
      await expect(client.alter(new dgraph.Operation())).rejects.toThrow(
        "Operation must have at least one field set",
      );
    });

    it("drops data only with drop_op DATA and a type with drop_op TYPE", async () => {
      await client.alter(operation({ schema: "name: string @index(exact) .\ntype Person {\n  name\n}" }));
      await client.newTxn().mutate(mutation({ setNquads: '_:a <name> "Alice" .', commitNow: true }));
      const dropData = new dgraph.Operation();
      dropData.setDropOp(dgraph.Operation.DropOp.DATA);
      await client.alter(dropData);
      expect(await query('{ q(func: eq(name, "Alice")) { name } }')).toEqual({ q: [] });
      expect(await query("schema(pred: [name]) { index }")).toEqual({
        schema: [{ predicate: "name", index: true }],
      });
      const dropType = new dgraph.Operation();
      dropType.setDropOp(dgraph.Operation.DropOp.TYPE);
      dropType.setDropValue("Person");
      await client.alter(dropType);
      expect(await query("schema(type: Person) {}")).toEqual({});
    });
  });

  describe("transactions", () => {
    beforeEach(async () => {
      await client.alter(operation({ schema: "name: string @index(exact) ." }));
    });

    it("queries with variables (queryWithVars), missing variables give empty results", async () => {
      await client.newTxn().mutate(mutation({ setJson: { name: "Alice" }, commitNow: true }));
      const q = "query me($a: string) { me(func: eq(name, $a)) { name }}";
      expect(await query(q, { $a: "Alice" })).toEqual({ me: [{ name: "Alice" }] });
      expect(await query(q, { $a: "Bob" })).toEqual({ me: [] });
    });

    it("JSON and N-Quad mutations in one transaction, seen by the txn before commit, by others after", async () => {
      const txn = client.newTxn();
      const a = await txn.mutate(mutation({ setJson: { uid: "_:alice", name: "Alice" } }));
      const b = await txn.mutate(mutation({ setNquads: '_:bob <name> "Bob" .' }));
      const alice = a.getUidsMap().get("alice");
      const bob = b.getUidsMap().get("bob");
      expect(alice).toMatch(/^0x[0-9a-f]+$/);
      expect(bob).toMatch(/^0x[0-9a-f]+$/);
      const txnTs = a.getTxn()?.getStartTs();
      expect(b.getTxn()?.getStartTs()).toBe(txnTs);
      expect(a.getTxn()?.getKeysList().length).toBeGreaterThan(0);
      expect(a.getTxn()?.getPredsList()).toContain("1-0-name");

      const inside = await txn.query(`{ q(func: uid(${alice}, ${bob})) { name } }`);
      expect(inside.getJson()).toEqual({ q: [{ name: "Alice" }, { name: "Bob" }] });
      expect(await query(`{ q(func: uid(${alice}, ${bob})) { name } }`)).toEqual({ q: [] });

      await txn.commit();
      expect(await query(`{ q(func: uid(${alice}, ${bob})) { name } }`)).toEqual({
        q: [{ name: "Alice" }, { name: "Bob" }],
      });
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
      await expect(txn.query("{ q(func: uid(1)) { uid } }")).rejects.toBe(dgraph.ERR_FINISHED);
    });

    it("three mutations in one txn give uids in allocation order (dgraph-js mutate spec)", async () => {
      const txn = client.newTxn();
      const uids: string[] = [];
      for (const n of [200, 300, 400]) {
        const res = await txn.mutate(mutation({ setNquads: `_:${n} <name> "ok ${n}" .` }));
        uids.push(res.getUidsMap().get(String(n)) as string);
      }
      await txn.commit();
      expect(await query(`{ me(func: uid(${uids.join(",")})) { name }}`)).toEqual({
        me: [{ name: "ok 200" }, { name: "ok 300" }, { name: "ok 400" }],
      });
    });

    it("discard throws the writes away", async () => {
      const txn = client.newTxn();
      const res = await txn.mutate(mutation({ setJson: { uid: "_:x", name: "Ghost" } }));
      await txn.discard();
      const uid = res.getUidsMap().get("x");
      expect(await query(`{ q(func: uid(${uid})) { name } }`)).toEqual({ q: [] });
      expect(await query('{ q(func: eq(name, "Ghost")) { uid } }')).toEqual({ q: [] });
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
    });

    it("deletes with JSON, N-Quads and NQuad messages (deleteEdges)", async () => {
      const created = await client.newTxn().mutate(
        mutation({
          setJson: { uid: "_:a", name: "Alice", friends: [{ name: "Bob" }, { name: "Carol" }] },
          commitNow: true,
        }),
      );
      const a = created.getUidsMap().get("a") as string;
      await client.newTxn().mutate(mutation({ deleteJson: { uid: a, name: null }, commitNow: true }));
      expect(await query(`{ q(func: uid(${a})) { name friends { name } } }`)).toEqual({
        q: [{ friends: [{ name: "Bob" }, { name: "Carol" }] }],
      });
      const mu = new dgraph.Mutation();
      dgraph.deleteEdges(mu, a, "friends");
      mu.setCommitNow(true);
      await client.newTxn().mutate(mu);
      expect(await query(`{ q(func: uid(${a})) { uid friends { name } } }`)).toEqual({ q: [{ uid: a }] });
      await client.newTxn().mutate(mutation({ setNquads: `<${a}> <name> "Alice2" .`, commitNow: true }));
      await client.newTxn().mutate(mutation({ delNquads: `<${a}> <name> * .`, commitNow: true }));
      expect(await query(`{ q(func: uid(${a})) { name } }`)).toEqual({ q: [] });
    });

    it("builds mutations from NQuad messages with typed values, languages and facets", async () => {
      await client.alter(operation({ schema: "age: int .\nnick: string @lang .\nfriend: [uid] ." }));
      const mu = new dgraph.Mutation();
      const nq = (subject: string, predicate: string, fill: (nq: dgraph.NQuad, v: dgraph.Value) => void) => {
        const n = new dgraph.NQuad();
        n.setSubject(subject);
        n.setPredicate(predicate);
        const v = new dgraph.Value();
        fill(n, v);
        if (!n.getObjectId()) n.setObjectValue(v);
        mu.addSet(n);
        return n;
      };
      nq("_:a", "name", (_, v) => v.setStrVal('Al "the pal"\n'));
      nq("_:a", "age", (_, v) => v.setIntVal(42));
      nq("_:a", "nick", (n, v) => {
        v.setDefaultVal("Ali");
        n.setLang("fr");
      });
      const edge = nq("_:a", "friend", (n) => n.setObjectId("_:b"));
      const facet = new dgraph.Facet();
      facet.setKey("since");
      const since = Buffer.alloc(8);
      since.writeBigInt64LE(2006n);
      facet.setValue(new Uint8Array(since));
      facet.setValType(dgraph.Facet.ValType.INT);
      edge.addFacets(facet);
      nq("_:b", "name", (_, v) => v.setDefaultVal("Bea"));
      mu.setCommitNow(true);
      const res = await client.newTxn().mutate(mu);
      const a = res.getUidsMap().get("a");
      expect(
        await query(`{ q(func: uid(${a})) { name age nick@fr friend @facets(since) { name } } }`),
      ).toEqual({
        q: [
          {
            name: 'Al "the pal"\n',
            age: 42,
            "nick@fr": "Ali",
            friend: [{ name: "Bea", "friend|since": 2006 }],
          },
        ],
      });
    });

    it("a bad N-Quad fails the mutation; the client discards and the txn is finished", async () => {
      const txn = client.newTxn();
      await expect(txn.mutate(mutation({ setNquads: 'alice <name> "Alice" .' }))).rejects.toThrow();
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
    });

    it("commitNow commits at once, a later commit is ERR_FINISHED", async () => {
      const txn = client.newTxn();
      const res = await txn.mutate(mutation({ setJson: { name: "Now" }, commitNow: true }));
      expect(res.getTxn()?.getCommitTs()).toBeGreaterThan(0);
      expect(res.getTxn()?.getKeysList()).toEqual([]);
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
      expect(await query('{ q(func: eq(name, "Now")) { name } }')).toEqual({ q: [{ name: "Now" }] });
    });

    it("a write-write conflict aborts the second committer with ERR_ABORTED (conflict spec)", async () => {
      const txn1 = client.newTxn();
      const res = await txn1.mutate(mutation({ setJson: { name: "Alice" } }));
      const uid = res.getUidsMap().values().next().value as string;
      const txn2 = client.newTxn();
      await txn2.mutate(mutation({ setJson: { uid, name: "Alice 2" } }));
      await txn1.commit();
      await expect(txn2.commit()).rejects.toBe(dgraph.ERR_ABORTED);
      expect(await query(`{ q(func: uid(${uid})) { name } }`)).toEqual({ q: [{ name: "Alice" }] });
    });

    it("a mutation on a txn the server has aborted is ERR_ABORTED too (FAILED_PRECONDITION)", async () => {
      const txn1 = client.newTxn();
      const res = await txn1.mutate(mutation({ setJson: { name: "X" } }));
      const uid = res.getUidsMap().values().next().value as string;
      const txn2 = client.newTxn();
      await txn2.mutate(mutation({ setJson: { uid, name: "Y" } }));
      const startTs = (await txn2.query("{ q(func: uid(1)) { uid } }")).getTxn()?.getStartTs() as number;
      await txn1.commit();
      // The server aborts txn2 at its commit …
      const ctx = new dgraph.TxnContext();
      ctx.setStartTs(startTs);
      expect((await grpcError(stub.commitOrAbort(ctx))).code).toBe(dgraph.grpc.status.ABORTED);
      // … after which the client's next mutation in it maps FAILED_PRECONDITION to ERR_ABORTED.
      await expect(txn2.mutate(mutation({ setJson: { uid, name: "Z" } }))).rejects.toBe(dgraph.ERR_ABORTED);
    });
  });

  describe("upserts via doRequest", () => {
    beforeEach(async () => {
      await client.alter(operation({ schema: "email: string @index(exact) @upsert .\nfriends: [uid] ." }));
    });

    it("updates through a query variable when the condition holds, and not otherwise", async () => {
      await client
        .newTxn()
        .mutate(mutation({ setNquads: '_:u <email> "wrong_email@dgraph.io" .', commitNow: true }));
      const upsert = (cond: string) => {
        const req = new dgraph.Request();
        req.setQuery('query { me(func: eq(email, "wrong_email@dgraph.io")) { v as uid } }');
        req.setMutationsList([mutation({ setNquads: 'uid(v) <email> "correct_email@dgraph.io" .', cond })]);
        req.setCommitNow(true);
        return client.newTxn().doRequest(req);
      };
      const skipped = await upsert("@if(eq(len(v), 0))");
      expect(skipped.getJson()).toMatchObject({ me: [{ uid: expect.any(String) }] });
      expect(await query('{ q(func: eq(email, "correct_email@dgraph.io")) { uid } }')).toEqual({ q: [] });

      const applied = await upsert("@if(eq(len(v), 1))");
      expect(applied.getTxn()?.getCommitTs()).toBeGreaterThan(0);
      expect(await query('{ q(func: eq(email, "wrong_email@dgraph.io")) { uid } }')).toEqual({ q: [] });
      expect(await query('{ q(func: eq(email, "correct_email@dgraph.io")) { email } }')).toEqual({
        q: [{ email: "correct_email@dgraph.io" }],
      });
    });

    it("conditional upsert on a friend count, with query variables in the request", async () => {
      const res = await client.newTxn().mutate(
        mutation({
          setJson: { uid: "_:a", email: "a@x.io", friends: [{ email: "b@x.io" }, { email: "c@x.io" }] },
          commitNow: true,
        }),
      );
      const a = res.getUidsMap().get("a");
      const req = new dgraph.Request();
      req.setQuery("query q($e: string) { me(func: eq(email, $e)) { u as uid  f as friends } }");
      req.getVarsMap().set("$e", "a@x.io");
      req.setMutationsList([
        mutation({ setNquads: 'uid(u) <email> "two-friends@x.io" .', cond: "@if(eq(len(f), 2))" }),
      ]);
      req.setCommitNow(true);
      await client.newTxn().doRequest(req);
      expect(await query(`{ q(func: uid(${a})) { email } }`)).toEqual({ q: [{ email: "two-friends@x.io" }] });
    });

    it("a JSON upsert creates a node only once", async () => {
      const req = () => {
        const r = new dgraph.Request();
        r.setQuery('{ q(func: eq(email, "once@x.io")) { v as uid } }');
        r.setMutationsList([
          mutation({ setJson: { uid: "uid(v)", email: "once@x.io" }, cond: "@if(eq(len(v), 0))" }),
        ]);
        r.setCommitNow(true);
        return r;
      };
      const first = await client.newTxn().doRequest(req());
      expect([...first.getUidsMap().keys()]).toHaveLength(1);
      const second = await client.newTxn().doRequest(req());
      expect([...second.getUidsMap().keys()]).toHaveLength(0);
      expect(await query('{ q(func: eq(email, "once@x.io")) { email } }')).toEqual({
        q: [{ email: "once@x.io" }],
      });
    });
  });

  describe("read-only and best-effort transactions", () => {
    it("two consecutive read-only queries share a start ts; best-effort is read-only and not older", async () => {
      await client.alter(operation({ schema: "name: string ." }));
      await client.newTxn().mutate(mutation({ setJson: { name: "ro" }, commitNow: true }));
      const q = "{ q(func: has(name)) { name } }";
      const r1 = await client.newTxn({ readOnly: true }).query(q);
      const r2 = await client.newTxn({ readOnly: true }).query(q);
      const ts1 = r1.getTxn()?.getStartTs() as number;
      expect(ts1).toBeGreaterThan(0);
      expect(r2.getTxn()?.getStartTs()).toBe(ts1);
      expect(r1.getJson()).toEqual({ q: [{ name: "ro" }] });

      const be = await client.newTxn({ readOnly: true, bestEffort: true }).query(q);
      expect(be.getTxn()?.getStartTs()).toBeGreaterThanOrEqual(ts1);
      expect(be.getJson()).toEqual({ q: [{ name: "ro" }] });
      expect(() => client.newTxn({ bestEffort: true })).toThrow(dgraph.ERR_BEST_EFFORT_REQUIRED_READ_ONLY);
      await expect(
        client.newTxn({ readOnly: true }).mutate(mutation({ setJson: { name: "no" } })),
      ).rejects.toBe(dgraph.ERR_READ_ONLY);
    });

    it("answers in RDF with queryRDF", async () => {
      await client.alter(operation({ schema: "name: string ." }));
      const res = await client
        .newTxn()
        .mutate(mutation({ setJson: { uid: "_:a", name: "Alice" }, commitNow: true }));
      const a = res.getUidsMap().get("a");
      const rdf = await client.newTxn({ readOnly: true }).queryRDF(`{ q(func: uid(${a})) { name } }`);
      expect(Buffer.from(rdf.getRdf_asU8()).toString("utf8")).toBe(`<${a}> <name> "Alice" .\n`);
      expect(rdf.getJson_asU8()).toHaveLength(0);
    });
  });
});
