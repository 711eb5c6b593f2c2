/**
 * Transport behaviour of the HTTP server over the real engine (a fresh database in a temp directory per
 * suite): methods, CORS, query parameters, content types, gzip, body limit, envelopes, ACL and the auth
 * token. Parameters are checked by their observable effect (a txn continued by `startTs` sees its own
 * writes, `debug` adds uids, `ro` reuses the read timestamp, `timeout` cuts a slow query short).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle, type GraphDBOptions } from "../../src/index.ts";
import { createHttpServer, type HttpServer, type HttpServerOptions } from "../../src/server/http-server.ts";
import { post, type RawResponse, request } from "./http-client.ts";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With",
  "access-control-allow-credentials": "true",
  connection: "close",
};

const SUCCESS = { data: { code: "Success", message: "Done" } };

const err = (message: string, code = "ErrorInvalidRequest") => ({
  errors: [{ message, extensions: { code } }],
});
const errWithData = (message: string, code = "ErrorInvalidRequest") => ({
  ...err(message, code),
  data: null,
});

interface Envelope {
  data?: Record<string, unknown> | null;
  extensions?: {
    txn?: { start_ts: number; commit_ts?: number; keys?: string[]; preds?: string[]; hash?: string };
    server_latency?: Record<string, number>;
    metrics?: { num_uids: Record<string, number> };
  };
  errors?: { message: string; extensions: { code: string } }[];
}

const envelope = (res: RawResponse) => res.json() as Envelope;

/** `data.uids` of a successful mutation (throws, showing the envelope, when absent). */
function uidsOf(e: Envelope): Record<string, string> {
  const uids = e.data?.uids;
  if (!uids) throw new Error(`no data.uids in ${JSON.stringify(e)}`);
  return uids as Record<string, string>;
}

/** `extensions.txn` of a successful response (throws, showing the envelope, when absent). */
function txnOf(e: Envelope) {
  const txn = e.extensions?.txn;
  if (!txn) throw new Error(`no extensions.txn in ${JSON.stringify(e)}`);
  return { keys: [] as string[], preds: [] as string[], ...txn };
}

/** A real engine in a temp dir behind a real server on a loopback port. */
interface Harness {
  base: string;
  db: GraphDBHandle;
  close(): Promise<void>;
}

