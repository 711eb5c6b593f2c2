/**
 * Reserved `dgraph.*` predicates, as a tenant's groot (a guardian of a non-galaxy namespace) sees them
 * through the real clients: the GraphQL schema's predicates are never writable by a DQL mutation (Dgraph's
 * rule), and with `protectReservedPredicates` no `dgraph.*` predicate but `dgraph.type` is, so a tenant
 * cannot give its groot a password of its choosing or rewrite its accounts. The operations that own them
 * (namespace creation, setGrootPassword, /admin/schema) keep working.
 */
import * as dgraph from "dgraph-js";
import { afterEach, describe, expect, it } from "vitest";
import { type NamespaceHarness, startNamespaceHarness } from "./namespace-harness.ts";

const SDL = "type Item { id: ID! name: String @search(by: [exact]) }";

/** The message of a rejected promise. */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    return String((e as Error).message ?? e);
  }
  throw new Error("expected the call to fail");
}

describe("reserved predicates", () => {
  let h: NamespaceHarness;
  let ns: number;

  async function start(protectReservedPredicates: boolean) {
    h = await startNamespaceHarness({ db: { protectReservedPredicates } });
    ns = await h.db.engine.createNamespace({ grootPassword: "tenant-pass" });
    const token = await h.login("groot", "tenant-pass", ns);
    const res = await h.post("/admin/schema", "application/graphql", SDL, token);
    expect(res.json()).toMatchObject({ data: { code: "Success" } });
  }

  async function storedSchema(): Promise<string | undefined> {
    const res = await h.db.engine.query({
      namespace: ns,
      query: '{ s(func: eq(dgraph.graphql.xid, "dgraph.graphql.schema")) { dgraph.graphql.schema } }',
    });
    return (JSON.parse(res.json) as { s: { "dgraph.graphql.schema"?: string }[] }).s[0]?.[
      "dgraph.graphql.schema"
    ];
  }
  async function schemaUid(): Promise<string> {
    const res = await h.db.engine.query({
      namespace: ns,
      query: '{ s(func: eq(dgraph.graphql.xid, "dgraph.graphql.schema")) { uid } }',
    });
    return (JSON.parse(res.json) as { s: { uid: string }[] }).s[0].uid;
  }
  async function grootUid(): Promise<string> {
    const res = await h.db.engine.query({
      namespace: ns,
      query: '{ u(func: eq(dgraph.xid, "groot")) { uid } }',
    });
    return (JSON.parse(res.json) as { u: { uid: string }[] }).u[0].uid;
  }

  afterEach(async () => {
    await h?.close();
  });

  describe("by default (Dgraph's rules)", () => {
    it("refuses dgraph.graphql.* in N-Quads, JSON, upserts and S * * deletes, over HTTP and gRPC", async () => {
      await start(false);
      const web = await h.httpClient("groot", "tenant-pass", ns);
      const grpc = await h.grpcClient("groot", "tenant-pass", ns);
      const uid = await schemaUid();
      const evil =
        'type Item @remote { id: ID! } type Query { x: String @custom(http: {url: "http://1.2.3.4", method: GET}) }';

      const nquads = await failure(
        web.newTxn().mutate({
          setNquads: `<${uid}> <dgraph.graphql.schema> ${JSON.stringify(evil)} .`,
          commitNow: true,
        }),
      );
      expect(nquads).toContain("Cannot mutate graphql reserved predicate dgraph.graphql.schema");

      const mu = new dgraph.Mutation();
      mu.setSetJson({ uid, "dgraph.graphql.schema": evil });
      mu.setCommitNow(true);
      expect(await failure(grpc.newTxn().mutate(mu))).toContain(
        "Cannot mutate graphql reserved predicate dgraph.graphql.schema",
      );

      const upsert = new dgraph.Request();
      upsert.setQuery('{ s as var(func: eq(dgraph.graphql.xid, "dgraph.graphql.schema")) }');
      const umu = new dgraph.Mutation();
      umu.setSetNquads(`uid(s) <dgraph.graphql.schema> ${JSON.stringify(evil)} .`);
      upsert.setMutationsList([umu]);
      upsert.setCommitNow(true);
      expect(await failure(grpc.newTxn().doRequest(upsert))).toContain(
        "Cannot mutate graphql reserved predicate dgraph.graphql.schema",
      );

      // A fresh node claiming to be the schema node.
      const fresh = await failure(
        web.newTxn().mutate({
          setJson: { "dgraph.graphql.xid": "dgraph.graphql.schema", "dgraph.graphql.schema": evil },
          commitNow: true,
        }),
      );
      expect(fresh).toContain("Cannot mutate graphql reserved predicate dgraph.graphql.");

      // `S * *` on the schema node expands to its type's fields, dgraph.graphql.schema among them.
      const star = await failure(web.newTxn().mutate({ deleteNquads: `<${uid}> * * .`, commitNow: true }));
      expect(star).toContain("Cannot mutate graphql reserved predicate dgraph.graphql.");

      expect(await storedSchema()).toBe(SDL);
    });

    it("lets a guardian write ACL predicates, as Dgraph does", async () => {
      await start(false);
      const web = await h.httpClient("groot", "tenant-pass", ns);
      const uid = await grootUid();
      await web.newTxn().mutate({ setNquads: `<${uid}> <dgraph.password> "chosen-pass" .`, commitNow: true });
      await expect(h.login("groot", "chosen-pass", ns)).resolves.toBeTruthy();
    });
  });

  describe("with protectReservedPredicates", () => {
    it("refuses every dgraph.* predicate but dgraph.type to a guardian, whatever the mutation's form", async () => {
      await start(true);
      const web = await h.httpClient("groot", "tenant-pass", ns);
      const grpc = await h.grpcClient("groot", "tenant-pass", ns);
      const uid = await grootUid();
      const refused = "Cannot mutate reserved predicate dgraph.";

      expect(
        await failure(
          web.newTxn().mutate({ setNquads: `<${uid}> <dgraph.password> "chosen-pass" .`, commitNow: true }),
        ),
      ).toContain(`${refused}password`);

      const json = new dgraph.Mutation();
      json.setSetJson({ uid, "dgraph.password": "chosen-pass" });
      json.setCommitNow(true);
      expect(await failure(grpc.newTxn().mutate(json))).toContain(`${refused}password`);

      const upsert = new dgraph.Request();
      upsert.setQuery('{ u as var(func: eq(dgraph.xid, "groot")) }');
      const umu = new dgraph.Mutation();
      umu.setSetNquads('uid(u) <dgraph.password> "chosen-pass" .');
      upsert.setMutationsList([umu]);
      upsert.setCommitNow(true);
      expect(await failure(grpc.newTxn().doRequest(upsert))).toContain(`${refused}password`);

      // A new account of the tenant's own making, and deletes of groot's group or whole node.
      const account = await failure(
        web.newTxn().mutate({
          setNquads: '_:u <dgraph.xid> "intruder" .\n_:u <dgraph.type> "dgraph.type.User" .',
          commitNow: true,
        }),
      );
      expect(account).toContain(`${refused}xid`);
      const del = new dgraph.Mutation();
      del.setDelNquads(`<${uid}> <dgraph.user.group> * .`);
      del.setCommitNow(true);
      expect(await failure(grpc.newTxn().mutate(del))).toContain(`${refused}user.group`);
      expect(await failure(web.newTxn().mutate({ deleteJson: { uid }, commitNow: true }))).toContain(refused);

      // Nothing changed: groot logs in with its password, and still as a guardian (it may alter).
      const token = await h.login("groot", "tenant-pass", ns);
      await expect(h.login("groot", "chosen-pass", ns)).rejects.toThrow();
      const alter = await h.post("/alter", "application/dql", "name: string .", token);
      expect(alter.json()).toEqual({ data: { code: "Success", message: "Done" } });

      // dgraph.type stays writable: it is how nodes get their types.
      const typed = await web
        .newTxn()
        .mutate({ setNquads: '_:x <name> "x" .\n_:x <dgraph.type> "Thing" .', commitNow: true });
      expect(Object.keys(typed.data.uids)).toEqual(["x"]);
    });

    it("keeps the operations that own the predicates working", async () => {
      await start(true);
      await h.db.engine.setGrootPassword(ns, "operator-set");
      await expect(h.login("groot", "operator-set", ns)).resolves.toBeTruthy();
      const other = await h.db.engine.createNamespace({ grootPassword: "other-pass" });
      const token = await h.login("groot", "other-pass", other);
      const res = await h.post("/admin/schema", "application/graphql", SDL, token);
      expect(res.json()).toMatchObject({ data: { code: "Success" } });
      // A drop of the data keeps the GraphQL schema, stored again by the engine itself.
      const drop = await h.post("/alter", "application/json", '{"drop_op": "DATA"}', token);
      expect(drop.json()).toEqual({ data: { code: "Success", message: "Done" } });
      ns = other;
      expect(await storedSchema()).toBe(SDL);
    });
  });
});
