/**
 * The real `dgraph-js-http` client (npm 20.11) against the server with ACL on, following the client's own
 * test suite: login, alter, drop all, queries with variables, RDF and JSON mutations, commit, discard,
 * conflicts, star deletes and upserts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraph from "dgraph-js-http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

const SECRET = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");

describe("dgraph-js-http against the server (ACL on)", () => {
  let dir: string;
  let db: GraphDBHandle;
  let server: HttpServer;
  let address: string;
  let stub: dgraph.DgraphClientStub;
  let client: dgraph.DgraphClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "trellis-djh-"));
    db = createGraphDB({ dir, acl: true });
    server = createHttpServer(db.engine, { acl: true, aclSecret: SECRET });
    const { port } = await server.listen(0, "127.0.0.1");
    address = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await server.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The client suite's setup(): log in as groot, then drop everything.
  beforeEach(async () => {
    stub = new dgraph.DgraphClientStub(address);
    client = new dgraph.DgraphClient(stub);
    await client.login("groot", "password");
    await client.alter({ dropAll: true });
  });

  async function setSchema(schema: string) {
    await client.alter({ schema });
  }

  async function names(query: string) {
    const res = await client.newTxn().query(query);
    return res.data;
  }

  describe("login", () => {
    it("rejects a wrong password and a differently-cased user id", async () => {
      const other = new dgraph.DgraphClientStub(address);
      await expect(other.login("groot", "wrong")).rejects.toThrow("invalid username or password");
      await expect(other.login("Groot", "password")).rejects.toThrow("invalid username or password");
    });

    it("logs in again with the refresh token", async () => {
      const { refreshToken } = stub.getAuthTokens();
      expect(refreshToken).toBeTruthy();
      const fresh = new dgraph.DgraphClientStub(address);
      await expect(fresh.login(undefined, undefined, refreshToken)).resolves.toBe(true);
      const res = await new dgraph.DgraphClient(fresh).newTxn().query("{ q(func: uid(1)) { uid } }");
      expect(res.data).toEqual({ q: [{ uid: "0x1" }] });
    });

    it("refuses requests without an access token", async () => {
      const anonymous = new dgraph.DgraphClient(new dgraph.DgraphClientStub(address));
      await expect(anonymous.newTxn().query("{ q(func: uid(1)) { uid } }")).rejects.toThrow(
        "no accessJwt available",
      );
    });
  });

  describe("server information", () => {
    it("reports health, version, state and keywords", async () => {
      const health = (await stub.getHealth()) as unknown as { status: string }[];
      expect(health[0].status).toBe("healthy");
      expect(await stub.detectApiVersion()).toMatch(/^v[0-9]+(.[0-9]+){2}.*|^[a-z0-9]*$/);
      expect(await client.getHealth()).toBeInstanceOf(Array);
      expect(await stub.getState()).toHaveProperty("maxTxnTs");
      const kw = await client.fetchUiKeywords();
      expect(kw.keywords).toContainEqual({ type: "", name: "alloftext" });
    });
  });

  describe("queries and mutations", () => {
    it("queries with variables; a missing variable gives an empty result", async () => {
      await setSchema("name: string @index(exact) .");
      await client.newTxn().mutate({ setJson: { name: "Alice" }, commitNow: true });
      const q = "query me($a: string) { me(func: eq(name, $a)) { name }}";
      const hit = await client.newTxn().queryWithVars(q, { $a: "Alice" });
      expect(hit.data).toEqual({ me: [{ name: "Alice" }] });
      const miss = await client.newTxn().queryWithVars(q, {});
      expect(miss.data).toEqual({ me: [] });
      const debug = await client.newTxn().queryWithVars(q, { $a: "Alice" }, { debug: true });
      expect((debug.data as { me: { uid?: string }[] }).me[0].uid).toMatch(/^0x/);
    });

    it("collects uids from separate RDF mutations of one transaction", async () => {
      await setSchema("name: string @index(fulltext) .");
      const txn = client.newTxn();
      const uids: string[] = [];
      for (const n of [200, 300, 400]) {
        const ag = await txn.mutate({ setNquads: `_:${n} <name> "ok ${n}" .` });
        uids.push(ag.data.uids[String(n)]);
      }
      await txn.commit();
      const res = await names(`{ me(func: uid(${uids.join(",")})) { name }}`);
      expect(res).toEqual({ me: [{ name: "ok 200" }, { name: "ok 300" }, { name: "ok 400" }] });
    });

    it("sets and deletes with JSON and star deletes", async () => {
      await client.newTxn().mutate({
        setJson: { name: "Alice", friends: [{ name: "Bob" }, { name: "Carol" }] },
        commitNow: true,
      });
      const all = await names("{ me(func: has(friends)) { uid name friends { name } } }");
      const me = (all as { me: { uid: string; name: string; friends: unknown[] }[] }).me;
      expect(me).toHaveLength(1);
      expect(me[0].friends).toHaveLength(2);
      const uid = me[0].uid;

      await client.newTxn().mutate({ deleteJson: { uid, friends: null }, commitNow: true });
      expect(await names(`{ me(func: uid(${uid})) { name friends { name } } }`)).toEqual({
        me: [{ name: "Alice" }],
      });

      await client.newTxn().mutate({ deleteNquads: `<${uid}> <name> * .`, commitNow: true });
      expect(await names(`{ me(func: uid(${uid})) { name } }`)).toEqual({ me: [] });
    });

    it("discards a transaction's writes", async () => {
      await setSchema("name: string @index(exact) .");
      const txn = client.newTxn();
      await txn.mutate({ setNquads: '_:x <name> "Ghost" .' });
      await txn.discard();
      expect(await names('{ q(func: eq(name, "Ghost")) { name } }')).toEqual({ q: [] });
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
    });

    it("fails on bad RDF, then the transaction is finished", async () => {
      const txn = client.newTxn();
      await expect(txn.mutate({ setNquads: 'alice <name> "Alice" .' })).rejects.toBeInstanceOf(
        dgraph.APIError,
      );
      await expect(txn.commit()).rejects.toBe(dgraph.ERR_FINISHED);
    });

    it("aborts the second committer on a conflicting key", async () => {
      const txn1 = client.newTxn();
      const ag = await txn1.mutate({ setJson: { name: "Alice" } });
      const uid = Object.values(ag.data.uids)[0];
      const txn2 = client.newTxn();
      await txn2.mutate({ setJson: { uid, name: "Alice" } });
      await txn1.commit();
      await expect(txn2.commit()).rejects.toBe(dgraph.ERR_ABORTED);
    });

    it("runs an upsert block that only creates once", async () => {
      await setSchema("email: string @index(exact) @upsert .");
      const upsert = `upsert {
        query { v as var(func: eq(email, "wrong@example.com")) }
        mutation @if(eq(len(v), 0)) { set { _:new <email> "wrong@example.com" . } }
      }`;
      await client.newTxn().mutate({ mutation: upsert, commitNow: true });
      await client.newTxn().mutate({ mutation: upsert, commitNow: true });
      const res = await names('{ q(func: eq(email, "wrong@example.com")) { count(uid) } }');
      expect(res).toEqual({ q: [{ count: 1 }] });
    });

    it("drops a predicate with dropAttr", async () => {
      await client.newTxn().mutate({ setNquads: '_:a <nick> "x" .', commitNow: true });
      await client.alter({ dropAttr: "nick" });
      expect(await names("{ q(func: has(nick)) { uid } }")).toEqual({ q: [] });
    });
  });
});
