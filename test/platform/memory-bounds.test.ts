/**
 * Issue 20's memory attacks on a running platform with the real WebAssembly runtime: one request asking
 * for 32 results of nearly the per-call cap (it made a 503 MB answer), and parallel requests of one app.
 * The bounds of `memory/memory-budget.ts` stop them with clear errors, and another app keeps answering.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { buildApp } from "../../runtime/src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

const MiB = 1024 * 1024;

const SOURCE = `import type { i32 } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
/** A result of mb megabytes. */
export function getHuge(mb: i32): string { return "x".repeat(mb * 1024 * 1024); }
`;

describe("memory bounds of requests on the platform", () => {
  let tmp: string;
  let build: string;
  const platforms: RunningPlatform[] = [];

  async function start(memoryLimits: object): Promise<{ url: string; keys: Record<string, string> }> {
    const platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, `data-${platforms.length}`),
      adminToken: `admin-${randomBytes(24).toString("hex")}`,
      graphdb: { enabled: false, httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime({ memoryLimits }),
    });
    platforms.push(platform);
    const api = async (method: string, path: string, body?: unknown, type = "application/json") => {
      const res = await fetch(platform.url + path, {
        method,
        headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": type },
        body:
          body === undefined
            ? undefined
            : type === "application/json"
              ? JSON.stringify(body)
              : (body as Uint8Array<ArrayBuffer>),
      });
      return { status: res.status, body: await res.json() };
    };
    const keys: Record<string, string> = {};
    for (const app of ["tenant", "neighbour"]) {
      expect((await api("POST", "/api/apps", { name: app })).status).toBe(201);
      expect(
        (await api("POST", `/api/apps/${app}/deployments`, await archiveOf(build), "application/gzip"))
          .status,
      ).toBe(201);
      keys[app] = (await api("POST", `/api/apps/${app}/keys`, { name: "k" })).body.secret;
    }
    return { url: platform.url, keys };
  }

  async function gql(
    url: string,
    app: string,
    key: string,
    query: string,
  ): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${url}/apps/${app}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() };
  }

  async function archiveOf(dir: string): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ["."]))
      chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-memory-"));
    const dir = join(tmp, "app");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({ limits: { timeoutMs: 20_000, memoryMb: 512 } }),
    );
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "app", private: true }));
    await writeFile(join(dir, "src/index.ts"), SOURCE);
    build = (await buildApp(dir)).outDir;
  }, 180_000);

  afterAll(async () => {
    for (const platform of platforms) await platform.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it("refuses the rest of a request of 32 near-cap results past 32 MiB, and RSS stays bounded", async () => {
    const { url, keys } = await start({});
    const rssBefore = process.memoryUsage().rss;
    const aliases = Array.from({ length: 32 }, (_, i) => `a${i}: huge(mb: 15)`).join(" ");
    const { status, body } = await gql(url, "tenant", keys.tenant, `{ ${aliases} }`);
    expect(status).toBe(200);
    const values = Object.values(body.data) as (string | null)[];
    expect(values.filter((v) => v !== null)).toHaveLength(2);
    expect(values.filter((v) => v !== null).every((v) => v?.length === 15 * MiB)).toBe(true);
    expect(body.errors).toHaveLength(30);
    for (const error of body.errors) {
      expect(error.extensions.code).toBe("RESOURCE_EXHAUSTED");
      expect(error.message).toMatch(
        /^this request's function results and host answers would pass 32 MiB, the limit per request \(--max-request-memory or TRELLIS_MAX_REQUEST_MEMORY\)/,
      );
    }
    // Three such requests at once held 4.7 GB before the bound.
    const parallel = await Promise.all(
      [1, 2, 3].map(() => gql(url, "tenant", keys.tenant, `{ ${aliases} }`)),
    );
    for (const answer of parallel) expect(answer.body.errors.length).toBeGreaterThanOrEqual(28);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * MiB);
    expect((await gql(url, "neighbour", keys.neighbour, '{ sayHello(name: "n") }')).body.data).toEqual({
      sayHello: "Hello, n!",
    });
  }, 120_000);

  it("holds one app's parallel requests to its bound while another app keeps answering", async () => {
    const { url, keys } = await start({ appBytes: 40 * MiB });
    const query = "{ a: huge(mb: 15) b: huge(mb: 15) }";
    // A client that does not read its answer keeps the request's 30 MiB held.
    const slow = await fetch(`${url}/apps/tenant/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${keys.tenant}` },
      body: JSON.stringify({ query }),
    });
    expect(slow.status).toBe(200);
    const parallel = await Promise.all([1, 2, 3].map(() => gql(url, "tenant", keys.tenant, query)));
    for (const answer of parallel) {
      expect(answer.body.errors.length).toBeGreaterThan(0);
      for (const error of answer.body.errors) {
        expect(error.extensions.code).toBe("RESOURCE_EXHAUSTED");
        expect(error.message).toMatch(
          /^app "tenant"'s requests in flight hold 40 MiB, the limit per app \(--max-app-memory or TRELLIS_MAX_APP_MEMORY\); try again when they have finished/,
        );
      }
    }
    const neighbour = await gql(url, "neighbour", keys.neighbour, query);
    expect(neighbour.body.errors).toBeUndefined();
    expect(neighbour.body.data.a).toHaveLength(15 * MiB);
    // Once the slow client has read its answer, the tenant's pool is free again.
    expect((await slow.json()).data.b).toHaveLength(15 * MiB);
    const after = await gql(url, "tenant", keys.tenant, query);
    expect(after.body.errors).toBeUndefined();
  }, 120_000);
});
