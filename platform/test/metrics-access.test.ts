import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlatformArgs } from "../src/cli-args.ts";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** /metrics names every app and its traffic: admin token on the main port, or a separate local listener. */
describe("metrics access", () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ metrics: { port: 0 } });
  });
  afterAll(() => t?.close());

  it("refuses /metrics on the main port without the admin token", async () => {
    const anonymous = await t.metrics("");
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).error.message).toMatch(/Authorization: Bearer <admin token>/);
    expect((await t.metrics("not-the-admin-token")).status).toBe(401);
  });

  it("serves /metrics on the main port with the admin token", async () => {
    const res = await t.metrics();
    expect(res.status).toBe(200);
    expect(res.text).toContain("trellis_platform_loaded_apps");
  });

  it("keeps /health public", async () => {
    const res = await fetch(`${t.platform.url}/health`);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("serves /metrics without a token on the metrics listener, on 127.0.0.1 by default", async () => {
    expect(t.platform.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(t.platform.metricsUrl).port).not.toBe(new URL(t.platform.url).port);
    const res = await fetch(t.platform.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toContain("trellis_platform_loaded_apps");
    expect((await fetch(new URL("/api/apps", t.platform.metricsUrl))).status).toBe(404);
  });

  it("reads --metrics-port, --metrics-host and --trust-proxy", () => {
    expect(parsePlatformArgs([], {})).toMatchObject({ metrics: undefined, trustProxy: undefined });
    expect(parsePlatformArgs(["--metrics-port", "9464"], {})).toMatchObject({
      metrics: { port: 9464, host: "127.0.0.1" },
    });
    expect(
      parsePlatformArgs([], {
        TRELLIS_METRICS_PORT: "9464",
        TRELLIS_METRICS_HOST: "10.0.0.5",
        TRELLIS_TRUST_PROXY: "loopback",
      }),
    ).toMatchObject({ metrics: { port: 9464, host: "10.0.0.5" }, trustProxy: "loopback" });
    expect(() => parsePlatformArgs(["--metrics-host", "0.0.0.0"], {})).toThrow(/needs --metrics-port/);
  });
});
