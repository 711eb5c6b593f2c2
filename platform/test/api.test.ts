import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** The control-plane HTTP API as the console and the deploy clients use it, on both metadata engines. */
describe.each([
  ["PGlite", false],
  ["PostgreSQL", true],
])("control-plane API (%s)", (_engine, postgres) => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ postgres });
  });
  afterAll(() => t?.close());

  it("requires the admin token", async () => {
    expect((await t.api("GET", "/api/session")).body).toEqual({ ok: true });
    const wrong = await t.api("GET", "/api/session", undefined, "nope");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("UNAUTHORIZED");
    const missing = await fetch(`${t.platform.url}/api/apps`);
    expect(missing.status).toBe(401);
  });

  it("creates, lists, shows and deletes apps", async () => {
    const created = await t.api("POST", "/api/apps", { name: "shop" });
    expect(created.status).toBe(201);
    expect(created.body.deployToken).toMatch(/^trd_[A-Za-z0-9_-]{43}$/);
    expect(created.body.app).toMatchObject({
      name: "shop",
      url: `${t.platform.url}/apps/shop/graphql`,
      status: "not-deployed",
      activeDeploymentId: null,
      lastRequestAt: null,
      functions: [],
    });
    expect((await t.api("POST", "/api/apps", { name: "shop" })).body.error.code).toBe("CONFLICT");
    expect((await t.api("POST", "/api/apps", { name: "Bad_Name" })).status).toBe(400);
    expect((await t.api("GET", "/api/apps")).body.apps.map((a: { name: string }) => a.name)).toContain(
      "shop",
    );
    expect((await t.api("GET", "/api/apps/shop")).body.app.name).toBe("shop");
    expect((await t.api("DELETE", "/api/apps/shop")).status).toBe(204);
    const gone = await t.api("GET", "/api/apps/shop");
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps env vars masked and lists the manifest's required variables", async () => {
    await t.deployedApp("envy");
    const put = await t.api("PUT", "/api/apps/envy/env/TRELLIS_API_API_KEY", { value: "sk-secret-1234" });
    expect(put.body.var).toMatchObject({ name: "TRELLIS_API_API_KEY", maskedValue: "••••••34" });
    await t.api("PUT", "/api/apps/envy/env/SHORT", { value: "abc" });
    expect((await t.api("PUT", "/api/apps/envy/env/bad-name", { value: "x" })).status).toBe(400);
    const env = await t.api("GET", "/api/apps/envy/env");
    expect(JSON.stringify(env.body)).not.toContain("sk-secret-1234");
    expect(env.body.vars).toEqual([
      { name: "SHORT", maskedValue: "••••••", updatedAt: expect.any(String) },
      { name: "TRELLIS_API_API_KEY", maskedValue: "••••••34", updatedAt: expect.any(String) },
    ]);
    expect(env.body.required).toEqual([
      { variable: "TRELLIS_API_API_KEY", connection: "api", placeholder: "API_KEY", set: true },
      { variable: "TRELLIS_DB_DATABASE_URL", connection: "db", placeholder: "DATABASE_URL", set: false },
    ]);
    expect((await t.api("DELETE", "/api/apps/envy/env/SHORT")).status).toBe(204);
    expect((await t.api("DELETE", "/api/apps/envy/env/SHORT")).status).toBe(404);
  });

  it("shows an API key once, stores only its prefix and revokes it", async () => {
    await t.api("POST", "/api/apps", { name: "keys" });
    const created = await t.api("POST", "/api/apps/keys/keys", { name: "ci" });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^trk_/);
    expect(created.body.key).toMatchObject({
      name: "ci",
      prefix: created.body.secret.slice(0, 8),
      revokedAt: null,
    });
    const listed = await t.api("GET", "/api/apps/keys/keys");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    expect((await t.api("DELETE", `/api/apps/keys/keys/${created.body.key.id}`)).status).toBe(204);
    const after = await t.api("GET", "/api/apps/keys/keys");
    expect(after.body.keys[0].revokedAt).toEqual(expect.any(String));
    expect((await t.api("DELETE", "/api/apps/keys/keys/nope")).status).toBe(404);
  });

  it("accepts the app's deploy token for uploads only, and rotates it", async () => {
    const { body } = await t.api("POST", "/api/apps", { name: "tokens" });
    const archive = await t.archive();
    expect((await t.deploy("tokens", archive, "trd_wrong")).status).toBe(401);
    // A deploy token of one app is no admin token, nor another app's deploy token.
    expect((await t.api("GET", "/api/apps/tokens", undefined, body.deployToken)).status).toBe(401);
    const first = await t.deploy("tokens", archive, body.deployToken);
    expect(first.status).toBe(201);
    expect(first.body.deployment).toMatchObject({
      status: "active",
      source: "api",
      functions: ["apiKey", "fail", "hello", "version"],
    });
    const rotated = await t.api("POST", "/api/apps/tokens/deploy-token");
    expect(rotated.body.deployToken).not.toBe(body.deployToken);
    expect((await t.deploy("tokens", archive, body.deployToken)).status).toBe(401);
    expect((await t.deploy("tokens", archive, rotated.body.deployToken)).status).toBe(201);
    const app = await t.api("GET", "/api/apps/tokens");
    expect(app.body.app).toMatchObject({ status: "idle", functions: ["apiKey", "fail", "hello", "version"] });
  });

  it("pages and filters the activity of an app", async () => {
    const { apiKey } = await t.deployedApp("busy");
    for (let i = 0; i < 5; i++) await t.gql("busy", `{ hello(name: "n${i}") }`, apiKey);
    for (let i = 0; i < 2; i++) await t.gql("busy", "{ fail }", apiKey);
    await expect
      .poll(async () => (await t.api("GET", "/api/apps/busy/activity")).body.executions.length)
      .toBe(7);
    const page1 = await t.api("GET", "/api/apps/busy/activity?limit=3");
    expect(page1.body.executions).toHaveLength(3);
    expect(page1.body.executions[0].function).toBe("fail");
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await t.api("GET", `/api/apps/busy/activity?limit=3&before=${page1.body.nextCursor}`);
    const page3 = await t.api("GET", `/api/apps/busy/activity?limit=3&before=${page2.body.nextCursor}`);
    expect(page3.body.executions).toHaveLength(1);
    expect(page3.body.nextCursor).toBeNull();
    const ids = [...page1.body.executions, ...page2.body.executions, ...page3.body.executions].map(
      (e) => e.executionId,
    );
    expect(new Set(ids).size).toBe(7);
    const errors = await t.api("GET", "/api/apps/busy/activity?status=error");
    expect(errors.body.executions).toHaveLength(2);
    expect(errors.body.executions[0]).toMatchObject({
      function: "fail",
      status: "error",
      error: "this function always fails",
    });
    const hellos = await t.api("GET", "/api/apps/busy/activity?function=hello&limit=50");
    expect(hellos.body.executions).toHaveLength(5);
    expect(hellos.body.executions[0]).toMatchObject({
      status: "success",
      error: null,
      logs: [{ level: "info", message: "greeting n4" }],
      durationMs: expect.any(Number),
      startedAt: expect.any(String),
    });
    expect((await t.api("GET", "/api/apps/busy/activity?status=maybe")).status).toBe(400);
    expect((await t.api("GET", "/api/apps/busy/activity?before=garbage")).status).toBe(400);
  });
});
