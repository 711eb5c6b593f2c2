import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPH_APP } from "./support/builds.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const DROP_DATA = "mutation { dropData(allData: true) { response { code message } } }";
const DROP_ALL = "mutation { dropData(allDataAndSchema: true) { response { code message } } }";
const DONE = { data: { dropData: { response: { code: "Success", message: "Done" } } } };

/** /admin/slash and the console's Graph API, each acting on one app's namespace of the real graph database. */
describe("hosted admin /admin/slash and the Graph API, per app", () => {
  let t: TestPlatform;
  const apps: Record<string, { deployToken: string; apiKey: string }> = {};

  const names = async (app: string) => {
    const res = await t.gql(app, "{ names }", apps[app].apiKey);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.names as string[];
  };
  const seed = async (app: string, list: string[]) => {
    const res = await t.gql(app, `mutation { seed(names: ${JSON.stringify(list)}) }`, apps[app].apiKey);
    expect(res.body).toEqual({ data: { seed: true } });
  };
  const predicates = async (app: string) =>
    (await t.api("GET", `/api/apps/${app}/graph/schema`)).body.schema.map(
      (p: { predicate: string }) => p.predicate,
    );
  /** A POST with any Host header (fetch may not set one). */
  const slash = (path: string, body: string, token?: string, host?: string) =>
    new Promise<{ status: number; json(): Promise<Json> }>((resolve, reject) => {
      const url = new URL(path, t.platform.url);
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            "Content-Type": "application/graphql",
            ...(token === undefined ? {} : { "X-Auth-Token": token }),
            ...(host === undefined ? {} : { Host: host }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: res.statusCode ?? 0, json: async () => JSON.parse(text) });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true });
    for (const app of ["alpha", "beta"]) {
      const created = await t.api("POST", "/api/apps", { name: app });
      const deployToken = created.body.deployToken as string;
      const deployed = await t.deploy(app, await t.archive(GRAPH_APP), deployToken);
      expect(deployed.status).toBe(201);
      const key = await t.api("POST", `/api/apps/${app}/keys`, { name: "test" });
      apps[app] = { deployToken, apiKey: key.body.secret };
    }
    await seed("alpha", ["Alice", "Bob"]);
    await seed("beta", ["Carol"]);
  });
  afterAll(() => t?.close());

  it("gives each app its own graph: neither sees the other's nodes", async () => {
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
    expect(await names("beta")).toEqual(["Carol"]);
  });

  it("rejects a missing or wrong token, and another app's deploy token, leaving the data alone", async () => {
    const missing = await slash("/apps/alpha/admin/slash", DROP_DATA);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as Json).errors[0].message).toContain("X-Auth-Token");
    expect((await slash("/apps/alpha/admin/slash", DROP_DATA, "wrong")).status).toBe(401);
    expect((await slash("/apps/alpha/admin/slash", DROP_DATA, apps.beta.deployToken)).status).toBe(401);
    // An app's deploy token is no key to every app's data.
    expect((await slash("/admin/slash", DROP_DATA, apps.alpha.deployToken)).status).toBe(401);
    expect((await slash("/apps/nobody/admin/slash", DROP_DATA, t.platform.adminToken)).status).toBe(404);
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
    expect(await names("beta")).toEqual(["Carol"]);
  });

  it("drops one app's data with allData (its deploy token), keeping its schema and the other app's data", async () => {
    const res = await slash("/apps/alpha/admin/slash", DROP_DATA, apps.alpha.deployToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(DONE);
    expect(await names("alpha")).toEqual([]);
    expect(await predicates("alpha")).toContain("name");
    const types = (await t.api("GET", "/api/apps/alpha/graph/schema")).body.types.map(
      (x: { name: string }) => x.name,
    );
    expect(types).toContain("Person");
    expect(await names("beta")).toEqual(["Carol"]);
    // The app still logs in and writes: its namespace and its login were kept.
    await seed("alpha", ["Dave"]);
    expect(await names("alpha")).toEqual(["Dave"]);
  });

  it("drops data and schema with allDataAndSchema on the app's own host", async () => {
    const res = await slash("/admin/slash", DROP_ALL, t.platform.adminToken, "alpha.localhost");
    expect(await res.json()).toEqual(DONE);
    expect(await predicates("alpha")).not.toContain("name");
    expect(await predicates("beta")).toContain("name");
    expect(await names("beta")).toEqual(["Carol"]);
    await seed("alpha", ["Erin"]);
  });

  it("drops every app's data on the platform's own host, with the admin token", async () => {
    const res = await slash("/admin/slash", DROP_DATA, t.platform.adminToken);
    expect(await res.json()).toEqual(DONE);
    expect(await names("alpha")).toEqual([]);
    expect(await names("beta")).toEqual([]);
    await seed("alpha", ["Alice", "Bob"]);
    await seed("beta", ["Carol"]);
  });

  it("answers a malformed mutation with GraphQL errors", async () => {
    const res = await slash(
      "/apps/alpha/admin/slash",
      "mutation { dropData(allData: true) { response { code ",
      t.platform.adminToken,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).errors[0].message).toMatch(/Syntax Error/);
  });

  it("serves the console's Graph API in the app's namespace: query, schema and drop", async () => {
    const q = await t.api("POST", "/api/apps/alpha/graph/query", {
      query: "{ q(func: has(name)) { name } }",
    });
    expect(q.body.data.q.map((n: { name: string }) => n.name).sort()).toEqual(["Alice", "Bob"]);
    expect((await t.api("POST", "/api/apps/alpha/graph/query", { query: "{ q(func: " })).status).toBe(400);
    expect(
      (await t.api("POST", "/api/apps/nobody/graph/query", { query: "{ q(func: has(name)) { name } }" }))
        .status,
    ).toBe(404);
    expect((await t.api("POST", "/api/apps/beta/graph/drop", { allDataAndSchema: false })).body).toEqual({
      ok: true,
    });
    expect(await names("beta")).toEqual([]);
    expect(await names("alpha")).toEqual(["Alice", "Bob"]);
    expect(await predicates("beta")).toContain("name");
    expect(
      (await t.api("POST", "/api/apps/alpha/graph/query", { query: "{ q(func: has(name)) { name } }" }, "x"))
        .status,
    ).toBe(401);
  });

  it("drops the app's namespace with the app: a new app of the same name starts empty", async () => {
    expect((await t.api("DELETE", "/api/apps/alpha")).status).toBe(204);
    const created = await t.api("POST", "/api/apps", { name: "alpha" });
    expect(created.status).toBe(201);
    const q = await t.api("POST", "/api/apps/alpha/graph/query", {
      query: "{ q(func: has(name)) { name } }",
    });
    expect(q.body.data.q ?? []).toEqual([]);
    expect(await predicates("alpha")).not.toContain("name");
  });
});
