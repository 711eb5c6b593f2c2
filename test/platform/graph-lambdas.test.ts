/**
 * Issue 13: the `@lambda` fields of an app's graph namespace, served by the app's own functions on a
 * running platform with the real WebAssembly runtime. The console's Graph route answers from the
 * function (waking the app when it is scaled to zero); a function that loops forever fails its field only;
 * each call is in the app's Activity, marked as a lambda. Another app's namespace, and the operator's
 * galaxy over the database's own `/graphql`, never reach this app's functions.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { buildApp, packBuild } from "../../runtime/src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

const IDLE_MS = 60_000;

const SOURCE = `import type { i32 } from "@trellis/sdk";
/** Product.shippingEstimate: the parent's stored fields by name. */
export function shippingEstimate(price: i32, weight: i32): i32 {
  return price + weight * 10;
}
/** Product.spin: never returns for "slow". */
export function spin(name: string): string {
  if (name === "slow") {
    let i = 0;
    for (;;) i = (i + 1) | 0;
  }
  return "fast:" + name;
}
/** Query.double */
export function double(n: i32): i32 {
  return n * 2;
}
`;

const LAMBDAS = {
  "Product.shippingEstimate": "shippingEstimate",
  "Product.spin": "spin",
  "Query.double": "double",
};

const SCHEMA = `type Product {
  id: ID!
  name: String! @id
  price: Int!
  weight: Int!
  shippingEstimate: Int @lambda
  spin: String @lambda
}
type Query {
  double(n: Int!): Int @lambda
}`;

describe("an app's graph namespace's @lambda fields on the platform", () => {
  let tmp: string;
  let platform: RunningPlatform;

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(platform.url + path, {
      method,
      headers: {
        authorization: `Bearer ${platform.adminToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const graphql = async (app: string, query: string): Promise<Json> => {
    const r = await api("POST", `/api/apps/${app}/graph/graphql`, { query });
    expect(r.status).toBe(200);
    return r.body;
  };

  async function deploy(app: string, buildDir: string): Promise<void> {
    expect((await api("POST", "/api/apps", { name: app })).status).toBe(201);
    const res = await fetch(`${platform.url}/api/apps/${app}/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
      body: new Uint8Array(await packBuild(buildDir)),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await api("PUT", `/api/apps/${app}/graph/graphql-schema`, { schema: SCHEMA })).status).toBe(200);
  }

  async function lambdaActivity(app: string): Promise<Json[]> {
    const { executions } = (await api("GET", `/api/apps/${app}/activity?limit=100`)).body;
    return (executions as Json[]).filter((e) => e.lambda !== null);
  }

  /** Activity is written in batches: wait until `count` lambda executions are there. */
  async function waitForLambdaActivity(app: string, count: number): Promise<Json[]> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = await lambdaActivity(app);
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-graph-lambdas-"));
    const appDir = join(tmp, "shop-app");
    await mkdir(join(appDir, "src"), { recursive: true });
    await writeFile(
      join(appDir, "trellis.json"),
      JSON.stringify({ limits: { timeoutMs: 1000, memoryMb: 64 }, lambdas: LAMBDAS }),
    );
    await writeFile(join(appDir, "package.json"), JSON.stringify({ name: "shop-app", private: true }));
    await writeFile(join(appDir, "src/index.ts"), SOURCE);
    const buildDir = (await buildApp(appDir)).outDir;
    // The same functions, but a trellis.json that maps no lambda: another tenant.
    const otherBuild = join(tmp, "other-build");
    await cp(buildDir, otherBuild, { recursive: true });
    const manifest = JSON.parse(await readFile(join(otherBuild, "trellis.json"), "utf8"));
    manifest.lambdas = {};
    await writeFile(join(otherBuild, "trellis.json"), JSON.stringify(manifest));

    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(16).toString("hex")}`,
      idleMs: IDLE_MS,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    });
    await deploy("shop", buildDir);
    await deploy("other", otherBuild);
    for (const app of ["shop", "other"]) {
      const added = await graphql(
        app,
        'mutation { addProduct(input: [{ name: "box", price: 5, weight: 2 }, { name: "slow", price: 1, weight: 1 }]) { numUids } }',
      );
      expect(added).toEqual({ data: { addProduct: { numUids: 2 } } });
    }
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("answers lambda fields from the app's functions and records each call in Activity", async () => {
    const r = await graphql(
      "shop",
      "{ queryProduct(order: { asc: name }) { name shippingEstimate } double(n: 21) }",
    );
    expect(r).toEqual({
      data: {
        queryProduct: [
          { name: "box", shippingEstimate: 25 },
          { name: "slow", shippingEstimate: 11 },
        ],
        double: 42,
      },
    });
    const activity = await waitForLambdaActivity("shop", 3);
    expect(activity.map((e) => `${e.lambda} ${e.function}`).sort()).toEqual([
      "Product.shippingEstimate shippingEstimate",
      "Product.shippingEstimate shippingEstimate",
      "Query.double double",
    ]);
    // Filtered by function like any call.
    const byFunction = (await api("GET", "/api/apps/shop/activity?function=double")).body.executions;
    expect(byFunction).toEqual([expect.objectContaining({ function: "double", lambda: "Query.double" })]);
    expect(activity.every((e) => e.status === "success")).toBe(true);
  });

  it("fails only the field whose function loops forever, at the app's timeout", async () => {
    const started = Date.now();
    const r = await graphql("shop", "{ queryProduct(order: { asc: name }) { name spin shippingEstimate } }");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.data).toEqual({
      queryProduct: [
        { name: "box", spin: "fast:box", shippingEstimate: 25 },
        { name: "slow", spin: null, shippingEstimate: 11 },
      ],
    });
    expect(r.errors).toEqual([
      expect.objectContaining({
        path: ["queryProduct", 1, "spin"],
        extensions: expect.objectContaining({ code: "TIMEOUT" }),
      }),
    ]);
    const activity = await waitForLambdaActivity("shop", 7);
    expect(activity.find((e) => e.status === "error")).toMatchObject({
      function: "spin",
      lambda: "Product.spin",
      error: expect.stringContaining("timeout"),
    });
  });

  it("wakes an app scaled to zero to serve its lambda fields", async () => {
    expect(platform.sweepIdle(Date.now() + IDLE_MS + 1_000)).toContain("shop");
    expect((await api("GET", "/api/apps/shop")).body.app.status).toBe("idle");
    expect(await graphql("shop", "{ double(n: 4) }")).toEqual({ data: { double: 8 } });
    expect((await api("GET", "/api/apps/shop")).body.app.status).toBe("running");
  });

  it("never runs an app's functions for another app's namespace or the galaxy", async () => {
    const before = (await waitForLambdaActivity("shop", 8)).length;
    // The other app's namespace has the same schema: its lambdas go to its own app, which maps none.
    const other = await graphql(
      "other",
      '{ queryProduct(filter: { name: { eq: "box" } }) { name shippingEstimate } }',
    );
    expect(other.data).toEqual({ queryProduct: [{ name: "box", shippingEstimate: null }] });
    expect(other.errors[0].message).toMatch(/^app other serves no lambda Product\.shippingEstimate/);

    // The operator's galaxy, over the database's own /graphql: no app owns it.
    const password = (await readFile(platform.graphdb.grootPasswordFile, "utf8")).trim();
    const login = await fetch(`${platform.graphdb.httpUrl}/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userid: "groot", password, namespace: 0 }),
    });
    const token = ((await login.json()) as Json).data.accessJWT as string;
    const headers = { "x-dgraph-accesstoken": token };
    const schema = await fetch(`${platform.graphdb.httpUrl}/admin/schema`, {
      method: "POST",
      headers,
      body: SCHEMA,
    });
    expect(schema.status).toBe(200);
    const galaxy = (await (
      await fetch(`${platform.graphdb.httpUrl}/graphql`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ query: "{ double(n: 1) }" }),
      })
    ).json()) as Json;
    expect(galaxy.data).toEqual({ double: null });
    expect(galaxy.errors[0].message).toBe(
      "@lambda Query.double: namespace 0 belongs to no app, so no app's functions serve its lambda fields; set the schema in an app's namespace (the app's Graph tab)",
    );

    await new Promise((r) => setTimeout(r, 500));
    expect((await lambdaActivity("shop")).length).toBe(before);
    expect(await lambdaActivity("other")).toEqual([]);
  });
});
