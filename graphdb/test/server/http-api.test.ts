/** The HTTP API end to end over loopback against the real engine in a temp directory. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { post, request } from "./http-client.ts";

interface Envelope {
  data?: Record<string, unknown> | null;
  extensions?: { txn?: Record<string, unknown>; server_latency?: Record<string, number> };
  errors?: { message: string; extensions: { code: string } }[];
}

describe("HTTP API on the real engine", () => {
  let dir: string;
  let db: GraphDBHandle;
  let server: HttpServer;
  let base: string;

  const json = async (path: string, contentType: string | undefined, body: string): Promise<Envelope> =>
    (await post(base, path, contentType, body)).json() as Envelope;
  const dql = (query: string, params = "") => json(`/query${params}`, "application/dql", query);
  const rdf = (body: string, params = "") => json(`/mutate${params}`, "application/rdf", body);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "trellis-http-"));
    db = createGraphDB({ dir });
    server = createHttpServer(db.engine, {});
    const { port } = await server.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${port}`;
    const alter = await json(
      "/alter",
      undefined,
      "name: string @index(exact) .\nemail: string @index(exact) @upsert .\nfriend: [uid] .",
    );
    expect(alter).toEqual({ data: { code: "Success", message: "Done" } });
  });

  afterAll(async () => {
    await server.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("mutates with commitNow and returns uids, commit_ts and preds without keys", async () => {
    const res = await rdf(
      '{ set {\n _:alice <name> "Alice" .\n _:alice <email> "alice@example.com" .\n} }',
      "?commitNow=true",
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toMatchObject({ code: "Success", message: "Done", queries: null });
    expect((res.data?.uids as Record<string, string> | undefined)?.alice).toMatch(/^0x[0-9a-f]+$/);
    const txn = res.extensions?.txn ?? {};
    expect(txn.start_ts).toEqual(expect.any(Number));
    expect(txn.commit_ts).toBeGreaterThan(txn.start_ts as number);
    expect(txn.keys).toBeUndefined();
    expect(txn.preds).toEqual([...(txn.preds as string[])].sort());

    const q = await dql('{ q(func: eq(name, "Alice")) { name email } }');
    expect(q.data).toEqual({ q: [{ name: "Alice", email: "alice@example.com" }] });
    expect(q.extensions?.txn?.start_ts).toEqual(expect.any(Number));
  });

  it("runs JSON queries with variables; a missing variable gives an empty result", async () => {
    const query = "query me($a: string) { me(func: eq(name, $a)) { name } }";
    const hit = await json(
      "/query",
      "application/json",
      JSON.stringify({ query, variables: { $a: "Alice" } }),
    );
    expect(hit.data).toEqual({ me: [{ name: "Alice" }] });
    const miss = await json("/query", "application/json", JSON.stringify({ query }));
    expect(miss.data).toEqual({ me: [] });
  });

  it("keeps a transaction's writes private until commit", async () => {
    const mu = await rdf('{ set { _:b <name> "Bob" . } }');
    const startTs = mu.extensions?.txn?.start_ts as number;
    const keys = mu.extensions?.txn?.keys as string[];
    expect(keys.length).toBeGreaterThan(0);
    const own = await dql('{ q(func: eq(name, "Bob")) { name } }', `?startTs=${startTs}`);
    expect(own.data).toEqual({ q: [{ name: "Bob" }] });
    const other = await dql('{ q(func: eq(name, "Bob")) { name } }');
    expect(other.data).toEqual({ q: [] });

    const commit = await json(`/commit?startTs=${startTs}`, undefined, JSON.stringify(keys));
    expect(commit.data).toEqual({ code: "Success", message: "Done" });
    expect(commit.extensions?.txn).toEqual({ start_ts: startTs, commit_ts: expect.any(Number) });
    expect((await dql('{ q(func: eq(name, "Bob")) { name } }')).data).toEqual({ q: [{ name: "Bob" }] });
  });

  it("aborts with a bare success body and drops the writes", async () => {
    const mu = await rdf('{ set { _:c <name> "Carol" . } }');
    const startTs = mu.extensions?.txn?.start_ts as number;
    const res = await post(base, `/commit?startTs=${startTs}&abort=true`, undefined, "");
    expect(res.text).toBe('{"code":"Success","message":"Done"}');
    expect((await dql('{ q(func: eq(name, "Carol")) { name } }')).data).toEqual({ q: [] });
  });

  it("aborts the second committer on a conflicting key", async () => {
    const created = await rdf('{ set { _:d <name> "Dan" . } }', "?commitNow=true");
    const uid = (created.data?.uids as Record<string, string> | undefined)?.d;
    const t1 = await rdf(`{ set { <${uid}> <name> "Dan 1" . } }`);
    const t2 = await rdf(`{ set { <${uid}> <name> "Dan 2" . } }`);
    const c1 = await json(`/commit?startTs=${t1.extensions?.txn?.start_ts}`, undefined, "[]");
    expect(c1.errors).toBeUndefined();
    const c2 = await json(`/commit?startTs=${t2.extensions?.txn?.start_ts}`, undefined, "[]");
    expect(c2).toEqual({
      errors: [
        {
          message: "rpc error: code = Aborted desc = Transaction has been aborted. Please retry",
          extensions: { code: "ErrorInvalidRequest" },
        },
      ],
    });
  });

  it("runs a JSON upsert and reports its query result", async () => {
    const body = JSON.stringify({
      query: '{ q(func: eq(email, "alice@example.com")) { v as uid } }',
      set: { uid: "uid(v)", name: "Alicia" },
    });
    const res = await json("/mutate?commitNow=true", "application/json", body);
    expect(res.errors).toBeUndefined();
    expect(res.data?.queries).toEqual({ q: [{ uid: expect.stringMatching(/^0x/) }] });
    const q = await dql('{ q(func: eq(email, "alice@example.com")) { name } }');
    expect(q.data).toEqual({ q: [{ name: "Alicia" }] });
  });

  it("passes engine errors through: query errors with data null, schema errors coded Error", async () => {
    const bad = await dql("{ q(func: eq(name, )) { name } }");
    expect(bad.data).toBeNull();
    expect(bad.errors?.[0].extensions.code).toBe("ErrorInvalidRequest");
    expect(bad.errors?.[0].message).toBeTruthy();
    const schema = await json("/alter", undefined, "name string");
    expect(schema.errors?.[0].extensions.code).toBe("Error");
    expect(schema.errors?.[0].message).toMatch(/^line \d+ column \d+: /);
  });

  it("round-trips gzip", async () => {
    const res = await request(base, "/query", {
      headers: { "content-type": "application/dql", "content-encoding": "gzip", "accept-encoding": "gzip" },
      body: gzipSync('{ q(func: eq(email, "alice@example.com")) { email } }'),
    });
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(res.body).toString()).data).toEqual({ q: [{ email: "alice@example.com" }] });
  });

  it("drops all data", async () => {
    expect(await json("/alter", undefined, '{"drop_all": true}')).toEqual({
      data: { code: "Success", message: "Done" },
    });
    expect((await dql("{ q(func: has(name)) { uid } }")).data).toEqual({ q: [] });
  });

  it("reports max_assigned from the engine in /health", async () => {
    const [info] = (await request(base, "/health", { method: "GET" })).json() as { max_assigned: number }[];
    expect(info.max_assigned).toBe(db.engine.maxAssignedTs());
    expect(info.max_assigned).toBeGreaterThan(0);
  });
});
