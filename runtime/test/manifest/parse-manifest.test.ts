import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadManifest } from "../../src/manifest/load-manifest.ts";
import { ManifestError } from "../../src/manifest/manifest-error.ts";
import {
  MANIFEST_JSON_SCHEMA_FILE,
  manifestJsonSchemaText,
} from "../../src/manifest/manifest-json-schema.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";

/** The `path: message` lines of the ManifestError `text` raises. */
function problems(text: string): string[] {
  try {
    parseManifest(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return (e as ManifestError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error("expected a ManifestError");
}

const json = (v: unknown) => JSON.stringify(v);

describe("parseManifest", () => {
  it("accepts an empty manifest and fills the defaults", () => {
    const m = parseManifest("{}");
    expect(m.endpoints).toEqual({ default: { type: "graphql", path: "/graphql", auth: "bearer-token" } });
    expect(m.limits).toEqual({ timeoutMs: 30000, memoryMb: 256 });
    expect(m.connections).toEqual({});
    expect(m.models).toEqual({});
    expect(m.lambdas).toEqual({});
    expect(m.web).toBeUndefined();
  });

  it("reads the lambda map and the front end, with their defaults", () => {
    const m = parseManifest(
      json({
        lambdas: { "Product.shippingEstimate": "shippingEstimate", "Query.hello": "sayHello" },
        web: {},
      }),
    );
    expect(m.lambdas).toEqual({ "Product.shippingEstimate": "shippingEstimate", "Query.hello": "sayHello" });
    expect(m.web).toEqual({ root: "web", spaFallback: true });
    expect(parseManifest(json({ web: { root: "site", spaFallback: false } })).web).toEqual({
      root: "site",
      spaFallback: false,
    });
  });

  it("rejects malformed lambda keys, function names and front-end roots", () => {
    expect(problems(json({ lambdas: { Product: "f", "A.b": "not-a-name" } }))).toEqual([
      'lambdas.Product: invalid name: lambda keys are "Type.field", e.g. "Product.shippingEstimate"',
      "lambdas.A.b: must name one of the app's functions, e.g. shippingEstimate",
    ]);
    expect(problems(json({ web: { root: "../elsewhere" } }))).toEqual([
      "web.root: must be a relative path inside the app",
    ]);
    expect(problems(json({ web: { root: "/abs", extra: 1 } }))).toEqual([
      "web.root: must be a relative path inside the app",
      "web.extra: unknown field",
    ]);
  });

  it("reads JSONC (comments, trailing commas) and every connection kind", () => {
    const m = parseManifest(`{
      // the chat model
      "models": { "chat": { "sourceModel": "gpt-4o-mini", "connection": "openai-like", "path": "v1/chat/completions" } },
      "connections": {
        "openai-like": { "type": "http", "baseUrl": "https://api.example.com/",
                         "headers": { "Authorization": "Bearer {{API_KEY}}" }, },
        "db": { "type": "relationaldb", "connStr": "postgres://u:{{ PW }}@db:5432/app" },
        "graph": { "type": "graphdb", "grpcTarget": "{{HOST}}:9080", "key": "{{KEY}}" },
      },
      "endpoints": { "public": { "type": "graphql", "path": "/graphql", "auth": "none" } },
      "limits": { "timeoutMs": 5000 },
    }`);
    expect(m.connections["openai-like"]).toEqual({
      type: "http",
      baseUrl: "https://api.example.com/",
      headers: { Authorization: "Bearer {{API_KEY}}" },
      queryParameters: {},
    });
    expect(m.connections.db).toEqual({ type: "relationaldb", connStr: "postgres://u:{{ PW }}@db:5432/app" });
    expect(m.connections.graph).toEqual({ type: "graphdb", grpcTarget: "{{HOST}}:9080", key: "{{KEY}}" });
    expect(m.endpoints.public.auth).toBe("none");
    expect(m.limits).toEqual({ timeoutMs: 5000, memoryMb: 256 });
    expect(m.notices).toEqual([]);
  });

  it("normalizes Modus spellings and says so", () => {
    const m = parseManifest(
      json({
        $schema: "https://schema.hypermode.com/modus.json",
        connections: {
          pg: { type: "postgresql", connString: "postgresql://x/y" },
          my: { type: "mysql", connString: "mysql://root@h/db" },
          dg: { type: "dgraph", grpcTarget: "localhost:9080", key: "{{KEY}}" },
          dg2: { type: "dgraph", connString: "dgraph://h:9080?bearertoken={{T}}" },
        },
      }),
    );
    expect(m.connections).toEqual({
      pg: { type: "relationaldb", connStr: "postgresql://x/y" },
      my: { type: "relationaldb", connStr: "mysql://root@h/db" },
      dg: { type: "graphdb", grpcTarget: "localhost:9080", key: "{{KEY}}" },
      dg2: { type: "graphdb", grpcTarget: "dgraph://h:9080?bearertoken={{T}}" },
    });
    expect(m.notices).toContain('connections.pg: Modus type "postgresql" read as "relationaldb"');
    expect(m.notices).toContain('connections.dg2: Modus field "connString" read as "connStr"');
  });

  it("names the path of an unknown connection type and a missing type", () => {
    expect(problems(json({ connections: { n: { type: "neo4j" }, t: {} } }))).toEqual([
      'connections.n.type: unknown connection type "neo4j"; expected http, relationaldb, graphdb (or Modus\'s postgresql, mysql, dgraph)',
      "connections.t.type: required: one of http, relationaldb, graphdb (or Modus's postgresql, mysql, dgraph)",
    ]);
  });

  it("names the path of missing fields", () => {
    expect(
      problems(
        json({
          connections: { api: { type: "http" }, db: { type: "relationaldb" }, g: { type: "graphdb" } },
          models: { m: { sourceModel: "x" } },
          endpoints: { e: { path: "/x" } },
        }),
      ),
    ).toEqual([
      "endpoints.e.type: required",
      "models.m.connection: required",
      "connections.api.baseUrl: required (or give endpoint)",
      "connections.db.connStr: required",
      "connections.g.grpcTarget: give exactly one of grpcTarget or connStr",
    ]);
  });

  it("names the path of an unknown connection in a model, and of path rules", () => {
    expect(
      problems(
        json({
          models: {
            chat: { connection: "foo" },
            a: { connection: "base" },
            b: { connection: "one", path: "v1/x" },
            c: { connection: "db", path: "x" },
          },
          connections: {
            base: { type: "http", baseUrl: "http://h/" },
            one: { type: "http", endpoint: "http://h/v1/x" },
            db: { type: "relationaldb", connStr: "postgres://h/db" },
          },
        }),
      ),
    ).toEqual([
      'models.chat.connection: unknown connection "foo"',
      'models.a.path: required: connection "base" has a baseUrl, so the model needs a path under it',
      'models.b.path: not allowed: connection "one" has an endpoint, which is the model\'s URL',
      'models.c.connection: connection "db" is not an http connection',
    ]);
  });

  it("names the path of a bad placeholder, and refuses placeholders in URLs", () => {
    expect(
      problems(
        json({
          connections: {
            api: {
              type: "http",
              baseUrl: "https://{{HOST}}/",
              headers: { Authorization: "Bearer {{API-KEY}}", "X-Ok": "{{ A }} {{base64(U:P)}}" },
              queryParameters: { k: "{{}}" },
            },
            db: { type: "relationaldb", connStr: "postgres://u:{{pass word}}@h/db" },
            g: { type: "graphdb", grpcTarget: "h:1", key: "{{KEY" },
          },
        }),
      ),
    ).toEqual([
      "connections.api.baseUrl: placeholders are not filled in URLs; put secrets in headers or queryParameters",
      'connections.api.headers.Authorization: bad placeholder "{{API-KEY}}": write {{NAME}} (letters, digits, _) or {{base64(USER:PASS)}}',
      'connections.api.queryParameters.k: bad placeholder "{{}}": write {{NAME}} (letters, digits, _) or {{base64(USER:PASS)}}',
      'connections.db.connStr: bad placeholder "{{pass word}}": write {{NAME}} (letters, digits, _) or {{base64(USER:PASS)}}',
      'connections.g.key: bad placeholder "{{KEY": write {{NAME}} (letters, digits, _) or {{base64(USER:PASS)}}',
    ]);
  });

  it("checks URL shapes, names, schemes, unknown fields and endpoint paths", () => {
    expect(
      problems(
        json({
          extra: true,
          endpoints: {
            default: { type: "graphql", path: "/health" },
            b: { type: "graphql", path: "/graphql" },
          },
          connections: {
            "my-api": { type: "http", baseUrl: "https://api.example.com/v1", baseURL: "x" },
            both: { type: "http", baseUrl: "http://h/", endpoint: "http://h/x" },
            bad_name: { type: "http", endpoint: "ftp://h/x" },
            pg: { type: "postgresql", connStr: "mysql://h/db" },
            g: { type: "graphdb", connStr: "h:9080" },
          },
          limits: { timeoutMs: 0 },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        "extra: unknown field",
        "endpoints.default.path: is reserved",
        'connections.my-api.baseUrl: must be an http(s) URL ending with "/" (requests are allowed under this prefix)',
        "connections.my-api.baseURL: unknown field",
        "connections.both.endpoint: give baseUrl or endpoint, not both",
        "connections.bad_name: invalid name: names are letters and digits with single hyphens between them",
        "connections.pg.connStr: must start with postgres://, postgresql://",
        "connections.g.connStr: must start with dgraph://",
        "limits.timeoutMs: Too small: expected number to be >0",
      ]),
    );
  });

  it("refuses two connections that would read the same variable, and the reserved name app", () => {
    expect(
      problems(
        json({
          connections: {
            my: { type: "http", baseUrl: "http://a/", headers: { A: "{{API_KEY}}" } },
            "my-api": { type: "http", baseUrl: "http://b/", headers: { A: "{{KEY}}" } },
            app: { type: "http", baseUrl: "http://c/" },
          },
        }),
      ),
    ).toEqual([
      'connections.app: the name "app" is reserved (TRELLIS_APP_* variables are app secrets)',
      'connections.my-api.headers.A: {{KEY}} reads TRELLIS_MY_API_KEY, which connection "my" also reads for {{API_KEY}}; rename a connection or placeholder',
    ]);
  });

  it("reports JSONC syntax errors with line and column", () => {
    expect(problems('{\n  "connections": {\n    "x": ,\n  }\n}')).toEqual([
      "trellis.json:3:10: value expected",
    ]);
    expect(problems("[]")).toEqual(["(root): must be a JSON object"]);
  });

  it("lists every problem in the error message", () => {
    expect(() => parseManifest(json({ models: { a: { connection: "x" } }, b: 1 }))).toThrow(
      'invalid trellis.json (2 problems):\n  b: unknown field\n  models.a.connection: unknown connection "x"',
    );
  });
});

describe("loadManifest", () => {
  const dir = mkdtempSync(join(tmpdir(), "trellis-manifest-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads trellis.json, falls back to modus.json saying so, and explains a missing file", async () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    const c = join(dir, "c");
    for (const d of [a, b, c]) rmSync(d, { recursive: true, force: true });
    for (const d of [a, b, c]) mkdirSync(d);
    writeFileSync(join(a, "trellis.json"), '{"limits": {"memoryMb": 128}}');
    writeFileSync(join(a, "modus.json"), '{"bogus": 1}');
    writeFileSync(
      join(b, "modus.json"),
      '{"connections": {"d": {"type": "dgraph", "grpcTarget": "localhost:9080"}}}',
    );
    const la = await loadManifest(a);
    expect(la.file).toBe(join(a, "trellis.json"));
    expect(la.manifest.limits.memoryMb).toBe(128);
    const lb = await loadManifest(b);
    expect(lb.file).toBe(join(b, "modus.json"));
    expect(lb.manifest.notices[0]).toBe(`read modus.json (no trellis.json in ${b})`);
    expect(lb.manifest.connections.d.type).toBe("graphdb");
    await expect(loadManifest(c)).rejects.toThrow(`${join(c, "trellis.json")}: not found`);
    writeFileSync(join(c, "modus.json"), '{"bogus": 1}');
    await expect(loadManifest(c)).rejects.toThrow("invalid modus.json (1 problem):\n  bogus: unknown field");
  });
});

describe("trellis.schema.json", () => {
  it("is the current output of the zod schema (regenerate: npx tsx runtime/src/manifest/manifest-json-schema.ts)", () => {
    expect(JSON.parse(readFileSync(MANIFEST_JSON_SCHEMA_FILE, "utf8"))).toEqual(
      JSON.parse(manifestJsonSchemaText()),
    );
  });
});
