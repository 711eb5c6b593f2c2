/**
 * What a web page can do to the server. A page can POST anything a "simple" cross-origin request allows
 * (text/plain, form encodings, no custom header) to any address its browser reaches: DQL writes in such a
 * request are refused, the same writes with an access or auth token header (which makes the browser ask
 * first) work. CORS: Dgraph's `*` without ACL, no CORS headers with ACL, an allow-list when given.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraphHttp from "dgraph-js-http-23";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../../src/server/http-server.ts";
import { SECRET, startNamespaceHarness } from "../namespaces/namespace-harness.ts";
import { request } from "./http-client.ts";

const PAGE = "https://evil.example";
const DROP_ALL = '{"drop_all": true}';

async function startServer(options: HttpServerOptions & { dbAcl?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "trellis-cors-"));
  const db: GraphDBHandle = createGraphDB({ dir, acl: options.dbAcl });
  const server: HttpServer = createHttpServer(db.engine, options);
  const { port } = await server.listen(0, "127.0.0.1");
  await db.engine.alter({ schema: "name: string @index(exact) ." });
  await db.engine.mutate({ commitNow: true, mutations: [{ setNquads: '_:a <name> "kept" .' }] });
  return {
    db,
    base: `http://127.0.0.1:${port}`,
    /** A POST as a page of another origin sends it. */
    crossOrigin(
      path: string,
      contentType: string | undefined,
      body: string,
      headers: Record<string, string> = {},
    ) {
      const all: Record<string, string> = { origin: PAGE, ...headers };
      if (contentType !== undefined) all["content-type"] = contentType;
      return request(`http://127.0.0.1:${port}`, path, { body, headers: all });
    },
    async names() {
      return JSON.parse(
        (await db.engine.query({ query: "{ q(func: has(name)) { name } }" })).json,
      ) as unknown;
    },
    async close() {
      await server.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("cross-origin simple writes, without ACL (Dgraph's default)", () => {
  let s: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("refuses a text/plain drop_all on /alter, naming the content types to use", async () => {
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await s.crossOrigin("/alter", type, DROP_ALL);
      const essence = type.split(";")[0];
      expect(res.json(), type).toEqual({
        errors: [
          {
            message:
              `/alter refuses a request with Content-Type ${essence} and neither X-Dgraph-AccessToken nor X-Dgraph-AuthToken: ` +
              "any web page can send such a request (a CORS simple request). Send the body as application/json " +
              "(an Operation) or application/dql (schema text), or with an access token (log in) or the auth token.",
            extensions: { code: "Error" },
          },
        ],
      });
    }
    // A page's body without a Content-Type (a Blob) is refused too; a non-browser client's is not.
    const blob = await s.crossOrigin("/alter", undefined, DROP_ALL);
    expect((blob.json() as { errors: { message: string }[] }).errors[0].message).toContain(
      "/alter refuses a request with no Content-Type",
    );
    expect(await s.names()).toEqual({ q: [{ name: "kept" }] });
  });

  it("refuses text/plain on /mutate (Dgraph's content types only) and /commit", async () => {
    const mutate = await s.crossOrigin(
      "/mutate?commitNow=true",
      "text/plain",
      '{ set { _:x <name> "planted" . } }',
    );
    expect((mutate.json() as { errors: { message: string }[] }).errors[0].message).toBe(
      "Unsupported Content-Type. Supported content types are application/json, application/rdf",
    );
    const open = await request(s.base, "/mutate", {
      headers: { "content-type": "application/rdf" },
      body: '{ set { _:x <name> "pending" . } }',
    });
    const startTs = (open.json() as { extensions: { txn: { start_ts: number } } }).extensions.txn.start_ts;
    const commit = await s.crossOrigin(`/commit?startTs=${startTs}`, "text/plain", "[]");
    expect(
      (commit.json() as { errors: { message: string; extensions: { code: string } }[] }).errors[0],
    ).toEqual({
      message:
        "/commit refuses a request with Content-Type text/plain and neither X-Dgraph-AccessToken nor X-Dgraph-AuthToken: " +
        "any web page can send such a request (a CORS simple request). Send the body as application/json, " +
        "or with an access token (log in) or the auth token.",
      extensions: { code: "ErrorInvalidRequest" },
    });
    expect(await s.names()).toEqual({ q: [{ name: "kept" }] });
    // The same commit as application/json goes through.
    const ok = await s.crossOrigin(`/commit?startTs=${startTs}`, "application/json", "[]");
    expect(ok.json()).toMatchObject({ data: { code: "Success" } });
  });

  it("accepts the same text/plain write with the auth token header (it forces a preflight)", async () => {
    const guarded = await startServer({ authToken: "alter-secret" });
    try {
      const res = await guarded.crossOrigin("/alter", "text/plain", "extra: string .", {
        "x-dgraph-authtoken": "alter-secret",
      });
      expect(res.json()).toEqual({ data: { code: "Success", message: "Done" } });
    } finally {
      await guarded.close();
    }
  });

  it("keeps the real client working: its text/plain alter and commit carry no Origin", async () => {
    const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(s.base));
    await client.alter({ schema: "name: string @index(exact) .\nextra: string ." });
    const txn = client.newTxn();
    await txn.mutate({ setJson: { name: "via client without ACL" } });
    await txn.commit();
    expect(JSON.stringify(await s.names())).toContain("via client without ACL");
    // The same text/plain alter body from a page (with Origin) is refused.
    const res = await s.crossOrigin("/alter", "text/plain", "other: string .");
    expect((res.json() as { errors: { message: string }[] }).errors[0].message).toContain("/alter refuses");
  });

  it("answers every origin, as Dgraph does, when there is no ACL", async () => {
    const res = await s.crossOrigin("/query", "application/dql", "{ q(func: has(name)) { name } }");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("cross-origin writes and CORS with ACL", () => {
  it("accepts a text/plain write that carries an access token (dgraph-js-http's alter sends text/plain)", async () => {
    const h = await startNamespaceHarness();
    try {
      const token = await h.login("groot", "password", 0);
      const refused = await request(h.http, "/alter", {
        headers: { origin: PAGE, "content-type": "text/plain" },
        body: "name: string .",
      });
      expect((refused.json() as { errors: { message: string }[] }).errors[0].message).toContain(
        "/alter refuses",
      );
      const accepted = await request(h.http, "/alter", {
        headers: { origin: PAGE, "content-type": "text/plain", "x-dgraph-accesstoken": token },
        body: "name: string .",
      });
      expect(accepted.json()).toEqual({ data: { code: "Success", message: "Done" } });
      // The real client, whose alter and commit bodies are text/plain: works, with its token.
      const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(h.http));
      await client.loginIntoNamespace("groot", "password", 0);
      await client.alter({ schema: "name: string @index(exact) ." });
      const txn = client.newTxn();
      await txn.mutate({ setJson: { name: "via client" } });
      await txn.commit();
      // No CORS headers by default with ACL: pages of other origins read nothing.
      expect(accepted.headers["access-control-allow-origin"]).toBeUndefined();
      const preflight = await request(h.http, "/alter", { method: "OPTIONS", headers: { origin: PAGE } });
      expect(preflight.status).toBe(200);
      expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await h.close();
    }
  });

  it("answers only the origins of an allow-list, and refuses a wildcard", async () => {
    const console = "https://console.example";
    const s = await startServer({
      acl: true,
      aclSecret: SECRET,
      dbAcl: true,
      cors: { allowOrigins: [console] },
    });
    try {
      const allowed = await request(s.base, "/query", { method: "OPTIONS", headers: { origin: console } });
      expect(allowed.headers).toMatchObject({
        "access-control-allow-origin": console,
        "access-control-allow-headers": expect.stringContaining("X-Dgraph-AccessToken"),
        vary: "Origin",
      });
      expect(allowed.headers["access-control-allow-credentials"]).toBeUndefined();
      const other = await request(s.base, "/query", { method: "OPTIONS", headers: { origin: PAGE } });
      expect(other.headers["access-control-allow-origin"]).toBeUndefined();
      const health = await request(s.base, "/health", { method: "GET", headers: { origin: console } });
      expect(health.headers["access-control-allow-origin"]).toBe(console);
    } finally {
      await s.close();
    }
    const dir = mkdtempSync(join(tmpdir(), "trellis-cors-"));
    const db = createGraphDB({ dir });
    try {
      expect(() =>
        createHttpServer(db.engine, { acl: true, aclSecret: SECRET, cors: { allowOrigins: "*" } }),
      ).toThrow(/cors.allowOrigins "\*" is refused with ACL/);
      expect(() => createHttpServer(db.engine, { cors: { allowOrigins: ["console.example"] } })).toThrow(
        /is not an origin; give scheme:\/\/host\[:port\]/,
      );
      const none = createHttpServer(db.engine, { cors: false });
      const { port } = await none.listen(0, "127.0.0.1");
      const res = await request(`http://127.0.0.1:${port}`, "/query", {
        headers: { "content-type": "application/dql", origin: PAGE },
        body: "{ q(func: uid(1)) { uid } }",
      });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      await none.close();
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
