import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFromHost } from "../src/gateway/app-host.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** POST with a chosen Host header (fetch does not let one set it). */
function postWithHost(url: string, host: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: Json }>((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers: { ...headers, host } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("app gateway", () => {
  let t: TestPlatform;
  let apiKey: string;
  let keyId: string;
  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true });
    ({ apiKey, keyId } = await t.deployedApp("shop"));
  });
  afterAll(() => t?.close());

  it("answers with a valid API key", async () => {
    const res = await t.gql("shop", '{ hello(name: "Ada") }', apiKey);
    expect(res).toEqual({ status: 200, body: { data: { hello: "Hello, Ada!" } } });
  });

  it("rejects a missing, wrong or revoked API key with a GraphQL-shaped 401", async () => {
    const missing = await t.gql("shop", "{ version }");
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(missing.body.errors[0].message).toContain("missing API key");
    const wrong = await t.gql("shop", "{ version }", `${apiKey.slice(0, -2)}xx`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      errors: [{ message: "invalid or revoked API key", extensions: { code: "UNAUTHENTICATED" } }],
    });
    // A key of another app does not open this one.
    const other = await t.deployedApp("other");
    expect((await t.gql("shop", "{ version }", other.apiKey)).status).toBe(401);

    const spare = await t.api("POST", "/api/apps/shop/keys", { name: "spare" });
    expect((await t.gql("shop", "{ version }", spare.body.secret)).status).toBe(200);
    await t.api("DELETE", `/api/apps/shop/keys/${spare.body.key.id}`);
    const revoked = await t.gql("shop", "{ version }", spare.body.secret);
    expect(revoked.status).toBe(401);
    expect(revoked.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("routes <app>.localhost/graphql to the app", async () => {
    const port = new URL(t.platform.url).port;
    const res = await postWithHost(
      `${t.platform.url}/graphql`,
      `shop.localhost:${port}`,
      '{"query":"{ version }"}',
      {
        "content-type": "application/json",
        authorization: `Bearer ${apiKey}`,
      },
    );
    expect(res).toEqual({ status: 200, body: { data: { version: "v1" } } });
    const noKey = await postWithHost(`${t.platform.url}/graphql`, `shop.localhost:${port}`, "{}", {
      "content-type": "application/json",
    });
    expect(noKey.status).toBe(401);
    expect(appFromHost("my-app.localhost:8787", "localhost")).toBe("my-app");
    expect(appFromHost("localhost:8787", "localhost")).toBeUndefined();
    expect(appFromHost("a.b.localhost", "localhost")).toBeUndefined();
  });

  it("gives the app its env vars and reloads it when they change", async () => {
    expect((await t.gql("shop", "{ apiKey }", apiKey)).body.data.apiKey).toBeNull();
    await t.api("PUT", "/api/apps/shop/env/TRELLIS_API_API_KEY", { value: "sk-first" });
    expect((await t.gql("shop", "{ apiKey }", apiKey)).body.data.apiKey).toBe("sk-first");
    await t.api("PUT", "/api/apps/shop/env/TRELLIS_API_API_KEY", { value: "sk-second" });
    expect((await t.gql("shop", "{ apiKey }", apiKey)).body.data.apiKey).toBe("sk-second");
    await t.api("DELETE", "/api/apps/shop/env/TRELLIS_API_API_KEY");
    expect((await t.gql("shop", "{ apiKey }", apiKey)).body.data.apiKey).toBeNull();
  });

  it("records when a key was last used, and reports unknown or undeployed apps", async () => {
    const keys = await t.api("GET", "/api/apps/shop/keys");
    expect(keys.body.keys.find((k: { id: string }) => k.id === keyId).lastUsedAt).toEqual(expect.any(String));
    expect((await t.gql("nope", "{ version }", apiKey)).status).toBe(404);
    await t.api("POST", "/api/apps", { name: "empty" });
    const key = await t.api("POST", "/api/apps/empty/keys", { name: "k" });
    const res = await t.gql("empty", "{ version }", key.body.secret);
    expect(res.status).toBe(503);
    expect(res.body.errors[0].message).toContain("no deployment yet");
  });

  it("counts gateway requests by app and status in /metrics", async () => {
    const text = (await t.metrics()).text;
    expect(text).toMatch(/trellis_platform_gateway_requests_total\{app="shop",status="200"\} [1-9]/);
    expect(text).toMatch(/trellis_platform_gateway_requests_total\{app="shop",status="401"\} [1-9]/);
  });
});
