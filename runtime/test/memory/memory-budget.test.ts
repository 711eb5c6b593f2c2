import { describe, expect, it } from "vitest";
import {
  appMemoryPool,
  MemoryBoundError,
  memoryLimitsFromEnv,
  RequestMemory,
  size,
  totalMemoryPool,
} from "../../src/memory/memory-budget.ts";

const MiB = 1024 * 1024;

describe("memory bounds of requests", () => {
  it("refuses a request's charge past its bound, and every later one, naming the limit and its setting", () => {
    const request = new RequestMemory(appMemoryPool("shop", totalMemoryPool(1024 * MiB)), 32 * MiB);
    request.charge(15 * MiB, "the result of get-huge");
    request.charge(15 * MiB, "the result of get-huge");
    expect(() => request.charge(15 * MiB, "the result of get-huge")).toThrow(
      new MemoryBoundError(
        "this request's function results and host answers would pass 32 MiB, the limit per request " +
          "(--max-request-memory or TRELLIS_MAX_REQUEST_MEMORY), with the result of get-huge (15 MiB); " +
          "ask for less in one request, or split it into several",
      ),
    );
    expect(request.charged).toBe(30 * MiB);
    expect(request.refusal()).toMatch(/^this request's function results/);
    expect(() => request.charge(1, "the answer of http-fetch")).toThrow(/limit per request/);
  });

  it("holds an app's requests together to the app's bound, and all apps to the total", () => {
    const total = totalMemoryPool(100 * MiB);
    const shop = appMemoryPool("shop", total, 60 * MiB);
    const blog = appMemoryPool("blog", total, 60 * MiB);
    const first = new RequestMemory(shop, 32 * MiB);
    const second = new RequestMemory(shop, 32 * MiB);
    first.charge(30 * MiB, "a result");
    second.charge(30 * MiB, "a result");
    expect(shop.fullReason()).toBe(
      `app "shop"'s requests in flight hold 60 MiB, the limit per app (--max-app-memory or ` +
        "TRELLIS_MAX_APP_MEMORY); try again when they have finished, or ask for less per request",
    );
    expect(() => new RequestMemory(shop, 32 * MiB).charge(1, "a result")).toThrow(/limit per app/);
    const third = new RequestMemory(blog, 32 * MiB);
    third.charge(30 * MiB, "a result");
    expect(() => new RequestMemory(blog, 32 * MiB).charge(20 * MiB, "a result")).toThrow(
      "the requests in flight on this server hold 100 MiB, the limit for all apps together " +
        "(--max-total-memory or TRELLIS_MAX_TOTAL_MEMORY); try again in a moment",
    );
    expect(total.held).toBe(90 * MiB);
    first.release();
    second.release();
    expect(shop.held).toBe(0);
    expect(total.held).toBe(30 * MiB);
    expect(shop.fullReason()).toBeUndefined();
    expect(() => first.charge(1, "a late answer")).toThrow(/already been answered/);
  });

  it("reads its bounds from the environment, and refuses what is no byte count", () => {
    expect(memoryLimitsFromEnv({ TRELLIS_MAX_REQUEST_MEMORY: "1048576" }).requestBytes).toBe(MiB);
    expect(memoryLimitsFromEnv({}).appBytes).toBe(128 * MiB);
    expect(() => memoryLimitsFromEnv({ TRELLIS_MAX_APP_MEMORY: "64MB" })).toThrow(
      'TRELLIS_MAX_APP_MEMORY must be a number of bytes greater than 0, got "64MB"',
    );
    expect(size(1536 * MiB)).toBe("1.5 GiB");
  });
});
