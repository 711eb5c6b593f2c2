/**
 * The console's GraphQL routes: each app's generated GraphQL API in its own namespace of the platform's
 * graph database. A schema is set, read back with its generated schema, refused with Dgraph's texts and
 * lines (the previous one keeps serving), and queried; another app sees none of it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const SCHEMA = `type Person {
  id: ID!
  name: String! @search(by: [exact])
  age: Int
}
`;

describe("the Graph tab's GraphQL API, per app", () => {
  let t: TestPlatform;
  const schemaOf = (app: string) => t.api("GET", `/api/apps/${app}/graph/graphql-schema`);
  const putSchema = (app: string, schema: unknown) =>
    t.api("PUT", `/api/apps/${app}/graph/graphql-schema`, { schema });
  const graphql = (app: string, body: Json) => t.api("POST", `/api/apps/${app}/graph/graphql`, body);

  beforeAll(async () => {
    t = await startTestPlatform();
    for (const app of ["alpha", "beta"]) {
      expect((await t.api("POST", "/api/apps", { name: app })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has no schema until one is set", async () => {
    const res = await schemaOf("alpha");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ schema: null, generatedSchema: null });
  });

  it("sets a schema and returns the generated one", async () => {
    const res = await putSchema("alpha", SCHEMA);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.generatedSchema).toContain("queryPerson(");
    expect(res.body.generatedSchema).toContain("addPerson(");

    const read = await schemaOf("alpha");
    expect(read.body.schema).toBe(SCHEMA);
    expect(read.body.generatedSchema).toBe(res.body.generatedSchema);
  });

  it("runs mutations and queries with variables and an operation name", async () => {
    const add = await graphql("alpha", {
      query: `mutation Add($name: String!) { addPerson(input: [{ name: $name, age: 36 }]) { person { name } } }
              query Other { queryPerson { name } }`,
      variables: { name: "Ada" },
      operationName: "Add",
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ data: { addPerson: { person: [{ name: "Ada" }] } } });

    const q = await graphql("alpha", {
      query: 'query { queryPerson(filter: { name: { eq: "Ada" } }) { name age } }',
    });
    expect(q.body).toEqual({ data: { queryPerson: [{ name: "Ada", age: 36 }] } });
  });

  it("answers a bad query with GraphQL errors, not an HTTP error", async () => {
    const res = await graphql("alpha", { query: "{ queryPerson { nope } }" });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].message).toContain('Cannot query field "nope"');
    expect(res.body.errors[0].locations).toEqual([{ line: 1, column: 17 }]);
  });

  it("refuses an invalid schema with Dgraph's texts and lines, and keeps serving the previous one", async () => {
    const res = await putSchema("alpha", "type T {\n  id: ID!\n  f: Float @id\n}");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("BAD_REQUEST");
    expect(res.body.error.message).toContain("Type T; Field f: with @id directive must be of type");
    expect(res.body.error.problems).toHaveLength(1);
    expect(res.body.error.problems[0]).toEqual({
      message: "Type T; Field f: with @id directive must be of type String, Int or Int64, not Float",
      line: 3,
      column: res.body.error.problems[0].column,
    });
    expect(["number", "object"]).toContain(typeof res.body.error.problems[0].column);

    const syntax = await putSchema("alpha", "type A {\n  id: ID!\n  name String\n}");
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.problems[0].line).toBe(3);
    expect(syntax.body.error.problems[0].message).toMatch(/^Syntax Error: Expected ":"/);

    expect((await schemaOf("alpha")).body.schema).toBe(SCHEMA);
    const q = await graphql("alpha", { query: "{ queryPerson { name } }" });
    expect(q.body).toEqual({ data: { queryPerson: [{ name: "Ada" }] } });
  });

  it("checks the request bodies", async () => {
    expect((await putSchema("alpha", 42)).status).toBe(400);
    expect((await graphql("alpha", {})).status).toBe(400);
    expect((await graphql("alpha", { query: "{ a }", variables: [1] })).status).toBe(400);
    expect((await graphql("nope", { query: "{ a }" })).status).toBe(404);
  });

  it("keeps app A's schema and data out of app B's namespace", async () => {
    expect((await schemaOf("beta")).body).toEqual({ schema: null, generatedSchema: null });
    const none = await graphql("beta", { query: "{ queryPerson { name } }" });
    expect(none.body.errors[0].message).toContain("There's no GraphQL schema");

    // B's own schema of the same type sees none of A's data, and A's schema is untouched.
    expect((await putSchema("beta", SCHEMA)).status).toBe(200);
    const empty = await graphql("beta", { query: "{ queryPerson { name } }" });
    expect(empty.body).toEqual({ data: { queryPerson: [] } });
    const other = "type Thing {\n  id: ID!\n  label: String\n}\n";
    expect((await putSchema("beta", other)).status).toBe(200);
    expect((await schemaOf("alpha")).body.schema).toBe(SCHEMA);
    expect((await graphql("alpha", { query: "{ queryPerson { name } }" })).body).toEqual({
      data: { queryPerson: [{ name: "Ada" }] },
    });
  });

  it("exports the app's graph as a .tar.gz of Dgraph's export files, RDF or JSON", async () => {
    const download = async (format: string) =>
      fetch(`${t.platform.url}/api/apps/alpha/graph/export?format=${format}`, {
        headers: { Authorization: `Bearer ${t.platform.adminToken}` },
      });
    const res = await download("rdf");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="alpha-dgraph\.r\d+\.u[\d.]+\.tar\.gz"$/,
    );
    const dir = mkdtempSync(join(tmpdir(), "export-test-"));
    try {
      writeFileSync(join(dir, "export.tar.gz"), Buffer.from(await res.arrayBuffer()));
      await tar.extract({ file: join(dir, "export.tar.gz"), cwd: dir });
      const [folder] = readdirSync(dir).filter((f) => f.startsWith("dgraph."));
      expect(readdirSync(join(dir, folder)).sort()).toEqual([
        "g01.gql_schema.gz",
        "g01.rdf.gz",
        "g01.schema.gz",
      ]);
      const rdf = gunzipSync(readFileSync(join(dir, folder, "g01.rdf.gz"))).toString();
      expect(rdf).toMatch(/<Person\.name> "Ada"\^\^<xs:string>/);
      expect(gunzipSync(readFileSync(join(dir, folder, "g01.gql_schema.gz"))).toString()).toBe(SCHEMA);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const other = await download("rdf").then((r) => r.arrayBuffer());
    expect(other.byteLength).toBeGreaterThan(0);
    expect((await download("csv")).status).toBe(400);
  });

  it("is behind the admin token", async () => {
    const res = await t.api("GET", "/api/apps/alpha/graph/graphql-schema", undefined, "wrong-token");
    expect(res.status).toBe(401);
    const post = await t.api("POST", "/api/apps/alpha/graph/graphql", { query: "{ a }" }, "wrong-token");
    expect(post.status).toBe(401);
  });
});
