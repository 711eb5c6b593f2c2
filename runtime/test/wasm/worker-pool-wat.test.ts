import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkerPool, type WorkerPoolInvoker } from "../../src/wasm/worker-pool.ts";
import { readAppWorld } from "../../src/wit/wit-parser.ts";
import type { AppWorld } from "../../src/wit/wit-types.ts";
import { LoopbackHost } from "../fixtures/wasm/loopback-host.ts";
import { transpileToTemp } from "../fixtures/wasm/transpiled-fixture.ts";
import { buildWatGuest } from "../fixtures/wasm/wat-guest.ts";

/** The TinyGo-shaped WAT guest (WASI 0.2.0 imports, canonical ABI) through the same loader as any app. */
describe("worker pool with a TinyGo-shaped WAT guest", () => {
  const host = new LoopbackHost();
  let world: AppWorld;
  let dir: string;
  let pool: WorkerPoolInvoker;
  const call = (name: string, args: unknown[] = [], executionId = "x") =>
    pool.invoke(name, args, { executionId });

  beforeAll(async () => {
    await host.start({ db: "s3cret" }, 20);
    const component = await buildWatGuest();
    world = await readAppWorld(component);
    dir = await transpileToTemp(component);
    pool = await createWorkerPool({
      transpiledDir: dir,
      host,
      world,
      workers: 2,
      timeoutMs: 800,
      memoryLimitMb: 32,
    });
  });
  afterAll(async () => {
    await pool?.close();
    await host.stop();
  });

  it("derives the app model from the component's own WIT", () => {
    expect(world.functions.map((f) => f.name)).toContain("make-person");
    expect(world.types.get("person")?.kind).toBe("record");
  });

  it("round-trips strings, records, options, lists and 64-bit integers", async () => {
    expect((await call("greet", ["wasm ✓"])).value).toBe("hello, wasm ✓");
    expect((await call("add", [40, 2])).value).toBe(42);
    expect((await call("make-person", ["ann", 30])).value).toEqual({
      name: "ann",
      age: 30,
      tags: ["ann", "x"],
      nickname: "x",
    });
    expect((await call("make-person", ["old", 120])).value).toMatchObject({ nickname: undefined });
    expect((await call("find", [1])).value).toBe("one");
    expect(await call("find", [2])).toMatchObject({ ok: true, value: undefined });
    expect((await call("sum", [[1, 2, 3, -10]])).value).toBe(-4n);
    expect((await call("clock-works")).value).toBe(true);
  });

  it("serves host calls from the real async HostCalls with the call's context, and keeps logs", async () => {
    const ok = await call("secret", ["db"], "exec-1");
    expect(ok).toMatchObject({
      ok: true,
      value: "s3cret",
      logs: [{ level: "info", message: "secret requested" }],
    });
    const context = host.contexts.at(-1);
    expect(context).toMatchObject({ executionId: "exec-1", functionName: "secret" });
    // When the call's time runs out: host calls made for it need not outlive it.
    expect(context?.deadline).toBeGreaterThan(Date.now());
    expect(context?.deadline).toBeLessThanOrEqual(Date.now() + 800);
    const err = await call("secret", ["missing"]);
    expect(err).toMatchObject({ ok: false, error: { kind: "function-error", message: "no secret missing" } });
  });

  it("answers a trap as a trap and gives the next call a fresh instance", async () => {
    await call("calls");
    const trapped = await call("crash");
    expect(trapped).toMatchObject({ ok: false, error: { kind: "trap" } });
    expect(trapped.error?.message).toMatch(/unreachable/);
    const after = await Promise.all([call("calls"), call("calls")]);
    expect(after.every((o) => o.ok)).toBe(true);
    expect(after.map((o) => o.value)).toContain(1);
  });

  it("times out an infinite loop within the limit while a call on the other worker succeeds", async () => {
    const started = performance.now();
    const [spin, secret] = await Promise.all([call("spin"), call("secret", ["db"])]);
    expect(spin).toMatchObject({
      ok: false,
      error: { kind: "timeout", message: "spin exceeded the 800 ms timeout" },
    });
    expect(performance.now() - started).toBeLessThan(800 + 700);
    expect(secret).toMatchObject({ ok: true, value: "s3cret" });
    expect((await call("add", [1, 1])).value).toBe(2);
  });

  it("stops a guest growing memory without bound at the memory limit and keeps serving", async () => {
    const hog = await call("hog");
    expect(hog).toMatchObject({ ok: false, error: { kind: "out-of-memory" } });
    expect(hog.error?.message).toMatch(/32 MB memory limit/);
    expect((await call("greet", ["again"])).value).toBe("hello, again");
  });

  it("never runs two calls on one instance at a time", async () => {
    host.maxInFlight = 0;
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => call("secret", ["db"], `c${i}`)));
    expect(outcomes.every((o) => o.ok && o.value === "s3cret")).toBe(true);
    // Each host call blocks its worker: at most one per worker (2) can be waiting at once.
    expect(host.maxInFlight).toBeLessThanOrEqual(2);
    expect(host.maxInFlight).toBeGreaterThan(0);
  });

  it("starts again after unload (scale to zero, cold start on the next call)", async () => {
    await pool.unload();
    const cold = await call("add", [2, 3]);
    expect(cold).toMatchObject({ ok: true, value: 5 });
    expect(cold.durationMs).toBeGreaterThan(0);
  });

  it("never starts more workers than its size, even for hundreds of calls on a cold pool", async () => {
    await pool.unload();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, pool.stats().workers);
    }, 1);
    const calls = Array.from({ length: 200 }, (_, i) => call("add", [i, 1]));
    const watcher = (async () => {
      while (pool.stats().queued > 0) {
        peak = Math.max(peak, pool.stats().workers);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const outcomes = await Promise.all(calls);
    await watcher;
    clearInterval(sampler);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(peak).toBeLessThanOrEqual(2);
    expect(pool.stats().workers).toBeLessThanOrEqual(2);
  });

  it("refuses calls beyond its queue bound with RESOURCE_EXHAUSTED, and serves the rest", async () => {
    const small = await createWorkerPool({
      transpiledDir: dir,
      host,
      world,
      workers: 1,
      maxQueue: 5,
      timeoutMs: 2000,
    });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => small.invoke("add", [i, 1], { executionId: "q" })),
      );
      const refused = outcomes.filter((o) => o.error?.kind === "resource-exhausted");
      expect(refused.length).toBeGreaterThanOrEqual(14);
      expect(refused[0]?.error?.message).toMatch(/too many calls waiting for this app \(5, the limit\)/);
      expect(outcomes.filter((o) => o.ok).length).toBe(20 - refused.length);
    } finally {
      await small.close();
    }
  });

  it("refuses unknown functions clearly", async () => {
    expect(await call("nope")).toMatchObject({
      ok: false,
      error: { kind: "internal", message: "the app has no function nope" },
    });
  });
});