async function startServer(options: HttpServerOptions = {}, dbOptions: Partial<GraphDBOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "trellis-transport-"));
  const db = createGraphDB({ dir, ...dbOptions });
  let server: HttpServer;
  try {
    server = createHttpServer(db.engine, options);
  } catch (e) {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { port } = await server.listen(0, "127.0.0.1");
  const harness: Harness = {
    base: `http://127.0.0.1:${port}`,
    db,
    async close() {
      await server.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

describe("HTTP transport", () => {
  let h: Harness;
  let base: string;
  /** Alice: `<Alice & Bob>`, email alice@example.com, nick "al", friend Carl. */
  let alice: string;

  const dql = async (query: string, params = "") =>
    envelope(await post(base, `/query${params}`, "application/dql", query));
  const rdf = async (body: string, params = "") =>
    envelope(await post(base, `/mutate${params}`, "application/rdf", body));
  const commit = async (startTs: number, body = "[]") =>
    envelope(await post(base, `/commit?startTs=${startTs}`, undefined, body));

  beforeAll(async () => {
    h = await startServer({ bodyLimit: 1024 });
    base = h.base;
    const alter = await post(
      base,
      "/alter",
      undefined,
      "name: string @index(exact) .\nemail: string @index(exact) @upsert .\nnick: string .\nfriend: [uid] .",
    );
    expect(alter.json()).toEqual(SUCCESS);
    const seed = await rdf(
      '{ set {\n _:a <name> "<Alice & Bob>" .\n _:a <email> "alice@example.com" .\n _:a <nick> "al" .\n' +
        ' _:a <friend> _:c .\n _:c <name> "Carl" .\n} }',
      "?commitNow=true",
    );
    alice = uidsOf(seed).a;
    expect(alice).toMatch(/^0x[0-9a-f]+$/);
  });
  afterAll(() => h.close());

  describe("methods and paths", () => {
    it("answers OPTIONS with 200, an empty body and the CORS headers", async () => {
      for (const path of ["/query", "/mutate", "/commit", "/alter", "/login"]) {
        const res = await request(base, path, { method: "OPTIONS" });
        expect(res.status).toBe(200);
        expect(res.text).toBe("");
        expect(res.headers).toMatchObject({ ...CORS, "content-type": "application/json" });
      }
    });

    it("rejects other methods with 400 Invalid method", async () => {
      for (const method of ["GET", "DELETE", "PATCH"]) {
        const res = await request(base, "/query", { method });
        expect(res.status).toBe(400);
        expect(res.json()).toEqual({
          errors: [{ message: "Invalid method", extensions: { code: "ErrorInvalidMethod" } }],
        });
      }
    });

    it("accepts PUT like POST", async () => {
      const res = await request(base, "/alter", { method: "PUT", body: "putpred: string @index(exact) ." });
      expect(res.json()).toEqual(SUCCESS);
      const schema = await dql("schema(pred: [putpred]) { type index tokenizer }");
      expect(schema.data).toEqual({
        schema: [{ predicate: "putpred", type: "string", index: true, tokenizer: ["exact"] }],
      });
    });

    it("answers unknown paths with Go's 404 text", async () => {
      const res = await request(base, "/nope", { method: "GET" });
      expect(res.status).toBe(404);
      expect(res.text).toBe("404 page not found\n");
    });

    it("serves the home text, the keyword list and rejects non-GET keywords", async () => {
      const home = await request(base, "/", { method: "GET" });
      expect(home.text).toBe(
        "Dgraph browser is available for running separately using the dgraph-ratel binary",
      );
      const kw = await request(base, "/ui/keywords", { method: "GET" });
      const keywords = (kw.json() as { keywords: { type: string; name: string }[] }).keywords;
      expect(keywords).toHaveLength(61);
      expect(keywords).toContainEqual({ type: "", name: "alloftext" });
      expect(kw.headers["access-control-allow-origin"]).toBe("*");
      expect((await request(base, "/ui/keywords", { method: "POST" })).status).toBe(400);
    });

    it("reports health as a JSON array with a Dgraph-like version and the engine's max ts", async () => {
      const res = await request(base, "/health", { method: "GET" });
      expect(res.status).toBe(200);
      const [info] = res.json() as Record<string, unknown>[];
      expect(info).toMatchObject({
        instance: "alpha",
        status: "healthy",
        group: "1",
        max_assigned: h.db.engine.maxAssignedTs(),
      });
      expect(info.max_assigned).toBeGreaterThan(0);
      expect(info.version).toMatch(/^v\d+\.\d+\.\d+/);
      expect(typeof info.uptime).toBe("number");
      expect(typeof info.lastEcho).toBe("number");
      expect((await request(base, "/health?all", { method: "GET" })).status).toBe(200);
    });

    it("reports a membership state with the engine's counters and predicates", async () => {
      const before = h.db.engine.maxAssignedTs();
      const res = await request(base, "/state", { method: "GET" });
      const state = res.json() as { maxTxnTs: string; maxUID: string; groups: Record<string, unknown> };
      // /state reads the counter, then lists predicates through a schema query (which takes a ts).
      expect(Number(state.maxTxnTs)).toBeGreaterThanOrEqual(before);
      expect(Number(state.maxTxnTs)).toBeLessThanOrEqual(h.db.engine.maxAssignedTs());
      expect(state.maxUID).toBe(String(h.db.engine.maxLeasedUid()));
      expect(Number(state.maxUID)).toBeGreaterThanOrEqual(2);
      expect(state.groups).toHaveProperty(["1", "tablets", "name", "predicate"], "name");
    });
  });

  describe("/query", () => {
    it("returns data then extensions, HTML-escaped, with omitempty latency and sorted metrics", async () => {
      const res = await post(
        base,
        "/query",
        "application/dql",
        '{ q(func: eq(name, "<Alice & Bob>")) { uid name } }',
      );
      expect(res.headers).toMatchObject(CORS);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(res.headers["dgraph-toucheduids"]).toBe("2");
      const nz = "[1-9]\\d*";
      expect(res.text).toMatch(
        new RegExp(
          `^\\{"data":\\{"q":\\[\\{"uid":"${alice}","name":"\\\\u003cAlice \\\\u0026 Bob\\\\u003e"\\}\\]\\},` +
            `"extensions":\\{"server_latency":\\{"parsing_ns":${nz},"processing_ns":${nz},` +
            `"assign_timestamp_ns":${nz},"total_ns":${nz}\\},"txn":\\{"start_ts":${nz}\\},` +
            '"metrics":\\{"num_uids":\\{"_total":2,"name":1,"uid":1\\}\\}\\}\\}$',
        ),
      );
      // With a client-supplied startTs no timestamp is assigned, so assign_timestamp_ns is left out.
      const startTs = envelope(res).extensions?.txn?.start_ts;
      const again = await post(
        base,
        `/query?startTs=${startTs}`,
        "application/dql",
        "{ q(func: uid(1)) { uid } }",
      );
      expect(Object.keys(envelope(again).extensions?.server_latency ?? {})).toEqual([
        "parsing_ns",
        "processing_ns",
        "total_ns",
      ]);
    });

    it("accepts application/graphql+- and JSON with variables", async () => {
      const legacy = await post(
        base,
        "/query",
        "application/graphql+-",
        `{ q(func: uid(${alice})) { nick } }`,
      );
      expect(envelope(legacy).data).toEqual({ q: [{ nick: "al" }] });
      const body = JSON.stringify({
        query: "query q($a: string) { q(func: eq(email, $a)) { nick } }",
        variables: { $a: "alice@example.com" },
      });
      const vars = await post(base, "/query", "application/json; charset=utf-8", body);
      expect(envelope(vars).data).toEqual({ q: [{ nick: "al" }] });
    });

    it("continues a transaction given startTs (hex accepted); ro/be do not replace it", async () => {
      const mu = await rdf('{ set { _:b <name> "Bob" . } }');
      const startTs = mu.extensions?.txn?.start_ts as number;
      const own = await dql(
        '{ q(func: eq(name, "Bob")) { name } }',
        `?startTs=0x${startTs.toString(16)}&timeout=600s&ro=true&be=1`,
      );
      expect(own.data).toEqual({ q: [{ name: "Bob" }] });
      expect(own.extensions?.txn?.start_ts).toBe(startTs);
      const other = await dql('{ q(func: eq(name, "Bob")) { name } }');
      expect(other.data).toEqual({ q: [] });
      expect(other.extensions?.txn?.start_ts).toBeGreaterThan(startTs);
      expect((await post(base, `/commit?startTs=${startTs}&abort=true`, undefined, "")).status).toBe(200);
    });

    it("adds uids with debug=true only", async () => {
      const q = `{ q(func: uid(${alice})) { nick friend { name } } }`;
      const plain = await dql(q, "?debug=false");
      expect(plain.data).toEqual({ q: [{ nick: "al", friend: [{ name: "Carl" }] }] });
      const debug = await dql(q, "?debug=true");
      expect(debug.data).toEqual({
        q: [{ uid: alice, nick: "al", friend: [{ uid: expect.stringMatching(/^0x/), name: "Carl" }] }],
      });
    });

    it("reuses the read-only timestamp (ro, and be which implies ro) until a new one is handed out", async () => {
      const q = "{ q(func: uid(1)) { uid } }";
      const ro1 = (await dql(q, "?ro=true")).extensions?.txn?.start_ts as number;
      const ro2 = (await dql(q, "?ro=1")).extensions?.txn?.start_ts;
      // A best-effort query the transport failed to mark read-only would be refused by the engine.
      const be = await dql(q, "?be=true");
      expect(be.errors).toBeUndefined();
      expect(ro2).toBe(ro1);
      expect(be.extensions?.txn?.start_ts).toBe(ro1);
      const normal = (await dql(q)).extensions?.txn?.start_ts as number;
      expect(normal).toBeGreaterThan(ro1);
      const ro3 = (await dql(q, "?ro=true")).extensions?.txn?.start_ts as number;
      expect(ro3).toBeGreaterThan(normal);
    });

    it("cuts a slow query short with a tiny timeout: context deadline exceeded", async () => {
      // 400 nodes with 4 links each, read 3 levels deep: tens of thousands of nodes, several ms of work.
      const lines: string[] = [];
      for (let i = 0; i < 400; i++) {
        lines.push(`_:n${i} <label> "n${i}" .`);
        for (let k = 1; k <= 4; k++) lines.push(`_:n${i} <link> _:n${(i * 7 + k * 13) % 400} .`);
      }
      await h.db.engine.mutate({ mutations: [{ setNquads: lines.join("\n") }], commitNow: true });
      const slow = "{ q(func: has(label)) { label link { label link { label link { label } } } } }";
      const full = await dql(slow, "?timeout=600s");
      expect(full.errors).toBeUndefined();
      expect(full.data?.q).toHaveLength(400);
      for (const timeout of ["1ns", "1us"]) {
        const res = await dql(slow, `?timeout=${timeout}`);
        expect(res.data).toBeNull();
        expect(res.errors?.[0].extensions.code).toBe("ErrorInvalidRequest");
        expect(res.errors?.[0].message).toContain("context deadline exceeded");
      }
    });

    it("reports bad parameters in the SetStatus envelope", async () => {
      const res = await post(base, "/query?debug=maybe", "application/dql", "{ q() {} }");
      expect(res.status).toBe(200);
      expect(res.json()).toEqual(
        err('while parsing debug as bool: strconv.ParseBool: parsing "maybe": invalid syntax'),
      );
      const ts = await post(base, "/query?startTs=-1", "application/dql", "{ q() {} }");
      expect(ts.json()).toEqual(
        err('while parsing startTs as uint64: strconv.ParseUint: parsing "-1": invalid syntax'),
      );
      const timeout = await post(base, "/query?timeout=5", "application/dql", "{ q() {} }");
      expect(timeout.json()).toEqual(
        err('while parsing timeout as time.Duration: time: missing unit in duration "5"'),
      );
      const rf = await post(base, "/query?respFormat=xml", "application/dql", "{ q() {} }");
      expect(rf.json()).toEqual(err("invalid value [xml] for parameter respFormat"));
    });

    it("rejects unsupported content types and charsets", async () => {
      const res = await post(base, "/query", "text/plain", "{ q() {} }");
      expect(res.json()).toEqual(
        err(
          "Unsupported Content-Type. Supported content types are application/json, application/graphql+-,application/dql",
        ),
      );
      const cs = await post(base, "/query", "application/dql; charset=latin1", "{ q() {} }");
      expect(cs.json()).toEqual(err("Unsupported charset. Supported charset is UTF-8"));
    });

    it("reports JSON errors with Go's texts", async () => {
      const syntax = await post(base, "/query", "application/json", '{"query": }');
      expect(syntax.json()).toEqual(
        err(
          "Error parsing JSON at line 1, character 11: invalid character '}' looking for beginning of value\n",
        ),
      );
      const type = await post(
        base,
        "/query",
        "application/json",
        '{"query":"{ q() {} }","variables":{"$a":1}}',
      );
      expect(type.json()).toEqual(
        err(
          "Error parsing JSON at line 1, character 42: json: cannot unmarshal number into Go value of type string\n",
        ),
      );
    });

    it("answers an empty query with `empty request` and data null, without starting a txn", async () => {
      const before = h.db.engine.maxAssignedTs();
      const res = await post(base, "/query", "application/dql", "  \n ");
      expect(res.json()).toEqual(errWithData("empty request"));
      expect(h.db.engine.maxAssignedTs()).toBe(before);
    });

    it("passes engine errors through in the SetStatusWithData envelope", async () => {
      const parse = await post(base, "/query", "application/dql", "{ q(func: eq(name, )) { name } }");
      expect(parse.json()).toEqual(
        errWithData("while lexing { q(func: eq(name, )) { name } } at line 1 column 19: Empty Argument"),
      );
      // Execution errors are wrapped with an empty message, so their text starts with ": ", as in Dgraph.
      const exec = await post(base, "/query", "application/dql", '{ q(func: eq(nick, "al")) { nick } }');
      expect(exec.json()).toEqual(errWithData(": Predicate nick is not indexed"));
    });

    it("renders the RDF response format as a JSON string", async () => {
      const none = await dql('{ q(func: eq(email, "nobody@example.com")) { email } }', "?respFormat=rdf");
      expect(none.data).toBe("");
      const one = await dql('{ q(func: eq(email, "alice@example.com")) { email } }', "?respFormat=rdf");
      expect(one.data).toBe(`<${alice}> <email> "alice@example.com" .\n`);
    });
  });

  describe("compression and limits", () => {
    it("gunzips request bodies and gzips responses when asked", async () => {
      const res = await request(base, "/query", {
        headers: {
          "content-type": "application/dql",
          "content-encoding": "gzip",
          "accept-encoding": "gzip, deflate",
        },
        body: gzipSync(`{ q(func: uid(${alice})) { nick } }`),
      });
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(JSON.parse(gunzipSync(res.body).toString()).data).toEqual({ q: [{ nick: "al" }] });
    });

    it("does not gzip error bodies", async () => {
      const res = await request(base, "/query", {
        headers: { "content-type": "text/x", "accept-encoding": "gzip" },
        body: "x",
      });
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.json()).toHaveProperty("errors");
    });

    it("rejects unknown content encodings and corrupt gzip", async () => {
      const res = await request(base, "/query", {
        headers: { "content-type": "application/dql", "content-encoding": "br" },
        body: "x",
      });
      expect(res.json()).toEqual(err("Unsupported content encoding"));
      const bad = await request(base, "/query", {
        headers: { "content-type": "application/dql", "content-encoding": "gzip" },
        body: "not gzip at all",
      });
      expect(bad.json()).toEqual(err("Unable to create decompressor", "Error"));
    });

    it("enforces the body limit before and after decompression", async () => {
      const big = await post(base, "/query", "application/dql", "x".repeat(2000));
      expect(big.status).toBe(200);
      expect(big.json()).toEqual(err("Request body too large: the limit is 1024 bytes"));
      const huge = await post(base, "/mutate", "application/rdf", Buffer.alloc(8 * 1024 * 1024, 0x61));
      expect(huge.json()).toEqual(err("Request body too large: the limit is 1024 bytes"));
      const chunked = await request(base, "/mutate", {
        headers: { "content-type": "application/rdf", "transfer-encoding": "chunked" },
        body: Buffer.alloc(8 * 1024 * 1024, 0x61),
      });
      expect(chunked.json()).toEqual(err("Request body too large: the limit is 1024 bytes"));
      const bomb = await request(base, "/query", {
        headers: { "content-type": "application/dql", "content-encoding": "gzip" },
        body: gzipSync("x".repeat(100_000)),
      });
      expect(bomb.json()).toEqual(err("Request body too large: the limit is 1024 bytes"));
      // A gzipped mutation over the limit once inflated writes nothing.
      const before = h.db.engine.maxAssignedTs();
      const inflated = await request(base, "/mutate?commitNow=true", {
        headers: { "content-type": "application/rdf", "content-encoding": "gzip" },
        body: gzipSync(`{ set { _:z <name> "${"z".repeat(4000)}" . } }`),
      });
      expect(inflated.json()).toEqual(err("Request body too large: the limit is 1024 bytes"));
      expect(h.db.engine.maxAssignedTs()).toBe(before);
    });
  });

  describe("/mutate", () => {
    it("runs a JSON upsert with set/delete/cond/query/mutations and renders Dgraph's envelope", async () => {
      await rdf(
        '{ set {\n _:d <email> "dana@example.com" .\n _:d <friend> _:e .\n _:e <name> "Eve" .\n} }',
        "?commitNow=true",
      );
      const body = JSON.stringify({
        query: '{ q(func: eq(email, "dana@example.com")) { v as uid } }',
        set: [
          { uid: "uid(v)", nick: "dee" },
          { uid: "_:zed", name: "Zed" },
          { uid: "_:amy", name: "Amy" },
        ],
        cond: "@if(eq(len(v), 1))",
        // An entry with neither set nor delete is ignored, as is null.
        mutations: [{ delete: [{ uid: "uid(v)", friend: null }] }, { cond: "@if(eq(len(v), 0))" }, null],
      });
      const res = await post(base, "/mutate", "application/json", body);
      const json = envelope(res);
      const dana = (json.data?.queries as { q: { uid: string }[] } | undefined)?.q[0].uid;
      const { amy, zed } = uidsOf(json);
      const txn = txnOf(json);
      const latency = json.extensions?.server_latency as Record<string, number>;
      expect(res.text).toBe(
        `{"data":{"code":"Success","message":"Done","queries":{"q":[{"uid":"${dana}"}]},` +
          `"uids":{"amy":"${amy}","zed":"${zed}"}},"extensions":{"server_latency":${JSON.stringify(latency)},` +
          `"txn":{"start_ts":${txn.start_ts},"keys":${JSON.stringify(txn.keys)},` +
          '"preds":["1-0-friend","1-0-name","1-0-nick"]}}}',
      );
      expect(Object.keys(latency)).toEqual([
        "parsing_ns",
        "processing_ns",
        "assign_timestamp_ns",
        "total_ns",
      ]);
      expect(txn.keys.length).toBeGreaterThan(0);
      expect(txn.keys).toEqual([...txn.keys].sort());
      for (const k of txn.keys) expect(k).toMatch(/^[0-9a-z]+$/);

      const q = '{ q(func: eq(email, "dana@example.com")) { nick friend { name } } }';
      expect((await dql(q, `?startTs=${txn.start_ts}`)).data).toEqual({ q: [{ nick: "dee" }] });
      expect((await dql(q)).data).toEqual({ q: [{ friend: [{ name: "Eve" }] }] });
      expect((await commit(txn.start_ts, JSON.stringify(txn.keys))).errors).toBeUndefined();
      expect((await dql(q)).data).toEqual({ q: [{ nick: "dee" }] });
      expect((await dql(`{ q(func: uid(${zed}, ${amy})) { name } }`)).data).toEqual({
        q: [{ name: "Zed" }, { name: "Amy" }],
      });
    });

    it("drops keys on commitNow and reports queries null without a query", async () => {
      const res = await post(
        base,
        "/mutate?commitNow=true",
        "application/json",
        '{"set":[{"name":"Xavier"}]}',
      );
      const json = res.json() as {
        data: Record<string, unknown>;
        extensions: { txn: { start_ts: number; commit_ts: number } };
      };
      expect(json.data.queries).toBeNull();
      expect(Object.keys(json.data.uids as object)[0]).toMatch(/^dg\.\d+\.\d+$/);
      expect(json.extensions.txn).toEqual({
        start_ts: expect.any(Number),
        commit_ts: expect.any(Number),
        preds: ["1-0-name"],
      });
      expect(json.extensions.txn.commit_ts).toBeGreaterThan(json.extensions.txn.start_ts);
      expect((await dql('{ q(func: eq(name, "Xavier")) { name } }')).data).toEqual({
        q: [{ name: "Xavier" }],
      });
    });

    it("reports JSON syntax errors with a trailing newline", async () => {
      const res = await post(base, "/mutate", "application/json", '{"set": [}');
      expect(res.json()).toEqual(
        err(
          "Error parsing JSON at line 1, character 10: invalid character '}' looking for beginning of value\n",
        ),
      );
    });

    it("applies RDF set and delete blocks, and upserts that only create once", async () => {
      const made = await rdf('{ set {\n _:f <name> "Fay" .\n _:f <nick> "ff" .\n} }', "?commitNow=true");
      const fay = uidsOf(made).f;
      const both = await rdf(
        `{ set { _:g <name> "Gus" . } delete { <${fay}> <nick> * . } }`,
        "?commitNow=true",
      );
      expect(both.errors).toBeUndefined();
      expect((await dql(`{ q(func: uid(${fay})) { name nick } }`)).data).toEqual({ q: [{ name: "Fay" }] });
      expect((await dql('{ q(func: eq(name, "Gus")) { name } }')).data).toEqual({ q: [{ name: "Gus" }] });

      const upsert =
        'upsert { query { v as var(func: eq(email, "once@example.com")) } mutation @if(eq(len(v), 0)) { set { _:n <email> "once@example.com" . } } }';
      const first = await rdf(upsert, "?commitNow=true");
      expect(first.data).toMatchObject({ queries: {}, uids: { n: expect.stringMatching(/^0x/) } });
      const second = await rdf(upsert, "?commitNow=true");
      expect(second.data).toMatchObject({ queries: {}, uids: {} });
      expect((await dql('{ q(func: eq(email, "once@example.com")) { count(uid) } }')).data).toEqual({
        q: [{ count: 1 }],
      });
    });

    it("reports RDF block errors in the SetStatus envelope", async () => {
      const res = await post(base, "/mutate", "application/rdf", "{ schema { name: string . } }");
      const json = res.json() as { errors: { message: string }[]; data?: unknown };
      expect(json.errors[0].message).toContain("Altering schema not supported through http client.");
      expect(json).not.toHaveProperty("data");
      const drop = envelope(await post(base, "/mutate", "application/rdf", "{ dropall { } }"));
      expect(drop.errors?.[0].message).toContain("Dropall not supported through http client.");
      expect(drop).not.toHaveProperty("data");
    });

    it("rejects unsupported content types", async () => {
      const res = await post(base, "/mutate", "application/dql", "{ set {} }");
      expect(res.json()).toEqual(
        err("Unsupported Content-Type. Supported content types are application/json, application/rdf"),
      );
    });

    it("refuses to mutate in an aborted transaction with the FailedPrecondition text", async () => {
      const mu = await rdf('{ set { _:h <name> "Hal" . } }');
      const startTs = mu.extensions?.txn?.start_ts as number;
      await post(base, `/commit?startTs=${startTs}&abort=true`, undefined, "");
      const res = await post(base, `/mutate?startTs=${startTs}`, "application/json", '{"set":{"name":"x"}}');
      expect(res.json()).toEqual(
        errWithData("rpc error: code = FailedPrecondition desc = Transaction conflict"),
      );
    });
  });

  describe("/commit", () => {
    it("requires startTs", async () => {
      const res = await post(base, "/commit", undefined, "[]");
      expect(res.json()).toEqual(err("startTs parameter is mandatory while trying to commit"));
    });

    it("commits with a key array or a keys/preds object; a bad body commits nothing", async () => {
      const t1 = await rdf('{ set { _:i <name> "Ida" . } }');
      const s1 = t1.extensions?.txn?.start_ts as number;
      const res = await post(base, `/commit?startTs=${s1}`, undefined, '["k1","k2"]');
      const c1 = envelope(res).extensions?.txn?.commit_ts as number;
      expect(c1).toBeGreaterThan(s1);
      expect(res.text).toBe(
        `{"data":{"code":"Success","message":"Done"},"extensions":{"txn":{"start_ts":${s1},"commit_ts":${c1}}}}`,
      );
      expect((await dql('{ q(func: eq(name, "Ida")) { name } }')).data).toEqual({ q: [{ name: "Ida" }] });

      const t2 = await rdf('{ set { _:j <name> "Jo" . } }');
      const { start_ts: s2, keys, preds } = txnOf(t2);
      const bad = await post(base, `/commit?startTs=${s2}`, undefined, "");
      expect(bad.json()).toEqual(err("unexpected end of JSON input"));
      expect((await dql('{ q(func: eq(name, "Jo")) { name } }')).data).toEqual({ q: [] });
      expect((await dql('{ q(func: eq(name, "Jo")) { name } }', `?startTs=${s2}`)).data).toEqual({
        q: [{ name: "Jo" }],
      });
      const ok = await commit(s2, JSON.stringify({ keys, preds }));
      expect(ok).toEqual({
        ...SUCCESS,
        extensions: { txn: { start_ts: s2, commit_ts: expect.any(Number) } },
      });
      expect((await dql('{ q(func: eq(name, "Jo")) { name } }')).data).toEqual({ q: [{ name: "Jo" }] });
    });

    it("aborts with a bare success body and drops the writes", async () => {
      const mu = await rdf('{ set { _:k <name> "Kim" . } }');
      const startTs = mu.extensions?.txn?.start_ts as number;
      const res = await post(base, `/commit?startTs=${startTs}&abort=true`, undefined, "");
      expect(res.text).toBe('{"code":"Success","message":"Done"}');
      expect((await dql('{ q(func: eq(name, "Kim")) { name } }')).data).toEqual({ q: [] });
      // A later commit of the aborted txn loses.
      expect(await commit(startTs)).toEqual(
        err("rpc error: code = Aborted desc = Transaction has been aborted. Please retry"),
      );
    });

    it("refuses to abort a committed transaction", async () => {
      const mu = await rdf('{ set { _:l <name> "Lou" . } }');
      const startTs = mu.extensions?.txn?.start_ts as number;
      expect((await commit(startTs)).errors).toBeUndefined();
      const res = await post(base, `/commit?startTs=${startTs}&abort=true`, undefined, "");
      expect(res.json()).toEqual(err("transaction could not be aborted"));
      expect((await dql('{ q(func: eq(name, "Lou")) { name } }')).data).toEqual({ q: [{ name: "Lou" }] });
    });

    it("aborts the second committer on a conflicting key with the Aborted text", async () => {
      const t1 = await rdf(`{ set { <${alice}> <nick> "one" . } }`);
      const t2 = await rdf(`{ set { <${alice}> <nick> "two" . } }`);
      expect((await commit(t1.extensions?.txn?.start_ts as number)).errors).toBeUndefined();
      const lost = await commit(t2.extensions?.txn?.start_ts as number);
      expect(lost).toEqual(
        err("rpc error: code = Aborted desc = Transaction has been aborted. Please retry"),
      );
      expect((await dql(`{ q(func: uid(${alice})) { nick } }`)).data).toEqual({ q: [{ nick: "one" }] });
      await rdf(`{ set { <${alice}> <nick> "al" . } }`, "?commitNow=true");
    });
  });

  describe("/alter", () => {
    it("takes schema text (runInBackground accepted) and protojson drops", async () => {
      const schema = await post(
        base,
        "/alter?runInBackground=true",
        undefined,
        "tag: string @index(exact) .",
      );
      expect(schema.json()).toEqual(SUCCESS);
      expect((await dql("schema(pred: [tag]) { type index tokenizer }")).data).toEqual({
        schema: [{ predicate: "tag", type: "string", index: true, tokenizer: ["exact"] }],
      });
      await rdf('{ set { _:t <tag> "red" . } }', "?commitNow=true");
      expect((await dql('{ q(func: eq(tag, "red")) { tag } }')).data).toEqual({ q: [{ tag: "red" }] });

      const drop = await post(base, "/alter", undefined, '{"dropOp":"ATTR","dropValue":"tag"}');
      expect(drop.json()).toEqual(SUCCESS);
      expect((await dql("schema(pred: [tag]) { type }")).data).toEqual({});
      expect((await dql("{ q(func: has(tag)) { tag } }")).data).toEqual({ q: [] });

      await post(base, "/alter", undefined, "tag2: string .");
      expect((await post(base, "/alter", undefined, '{"drop_attr":"tag2"}')).json()).toEqual(SUCCESS);
      expect((await dql("schema(pred: [tag2]) { type }")).data).toEqual({});
    });

    it("reports validation and engine errors with code Error", async () => {
      const res = await post(base, "/alter", undefined, "{}");
      expect(res.json()).toEqual(err("Operation must have at least one field set", "Error"));
      const bad = envelope(await post(base, "/alter", undefined, "name string"));
      expect(bad).toEqual(err(expect.stringMatching(/^line 1 column \d+: /), "Error"));
      const predefined = await post(base, "/alter", undefined, '{"drop_attr":"dgraph.type"}');
      expect(predefined.json()).toEqual(
        err("predicate dgraph.type is pre-defined and is not allowed to be dropped", "Error"),
      );
    });
  });

  it("refuses /login when ACL is off", async () => {
    const res = await post(base, "/login", undefined, '{"userid":"groot","password":"password"}');
    expect(res.json()).toMatchObject({
      data: null,
      errors: [{ extensions: { code: "ErrorInvalidRequest" } }],
    });
  });
});

describe("HTTP transport: drop all", () => {
  it("wipes data and schema but keeps the pre-defined predicates", async () => {
    const h = await startServer();
    try {
      await post(h.base, "/alter", undefined, "name: string @index(exact) .");
      await post(h.base, "/mutate?commitNow=true", "application/rdf", '{ set { _:a <name> "Ann" . } }');
      const res = await post(h.base, "/alter", undefined, '{"drop_all":true}');
      expect(res.json()).toEqual(SUCCESS);
      const q = (await post(h.base, "/query", "application/dql", "{ q(func: has(name)) { uid } }")).json();
      expect((q as Envelope).data).toEqual({ q: [] });
      const schema = (await post(h.base, "/query", "application/dql", "schema {}")).json() as {
        data: { schema: { predicate: string }[] };
      };
      const preds = schema.data.schema.map((p) => p.predicate);
      expect(preds).not.toContain("name");
      expect(preds).toContain("dgraph.type");
    } finally {
      await h.close();
    }
  });
});

describe("HTTP transport with keep-alive", () => {
  it("leaves out Connection: close but keeps the CORS headers", async () => {
    const h = await startServer({ keepAlive: true });
    try {
      const res = await post(h.base, "/query", "application/dql", "{ q(func: uid(1)) { uid } }");
      expect(res.headers.connection).not.toBe("close");
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect((res.json() as Envelope).data).toEqual({ q: [{ uid: "0x1" }] });
    } finally {
      await h.close();
    }
  });
});

describe("HTTP transport with ACL and an auth token", () => {
  const SECRET_TEXT = "0123456789abcdef0123456789abcdef";
  let h: Harness;
  let base: string;

  beforeAll(async () => {
    h = await startServer(
      { acl: true, aclSecret: new TextEncoder().encode(SECRET_TEXT), authToken: "s3cret" },
      { acl: true },
    );
    base = h.base;
  });
  afterAll(() => h.close());

  async function login(body: object) {
    return (await post(base, "/login", "application/json", JSON.stringify(body))).json() as {
      data: { accessJWT: string; refreshJWT: string } | null;
      errors?: { message: string }[];
    };
  }

  async function grootToken(): Promise<string> {
    const { data } = await login({ userid: "groot", password: "password" });
    if (!data) throw new Error("groot login failed");
    return data.accessJWT;
  }

  const asGroot = async (path: string, contentType: string | undefined, body: string, extra = {}) =>
    envelope(
      await request(base, path, {
        headers: {
          ...(contentType ? { "content-type": contentType } : {}),
          "x-dgraph-accesstoken": await grootToken(),
          ...extra,
        },
        body,
      }),
    );

  it("logs groot in and rejects wrong passwords and other spellings", async () => {
    const ok = await login({ userid: "groot", password: "password" });
    expect(ok.data?.accessJWT.split(".")).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(ok.data!.accessJWT.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ userid: "groot", groups: ["guardians"], namespace: 0 });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 5 * 3600);
    for (const bad of [
      { userid: "groot", password: "wrong" },
      { userid: "Groot", password: "password" },
      { userid: "nobody", password: "password" },
    ]) {
      expect(await login(bad)).toEqual(errWithData("invalid username or password"));
    }
    const refreshed = await login({ refresh_token: ok.data!.refreshJWT });
    expect(refreshed.data?.accessJWT).toBeTruthy();
    expect(await login({ refresh_token: "garbage" })).toEqual(errWithData("invalid username or password"));
  });

  it("requires a valid access token on the API endpoints and writes nothing without one", async () => {
    const missing = await post(base, "/query", "application/dql", "{ q(func: uid(1)) { uid } }");
    expect(missing.json()).toEqual(
      errWithData("rpc error: code = PermissionDenied desc = no accessJwt available", "ErrorInvalidRequest"),
    );
    const bad = await request(base, "/mutate?commitNow=true", {
      headers: { "content-type": "application/rdf", "x-dgraph-accesstoken": "abc" },
      body: '{ set { _:x <sneaky> "yes" . } }',
    });
    expect((bad.json() as { errors: { message: string }[] }).errors[0].message).toBe(
      "rpc error: code = Unauthenticated desc = unable to parse jwt token: token contains an invalid number of segments",
    );
    const anonymous = await post(
      base,
      "/mutate?commitNow=true",
      "application/rdf",
      '{ set { _:x <sneaky> "yes" . } }',
    );
    expect((anonymous.json() as Envelope).errors?.[0].message).toContain("no accessJwt available");
    expect((await asGroot("/query", "application/dql", "{ q(func: has(sneaky)) { uid } }")).data).toEqual({
      q: [],
    });

    const ok = await asGroot("/query", "application/dql", "{ q(func: uid(1)) { uid } }");
    const txn = ok.extensions?.txn as { start_ts: number; hash: string };
    // Dgraph's hash: hex(sha256(sprintf("%#x%#x%#x", namespace, startTs, secret))).
    const expected = createHash("sha256")
      .update(`0x0${`0x${txn.start_ts.toString(16)}`}0x${Buffer.from(SECRET_TEXT).toString("hex")}`)
      .digest("hex");
    expect(txn.hash).toBe(expected);
    // The echoed hash is checked; a wrong one is rejected.
    const wrongHash = await asGroot(
      `/query?startTs=${txn.start_ts}&hash=${"0".repeat(64)}`,
      "application/dql",
      "{ q(func: uid(1)) { uid } }",
    );
    expect(wrongHash).toEqual(errWithData("hash mismatch the claimed startTs|namespace"));
    const rightHash = await asGroot(
      `/query?startTs=${txn.start_ts}&hash=${txn.hash}`,
      "application/dql",
      "{ q(func: uid(1)) { uid } }",
    );
    expect(rightHash.data).toEqual({ q: [{ uid: "0x1" }] });
    expect(rightHash.extensions?.txn).toEqual({ start_ts: txn.start_ts, hash: txn.hash });
  });

  it("rejects refresh tokens and expired tokens as access tokens", async () => {
    const { data } = await login({ userid: "groot", password: "password" });
    const res = await request(base, "/commit?startTs=3", {
      headers: { "x-dgraph-accesstoken": data!.refreshJWT },
      body: "[]",
    });
    expect((res.json() as { errors: { message: string }[] }).errors[0].message).toContain("Unauthenticated");
    const { SignJWT } = await import("jose");
    const expired = await new SignJWT({ userid: "groot", groups: ["guardians"], namespace: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(SECRET_TEXT));
    const exp = await request(base, "/commit?startTs=3", {
      headers: { "x-dgraph-accesstoken": expired },
      body: "[]",
    });
    expect(exp.json()).toEqual(err("rpc error: code = Unauthenticated desc = Token is expired"));
  });

  it("guards /health?all and /state but not /health", async () => {
    expect((await request(base, "/health", { method: "GET" })).status).toBe(200);
    const all = await request(base, "/health?all", { method: "GET" });
    expect(all.json()).toEqual(
      err("rpc error: code = PermissionDenied desc = no accessJwt available", "Error"),
    );
    const headers = { "x-dgraph-accesstoken": await grootToken() };
    const before = h.db.engine.maxAssignedTs();
    const state = (await request(base, "/state", { method: "GET", headers })).json() as { maxTxnTs: string };
    expect(Number(state.maxTxnTs)).toBeGreaterThanOrEqual(before);
    expect(Number(state.maxTxnTs)).toBeLessThanOrEqual(h.db.engine.maxAssignedTs());
    const anonymous = await request(base, "/state", { method: "GET" });
    expect(anonymous.json()).toEqual(
      err("rpc error: code = PermissionDenied desc = no accessJwt available", "Error"),
    );
  });

  it("requires the auth token for /alter", async () => {
    const none = await asGroot("/alter", undefined, "authpred: int .");
    expect(none).toEqual(err("No Auth Token found. Token needed for Admin operations.", "Error"));
    const wrong = await asGroot("/alter", undefined, "authpred: int .", { "x-dgraph-authtoken": "nope" });
    expect(wrong).toEqual(err("Provided auth token [nope] does not match. Permission denied.", "Error"));
    expect((await asGroot("/query", "application/dql", "schema(pred: [authpred]) { type }")).data).toEqual(
      {},
    );
    const ok = await asGroot("/alter", undefined, "authpred: int .", { "x-dgraph-authtoken": "s3cret" });
    expect(ok).toEqual(SUCCESS);
    expect((await asGroot("/query", "application/dql", "schema(pred: [authpred]) { type }")).data).toEqual({
      schema: [{ predicate: "authpred", type: "int" }],
    });
  });

  it("re-creates groot (exactly once) after a drop-all", async () => {
    const users =
      '{ u(func: eq(dgraph.xid, "groot")) { count(uid) } g(func: eq(dgraph.xid, "guardians")) { count(uid) } }';
    await asGroot("/mutate?commitNow=true", "application/rdf", '{ set { _:x <gone> "soon" . } }');
    for (let round = 0; round < 2; round++) {
      const res = await asGroot("/alter", undefined, '{"drop_all":true}', { "x-dgraph-authtoken": "s3cret" });
      expect(res).toEqual(SUCCESS);
      const token = await login({ userid: "groot", password: "password" });
      expect(token.data?.accessJWT).toBeTruthy();
      expect((await asGroot("/query", "application/dql", users)).data).toEqual({
        u: [{ count: 1 }],
        g: [{ count: 1 }],
      });
    }
    expect((await asGroot("/query", "application/dql", "{ q(func: has(gone)) { uid } }")).data).toEqual({
      q: [],
    });
  });
});
