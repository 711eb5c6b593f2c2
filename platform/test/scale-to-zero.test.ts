import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const metric = async (t: TestPlatform, pattern: RegExp) => {
  const { text } = await t.metrics();
  return Number(pattern.exec(text)?.[1] ?? 0);
};

describe("scale to zero", () => {
  let t: TestPlatform;
  let apiKey: string;
  const status = async () => (await t.api("GET", "/api/apps/shop")).body.app;

  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true, idleMs: 400, idleSweepMs: 50 });
    ({ apiKey } = await t.deployedApp("shop"));
  });
  afterAll(() => t?.close());

  it("loads an app on its first request, unloads it when idle and cold-starts it again", async () => {
    expect(t.runtime.loads).toBe(0);
    expect((await status()).status).toBe("idle");

    expect((await t.gql("shop", "{ version }", apiKey)).status).toBe(200);
    expect(t.runtime.loads).toBe(1);
    const running = await status();
    expect(running.status).toBe("running");
    expect(running.lastRequestAt).toEqual(expect.any(String));
    expect(await metric(t, /trellis_platform_loaded_apps (\d+)/)).toBe(1);

    // Requests keep it warm.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 150));
      await t.gql("shop", "{ version }", apiKey);
    }
    expect(t.runtime.unloads).toBe(0);

    await expect.poll(() => t.runtime.unloads, { timeout: 3000, interval: 50 }).toBe(1);
    expect((await status()).status).toBe("idle");
    expect(await metric(t, /trellis_platform_loaded_apps (\d+)/)).toBe(0);
    expect(await metric(t, /trellis_platform_app_unloads_total\{app="shop",reason="idle"\} (\d+)/)).toBe(1);

    const cold = await t.gql("shop", '{ hello(name: "again") }', apiKey);
    expect(cold.body.data.hello).toBe("Hello, again!");
    expect(t.runtime.loads).toBe(2);
    expect(await metric(t, /trellis_platform_app_cold_starts_total\{app="shop"\} (\d+)/)).toBe(2);
  });
});
