import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** /admin/slash against the platform's real embedded graph database, reached over its own HTTP API. */
describe("hosted admin /admin/slash", () => {
  let t: TestPlatform;
  const dgraph = async (path: string, body: string, contentType: string) => {
    const res = await fetch(t.platform.graphdb.httpUrl + path, {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
    });
    return (await res.json()) as Json;
  };
  const names = async () =>
    (await dgraph("/query", "{ q(func: has(name)) { name } }", "application/dql")).data.q.map(
      (n: { name: string }) => n.name,
    );
  const predicates = async () =>
    (await t.api("GET", "/api/graph/schema")).body.schema.map((p: { predicate: string }) => p.predicate);
  const slash = (body: string, token?: string) =>
    fetch(`${t.platform.url}/admin/slash`, {
      method: "POST",
      headers: {
        "Content-Type": "application/graphql",
        ...(token === undefined ? {} : { "X-Auth-Token": token }),
      },
      body,
    });
  const seed = async () => {
    const altered = await dgraph(
      "/alter",
      "name: string @index(exact) .\ntype Person {\n  name\n}",
      "application/dql",
    );
    expect(altered.data.code).toBe("Success");
    const mutated = await dgraph(
      "/mutate?commitNow=true",
      '{ set {\n _:a <name> "Alice" .\n _:b <name> "Bob" .\n } }',
      "application/rdf",
    );
    expect(mutated.data.code).toBe("Success");
  };

  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true });
  });
  afterAll(() => t?.close());

  it("rejects a missing or wrong token and leaves the data alone", async () => {
    await seed();
    const missing = await slash("mutation { dropData(allData: true) { response { code message } } }");
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as Json).errors[0].message).toContain("X-Auth-Token");
    const wrong = await slash("mutation { dropData(allData: true) { response { code message } } }", "wrong");
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Json).errors).toHaveLength(1);
    expect((await names()).sort()).toEqual(["Alice", "Bob"]);
  });

  it("drops the data and keeps the schema with allData", async () => {
    const res = await slash(
      "mutation { dropData(allData: true) { response { code message } } }",
      t.platform.adminToken,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { dropData: { response: { code: "Success", message: "Done" } } },
    });
    expect(await names()).toEqual([]);
    expect(await predicates()).toContain("name");
    const types = (await t.api("GET", "/api/graph/schema")).body.types.map((x: { name: string }) => x.name);
    expect(types).toContain("Person");
  });

  it("drops data and schema with allDataAndSchema", async () => {
    await seed();
    expect(await names()).toHaveLength(2);
    const res = await slash(
      "mutation { dropData(allDataAndSchema: true) { response { code message } } }",
      t.platform.adminToken,
    );
    expect(await res.json()).toEqual({
      data: { dropData: { response: { code: "Success", message: "Done" } } },
    });
    expect(await names()).toEqual([]);
    expect(await predicates()).not.toContain("name");
  });

  it("answers a malformed mutation with GraphQL errors", async () => {
    const res = await slash("mutation { dropData(allData: true) { response { code ", t.platform.adminToken);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).errors[0].message).toMatch(/Syntax Error/);
  });

  it("serves the console's graph API: query, schema and drop", async () => {
    await seed();
    const q = await t.api("POST", "/api/graph/query", { query: '{ q(func: eq(name, "Alice")) { name } }' });
    expect(q.body.data).toEqual({ q: [{ name: "Alice" }] });
    expect((await t.api("POST", "/api/graph/query", { query: "{ q(func: " })).status).toBe(400);
    expect((await t.api("POST", "/api/graph/drop", { allDataAndSchema: false })).body).toEqual({ ok: true });
    expect(await names()).toEqual([]);
    expect(await predicates()).toContain("name");
    expect(
      (await t.api("POST", "/api/graph/query", { query: "{ q(func: has(name)) { name } }" }, "x")).status,
    ).toBe(401);
  });
});
