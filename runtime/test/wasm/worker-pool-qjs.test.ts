import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FunctionInvoker } from "../../src/wasm/function-invoker.ts";
import { createWorkerPool } from "../../src/wasm/worker-pool.ts";
import { readAppWorld } from "../../src/wit/wit-parser.ts";
import type { AppWorld } from "../../src/wit/wit-types.ts";
import { LoopbackHost } from "../fixtures/wasm/loopback-host.ts";
import { buildQuickJsGuest } from "../fixtures/wasm/qjs-guest.ts";
import { transpileToTemp } from "../fixtures/wasm/transpiled-fixture.ts";

/** A QuickJS (componentize-qjs) guest: needs extended-const on Node 20, calls host functions. */
describe("worker pool with a QuickJS guest", () => {
  const host = new LoopbackHost();
  let world: AppWorld;
  let dir: string;
  let pool: FunctionInvoker;
  const call = (name: string, args: unknown[] = []) => pool.invoke(name, args, { executionId: "q" });

  beforeAll(async () => {
    await host.start({ token: "t0k3n" });
    const component = await buildQuickJsGuest();
    world = await readAppWorld(component);
    dir = await transpileToTemp(component);
    pool = await createWorkerPool({
      transpiledDir: dir,
      host,
      world,
      workers: 2,
      timeoutMs: 1500,
      memoryLimitMb: 64,
    });
  });
  afterAll(async () => {
    await pool?.close();
    await host.stop();
  });

  it("hides the QuickJS init export from the app model", () => {
    expect(world.functions.map((f) => f.name)).not.toContain("init");
    expect(world.functions[0].name).toBe("echo-item");
  });

  it("round-trips records, numeric lists, tuples, enums, options, results and u64", async () => {
    const item = { id: 7, title: "hi", tags: ["a", "b"], scores: [1.5, 2], rating: undefined };
    expect(await call("echo-item", [item])).toMatchObject({
      ok: true,
      value: { id: 7, title: "hi!", tags: ["a", "b"], scores: [3, 4], rating: undefined },
      logs: [{ level: "debug", message: "echo 7" }],
    });
    expect((await call("echo-item", [{ ...item, rating: 4.5 }])).value).toMatchObject({ rating: 4.5 });
    expect((await call("swap", [["s", 5n]])).value).toEqual([5n, "s"]);
    expect((await call("next-color", ["blue"])).value).toBe("red");
    expect((await call("maybe-upper", ["x"])).value).toBe("X");
    expect(await call("maybe-upper", [undefined])).toMatchObject({ ok: true, value: undefined });
    expect(await call("check", [true])).toMatchObject({ ok: true, value: undefined });
    expect(await call("check", [false])).toMatchObject({ ok: false, error: { kind: "function-error" } });
    expect(await call("fail", ["why"])).toMatchObject({
      ok: false,
      error: { kind: "function-error", message: "failed: why" },
    });
    expect((await call("big", [2n ** 40n])).value).toBe(2n ** 40n + 1n);
  });

  it("makes a real loopback HTTP request through httpFetch", async () => {
    const outcome = await call("fetch-status", [`${host.baseUrl}/hello`]);
    expect(outcome).toMatchObject({ ok: true, value: "200 OK path /hello x-test=1" });
    expect(outcome.logs).toContainEqual({ level: "info", message: `fetching ${host.baseUrl}/hello` });
    expect(await call("read-secret", ["token"])).toMatchObject({ ok: true, value: "t0k3n" });
    expect(await call("read-secret", ["other"])).toMatchObject({
      ok: false,
      error: { kind: "function-error", message: "no secret other" },
    });
  });

  it("turns an uncaught JS exception into a trap explained by the guest's stderr", async () => {
    const outcome = await call("throw-error");
    expect(outcome).toMatchObject({ ok: false, error: { kind: "trap" } });
    expect(outcome.error?.message).toMatch(/boom from js/);
    expect(outcome.logs.some((l) => l.level === "warning" && l.message.includes("boom from js"))).toBe(true);
  });

  it("reports an allocation past the memory limit as out-of-memory and keeps serving", async () => {
    expect((await call("allocate", [4])).value).toBe(4);
    const outcome = await call("allocate", [200]);
    expect(outcome).toMatchObject({ ok: false, error: { kind: "out-of-memory" } });
    expect((await call("next-color", ["red"])).value).toBe("green");
  });

  it("times out a JS infinite loop and replaces the worker", async () => {
    const outcome = await call("loop-forever");
    expect(outcome).toMatchObject({ ok: false, error: { kind: "timeout" } });
    expect((await call("counter")).ok).toBe(true);
  });
});
