import { describe, expect, it } from "vitest";
import { createHostDispatcher } from "../../src/capabilities/host-dispatcher.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";
import { appMemoryPool, RequestMemory, totalMemoryPool } from "../../src/memory/memory-budget.ts";

const MiB = 1024 * 1024;

/** Host answers handed to a guest count towards its request's memory bound (the dispatcher charges them). */
describe("host answers and the request's memory bound", () => {
  it("charges each answer, refuses the one that passes the bound and every host call after it", async () => {
    const host = createHostDispatcher({
      manifest: parseManifest("{}"),
      env: { TRELLIS_APP_BIG: "x".repeat(MiB), TRELLIS_APP_SMALL: "s" },
    });
    const memory = new RequestMemory(appMemoryPool("shop", totalMemoryPool()), 2.5 * MiB);
    const ctx = { executionId: "e", functionName: "read-big", memory };
    expect(await host.appSecret(ctx, "BIG")).toHaveLength(MiB);
    expect(await host.appSecret(ctx, "BIG")).toHaveLength(MiB);
    expect(memory.charged).toBeGreaterThan(2 * MiB);
    await expect(host.appSecret(ctx, "BIG")).rejects.toThrow(
      /^this request's function results and host answers would pass 2\.5 MiB, the limit per request \(--max-request-memory or TRELLIS_MAX_REQUEST_MEMORY\), with the answer of app-secret/,
    );
    await expect(host.appSecret(ctx, "SMALL")).rejects.toThrow(/limit per request/);
    // Another request is not affected.
    const other = {
      executionId: "f",
      functionName: "read-small",
      memory: new RequestMemory(appMemoryPool("shop", totalMemoryPool())),
    };
    expect(await host.appSecret(other, "SMALL")).toBe("s");
    await host.close();
  });
});
