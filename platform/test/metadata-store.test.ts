import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutionRecord } from "../src/app-runtime.ts";
import { EnvCipher } from "../src/secrets/env-cipher.ts";
import { MetadataStore } from "../src/store/metadata-store.ts";
import { openPgliteDb } from "../src/store/pglite-db.ts";
import { openPostgresDb } from "../src/store/postgres-db.ts";
import type { SqlDb } from "../src/store/sql-db.ts";
import { PG_URL } from "./support/test-platform.ts";

interface Engine {
  open(): Promise<SqlDb>;
  cleanup(): Promise<void>;
}

const pglite = (): Engine => {
  let dir = "";
  return {
    async open() {
      dir ||= await mkdtemp(join(tmpdir(), "trellis-store-"));
      return openPgliteDb(join(dir, "metadata"));
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
};

const postgres = (): Engine => {
  const schema = `trellis_store_${randomBytes(6).toString("hex")}`;
  return {
    open: () => openPostgresDb(PG_URL, { schema }),
    async cleanup() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
};

const execution = (
  id: string,
  startedAt: string,
  fields: Partial<ExecutionRecord> = {},
): ExecutionRecord => ({
  executionId: id,
  function: "hello",
  status: "success",
  durationMs: 1.5,
  startedAt,
  logs: [{ level: "info", message: `run ${id}` }],
  ...fields,
});

/** The metadata store's behaviour, identical on the embedded and the shared engine. */
describe.each([
  ["PGlite", pglite],
  ["PostgreSQL", postgres],
])("metadata store on %s", (_name, makeEngine) => {
  const engine = makeEngine();
  const cipher = new EnvCipher(randomBytes(32));
  let store: MetadataStore;
  beforeAll(async () => {
    store = await MetadataStore.open(await engine.open(), cipher);
  });
  afterAll(async () => {
    await store?.close();
    await engine.cleanup();
  });

  it("migrates idempotently: reopening keeps the data", async () => {
    await store.createApp("persisted");
    await store.close();
    store = await MetadataStore.open(await engine.open(), cipher);
    expect((await store.getApp("persisted"))?.name).toBe("persisted");
  });

  it("creates apps with unique DNS-label names and deletes them with everything they own", async () => {
    const { app, deployToken } = await store.createApp("app-one");
    expect(app).toEqual({ name: "app-one", createdAt: expect.any(String), activeDeploymentId: null });
    await expect(store.createApp("app-one")).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(store.createApp("-bad")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await store.verifyDeployToken("app-one", deployToken)).toBe(true);
    await store.createApiKey("app-one", "k");
    await store.setEnvVar("app-one", "X", "y");
    expect(await store.deleteApp("app-one")).toBe(true);
    expect(await store.deleteApp("app-one")).toBe(false);
    expect(await store.listApiKeys("app-one")).toEqual([]);
    expect(await store.listEnvVars("app-one")).toEqual([]);
  });

  it("verifies and rotates deploy tokens", async () => {
    const { deployToken } = await store.createApp("tok");
    expect(await store.verifyDeployToken("tok", "trd_wrong")).toBe(false);
    expect(await store.verifyDeployToken("nope", deployToken)).toBe(false);
    const next = await store.rotateDeployToken("tok");
    expect(await store.verifyDeployToken("tok", deployToken)).toBe(false);
    expect(await store.verifyDeployToken("tok", next)).toBe(true);
  });

  it("finds an API key by its secret until it is revoked, only for its own app", async () => {
    await store.createApp("keyed");
    await store.createApp("elsewhere");
    const { key, secret } = await store.createApiKey("keyed", "ci");
    expect(key.prefix).toBe(secret.slice(0, 8));
    expect((await store.findActiveApiKey("keyed", secret))?.id).toBe(key.id);
    expect(await store.findActiveApiKey("elsewhere", secret)).toBeUndefined();
    expect(await store.findActiveApiKey("keyed", `${secret}x`)).toBeUndefined();
    await store.touchApiKey(key.id);
    expect((await store.listApiKeys("keyed"))[0].lastUsedAt).toEqual(expect.any(String));
    expect(await store.revokeApiKey("keyed", key.id)).toBe(true);
    expect(await store.revokeApiKey("elsewhere", key.id)).toBe(false);
    expect(await store.findActiveApiKey("keyed", secret)).toBeUndefined();
  });

  it("seals env vars per app and name, and opens them back", async () => {
    await store.createApp("env");
    await store.setEnvVar("env", "TRELLIS_API_API_KEY", "first");
    await store.setEnvVar("env", "TRELLIS_API_API_KEY", "sk-😀-second");
    await store.setEnvVar("env", "A", "");
    expect(await store.envFor("env")).toEqual({ A: "", TRELLIS_API_API_KEY: "sk-😀-second" });
    await expect(store.setEnvVar("env", "lower", "x")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await store.deleteEnvVar("env", "A")).toBe(true);
    expect(await store.deleteEnvVar("env", "A")).toBe(false);
    // Under another master key the values do not open (one open store at a time: PGlite is single-process).
    await store.close();
    const other = await MetadataStore.open(await engine.open(), new EnvCipher(randomBytes(32)));
    await expect(other.listEnvVars("env")).rejects.toThrow(/master key/);
    await other.close();
    store = await MetadataStore.open(await engine.open(), cipher);
  });

  it("switches the active deployment in one step and prunes old ones", async () => {
    await store.createApp("dep");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = `d${i}`;
      ids.push(id);
      await store.addDeployment("dep", {
        id,
        status: "previous",
        source: "cli",
        message: null,
        functions: ["f"],
      });
      await store.activateDeployment("dep", id);
    }
    await store.addDeployment("dep", {
      id: "bad",
      status: "failed",
      source: "action",
      message: "nope",
      functions: [],
    });
    await expect(store.activateDeployment("dep", "bad")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(store.activateDeployment("dep", "missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const list = await store.listDeployments("dep");
    expect(list.map((d) => [d.id, d.status])).toEqual([
      ["bad", "failed"],
      ["d3", "active"],
      ["d2", "previous"],
      ["d1", "previous"],
      ["d0", "previous"],
    ]);
    expect((await store.getApp("dep"))?.activeDeploymentId).toBe("d3");
    await store.activateDeployment("dep", "d1");
    expect((await store.getApp("dep"))?.activeDeploymentId).toBe("d1");
    // Keep the newest 2 good ones, and the active d1 whatever its age.
    expect(await store.pruneDeployments("dep", 2)).toEqual(["d0"]);
    expect((await store.listDeployments("dep")).map((d) => d.id)).toEqual(["bad", "d3", "d2", "d1"]);
    expect(await store.pruneDeployments("dep", 1)).toEqual(["d2"]);
  });

  it("pages executions newest first with filters, and applies retention", async () => {
    await store.createApp("act");
    await store.createApp("quiet");
    const base = Date.now() - 60_000;
    for (let i = 0; i < 10; i++) {
      const at = new Date(base + Math.floor(i / 2) * 1000).toISOString(); // pairs share a timestamp
      await store.recordExecution(
        "act",
        execution(`e${i}`, at, i % 3 === 0 ? { status: "error", error: "boom", function: "fail" } : {}),
      );
    }
    await store.recordExecution("quiet", execution("q0", new Date(base).toISOString()));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listExecutions("act", { limit: 3, before: cursor });
      seen.push(...page.executions.map((e) => e.executionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1", "e0"]);
    const errors = await store.listExecutions("act", { status: "error" });
    expect(errors.executions.map((e) => e.executionId)).toEqual(["e9", "e6", "e3", "e0"]);
    expect(errors.executions[0]).toMatchObject({
      function: "fail",
      error: "boom",
      logs: [{ level: "info", message: "run e9" }],
    });
    expect((await store.listExecutions("act", { function: "hello" })).executions).toHaveLength(6);

    // The newest 4 per app survive a count limit; an age limit removes everything older.
    const noSizeLimit = Number.MAX_SAFE_INTEGER;
    expect(
      await store.pruneExecutions({ maxPerApp: 4, maxAgeMs: 3600_000, maxBytesPerApp: noSizeLimit }),
    ).toBe(6);
    expect((await store.listExecutions("act")).executions.map((e) => e.executionId)).toEqual([
      "e9",
      "e8",
      "e7",
      "e6",
    ]);
    expect((await store.listExecutions("quiet")).executions).toHaveLength(1);
    expect(await store.pruneExecutions({ maxPerApp: 100, maxAgeMs: 1000, maxBytesPerApp: noSizeLimit })).toBe(
      5,
    );
    expect((await store.listExecutions("act")).executions).toEqual([]);
  });

  it("keeps each app's activity within a byte budget, newest first, whatever the count", async () => {
    await store.createApp("chatty");
    const base = Date.now() - 10_000;
    const big = "x".repeat(100_000);
    for (let i = 0; i < 30; i++) {
      await store.recordExecution("chatty", {
        ...execution(`c${String(i).padStart(2, "0")}`, new Date(base + i).toISOString()),
        logs: [{ level: "info", message: big }],
      });
    }
    // ~100 KB each: a 1 MB budget keeps the newest 9 or so, never more.
    const before = (await store.listExecutions("act", { limit: 100 })).executions.length;
    const removed = await store.pruneExecutions({
      maxPerApp: 10_000,
      maxAgeMs: 3600_000,
      maxBytesPerApp: 1_000_000,
    });
    expect((await store.listExecutions("act", { limit: 100 })).executions.length).toBe(before);
    const kept = (await store.listExecutions("chatty", { limit: 100 })).executions.map((e) => e.executionId);
    expect(removed).toBe(30 - kept.length);
    expect(kept.length).toBeGreaterThanOrEqual(8);
    expect(kept.length).toBeLessThanOrEqual(9);
    expect(kept[0]).toBe("c29");
  });
});
