/**
 * Bounds on one mutation request, as a tenant meets them through the real clients: the N-Quad count and
 * byte limits an embedder sets, the caller's deadline (a gRPC call's, `/mutate?timeout=`) stopping the
 * work before anything commits, and a large mutation parsed and applied in slices, so that another
 * namespace's queries are answered while it runs.
 */
import * as dgraph from "dgraph-js";
import { afterEach, describe, expect, it } from "vitest";
import type { GraphDBOptions } from "../../src/index.ts";
import { grpcFailure, type NamespaceHarness, startNamespaceHarness } from "./namespace-harness.ts";

/** `n` N-Quads of new nodes with a `name`. */
const names = (n: number, tag = "n") =>
  Array.from({ length: n }, (_, i) => `_:${tag}${i} <name> "${tag} ${i}" .`).join("\n");

describe("mutation bounds", () => {
  let h: NamespaceHarness;
  let ns: number;

  afterEach(async () => {
    await h?.close();
  });

  async function start(db: Partial<GraphDBOptions> = {}) {
    h = await startNamespaceHarness({ db: { noSync: true, ...db } });
    ns = await h.db.engine.createNamespace({ grootPassword: "tenant-pass" });
  }

  async function countNames(namespace = ns): Promise<number> {
    const res = await h.db.engine.query({ namespace, query: "{ q(func: has(name)) { count(uid) } }" });
    return (JSON.parse(res.json) as { q: { count: number }[] }).q[0].count;
  }

  it("refuses more N-Quads or bytes than the embedder allows, with a clear error", async () => {
    await start({ mutationLimits: { nquads: 100, bytes: 10_000 } });
    const web = await h.httpClient("groot", "tenant-pass", ns);
    const many = web.newTxn().mutate({ setNquads: names(101), commitNow: true });
    await expect(many).rejects.toThrow(
      "NQuad count in the request: 101, is more that threshold: 100. Split the mutation into smaller requests.",
    );
    const big = `_:x <name> "${"x".repeat(10_000)}" .`;
    await expect(web.newTxn().mutate({ setNquads: big, commitNow: true })).rejects.toThrow(
      /Mutation request of 10\d{3} bytes is larger than this server's limit of 10000 bytes/,
    );
    await web.newTxn().mutate({ setNquads: names(100), commitNow: true });
    expect(await countNames()).toBe(100);
  });

  it("stops a mutation at the gRPC call's deadline: nothing of it commits", async () => {
    await start();
    const grpc = await h.grpcClient("groot", "tenant-pass", ns);
    const mu = new dgraph.Mutation();
    mu.setSetNquads(names(150_000));
    mu.setCommitNow(true);
    const failed = await grpcFailure(grpc.newTxn().mutate(mu, undefined, { deadline: Date.now() + 150 }));
    expect(failed.details).toMatch(/deadline exceeded/i);
    // The server gave up too: wait for any work it might still be doing, then look.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await countNames()).toBe(0);
  }, 60_000);

  it("stops an HTTP mutation at its timeout parameter", async () => {
    await start();
    const token = await h.login("groot", "tenant-pass", ns);
    const res = await h.post(
      "/mutate?commitNow=true&timeout=50ms",
      "application/rdf",
      `{ set { ${names(150_000)} } }`,
      token,
    );
    expect(res.json()).toMatchObject({ errors: [{ message: "context deadline exceeded" }] });
    expect(await countNames()).toBe(0);
  }, 60_000);

  /**
   * Another namespace with 3 names, queried once per turn of the event loop (as requests arrive) while
   * `work` runs in this one: how many answers came back before it settled. `work` settles as it will.
   */
  async function answeredWhile(work: () => Promise<unknown>): Promise<number> {
    const other = await h.db.engine.createNamespace({ grootPassword: "other-pass" });
    await h.db.engine.mutate({
      namespace: other,
      commitNow: true,
      mutations: [{ setNquads: names(3, "o") }],
    });
    let done = false;
    let answered = 0;
    const running = work().then(
      () => undefined,
      () => undefined,
    );
    void running.finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(await countNames(other)).toBe(3);
      if (!done) answered++;
    }
    return answered;
  }

  it("answers another namespace's queries while a large mutation is parsed and applied", async () => {
    await start();
    const answered = await answeredWhile(() =>
      h.db.engine.mutate({ namespace: ns, commitNow: true, mutations: [{ setNquads: names(150_000) }] }),
    );
    expect(await countNames()).toBe(150_000);
    // Held in one piece, the mutation let at most a query or two through (while its commit was written).
    expect(answered).toBeGreaterThan(10);
  }, 60_000);

  it("answers another namespace's queries while a large JSON text is read", async () => {
    await start();
    // 400,000 objects (13 MB), then a syntax error at the very end: the whole text is read, nothing applied.
    const objects = Array.from({ length: 400_000 }, (_, i) => `{"name":"n${i}","tag":"t${i % 7}"}`);
    const text = `[${objects.join(",")}]]`;
    let refused: Promise<void> | undefined;
    const answered = await answeredWhile(() => {
      const big = h.db.engine.mutate({ namespace: ns, commitNow: true, mutations: [{ setJson: text }] });
      refused = expect(big).rejects.toThrow(
        /^Error parsing JSON at line 1, character \d+: invalid character ']'/,
      );
      return big;
    });
    await refused;
    expect(await countNames()).toBe(0);
    // Read in one piece, the text let no query through.
    expect(answered).toBeGreaterThan(10);
  }, 60_000);

  it("refuses to commit a transaction while one of its mutations is still being applied", async () => {
    await start();
    await h.db.engine.bulkLoad(names(50_000), { namespace: ns });
    const first = await h.db.engine.mutate({ namespace: ns, mutations: [{ setNquads: names(1, "a") }] });
    const startTs = first.txn.start_ts;
    // One line to parse, 50,000 edges to apply.
    const big = h.db.engine.mutate({
      namespace: ns,
      startTs,
      query: "{ v as var(func: has(name)) }",
      mutations: [{ setNquads: 'uid(v) <tag> "x" .' }],
    });
    await new Promise((resolve) => setImmediate(resolve));
    await expect(h.db.engine.commit({ namespace: ns, startTs })).rejects.toThrow(
      "Transaction has a mutation in progress; wait for it to return before committing or mutating again",
    );
    await big;
    await h.db.engine.commit({ namespace: ns, startTs });
    const tagged = await h.db.engine.query({ namespace: ns, query: "{ q(func: has(tag)) { count(uid) } }" });
    // The transaction sees its own first write too.
    expect(JSON.parse(tagged.json)).toEqual({ q: [{ count: 50_001 }] });
  }, 60_000);

  it("stops an index build at the gRPC Alter call's deadline, leaving the old schema", async () => {
    await start();
    await h.db.engine.alter({ namespace: ns, schema: "name: string ." });
    await h.db.engine.bulkLoad(names(150_000), { namespace: ns });
    const grpc = await h.grpcClient("groot", "tenant-pass", ns);
    const op = new dgraph.Operation();
    op.setSchema("name: string @index(term) .");
    const failed = await grpcFailure(grpc.alter(op, undefined, { deadline: Date.now() + 100 }));
    expect(failed.details).toMatch(/deadline exceeded/i);
    // The server gave up too: wait for any work it might still be doing, then look.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const schema = await h.db.engine.query({ namespace: ns, query: "schema(pred: [name]) { index }" });
    expect(JSON.parse(schema.json)).toEqual({ schema: [{ predicate: "name" }] });
  }, 60_000);

  it("parses a large JSON array in chunks, blank nodes shared across them", async () => {
    await start();
    const objects = Array.from({ length: 1500 }, (_, i) => ({
      uid: `_:n${i}`,
      name: `n${i}`,
      next: { uid: `_:n${(i + 1) % 1500}` },
    }));
    const res = await h.db.engine.mutate({
      namespace: ns,
      commitNow: true,
      mutations: [{ setJson: JSON.stringify(objects) }],
    });
    expect(Object.keys(res.uids)).toHaveLength(1500);
    for (const i of [511, 1023, 1499]) {
      const q = await h.db.engine.query({
        namespace: ns,
        query: `{ q(func: uid(${res.uids[`n${i}`]})) { next { name } } }`,
      });
      expect(JSON.parse(q.json)).toEqual({ q: [{ next: { name: `n${(i + 1) % 1500}` } }] });
    }
  });
});
