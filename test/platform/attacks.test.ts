/**
 * Issue 11's attacks on a running platform with the real WebAssembly runtime, each reproduced as a tenant
 * with credentials would try it (loopback only): the attack fails with a clear error, and a neighbour app
 * under light load keeps getting its answers meanwhile (their latencies: `bench/platform/noisy-neighbour.ts`).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mysql from "mysql2/promise";
import { pino } from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { buildApp } from "../../runtime/src/index.ts";
import { gzipBomb } from "../support/gzip-bomb.ts";
import { duringNeighbourLoad } from "./neighbour-latency.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

const NOTES = `trellis_attack_notes_${process.pid}`;

const TENANT_SOURCE = `import { sql, type i32 } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
/** A result of mb megabytes. */
export function getHuge(mb: i32): string { return "x".repeat(mb * 1024 * 1024); }
/** Prints n lines. */
export function getChatter(n: i32): i32 { for (let i = 0; i < n; i++) console.log("line " + i + " " + "y".repeat(100)); return n; }
/** Writes through the MariaDB connection. */
export function addNote(text: string): i32 {
  sql.execute("maria", "create table if not exists ${NOTES} (id int auto_increment primary key, text varchar(200))");
  sql.execute("maria", "insert into ${NOTES} (text) values (?)", [text]);
  return sql.query<{ n: number }>("maria", "select count(*) as n from ${NOTES}")[0]?.n ?? 0;
}
`;

describe("attacks on the platform fail, and neighbours do not notice", () => {
  let tmp: string;
  let platform: RunningPlatform;
  let tenantBuild: string;
  let victimKey: string;
  let tenantKey: string;

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(platform.url + path, {
      method,
      headers: {
        authorization: `Bearer ${platform.adminToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function gql(app: string, key: string, query: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${platform.url}/apps/${app}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() };
  }

  async function upload(app: string, archive: Uint8Array): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${platform.url}/api/apps/${app}/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
      body: archive as Uint8Array<ArrayBuffer>,
    });
    return { status: res.status, body: await res.json() };
  }

  /** A tar.gz of a build folder, with every file in it (transpiled/ too, as an attacker would send). */
  async function archiveOf(dir: string): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ["."]))
      chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  const victim = async (): Promise<true | string> => {
    const r = await gql("victim", victimKey, '{ sayHello(name: "n") }');
    return r.body?.data?.sayHello === "Hello, n!" ? true : JSON.stringify(r.body);
  };

  async function typeScriptApp(name: string, source: string, manifest: object): Promise<string> {
    const dir = join(tmp, name);
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest));
    await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true }));
    await writeFile(join(dir, "src/index.ts"), source);
    return (await buildApp(dir)).outDir;
  }

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-attacks-"));
    const victimBuild = await typeScriptApp(
      "victim",
      'export function sayHello(name: string): string { return "Hello, " + name + "!"; }\n',
      {},
    );
    tenantBuild = await typeScriptApp("tenant", TENANT_SOURCE, {
      connections: { maria: { type: "relationaldb", connStr: "mysql://root@127.0.0.1:3306/test" } },
      limits: { timeoutMs: 5000, memoryMb: 512 },
    });
    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(24).toString("hex")}`,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
      // The tenant's MariaDB is this machine's: the operator opens exactly it.
      egress: { allow: ["127.0.0.1:3306"] },
    });
    for (const [app, build] of [
      ["victim", victimBuild],
      ["tenant", tenantBuild],
    ] as const) {
      expect((await api("POST", "/api/apps", { name: app })).status).toBe(201);
      expect((await upload(app, await archiveOf(build))).status).toBe(201);
    }
    victimKey = (await api("POST", "/api/apps/victim/keys", { name: "k" })).body.secret;
    tenantKey = (await api("POST", "/api/apps/tenant/keys", { name: "k" })).body.secret;
    expect(await victim()).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await platform?.close();
    const db = await mysql.createConnection({ host: "127.0.0.1", user: "root", database: "test" });
    await db.query(`DROP TABLE IF EXISTS ${NOTES}`);
    await db.end();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("never runs JavaScript that came with an upload (it used to run as the platform's user)", async () => {
    const evil = join(tmp, "evil-build");
    await cp(tenantBuild, evil, { recursive: true });
    const marker = join(tmp, "pwned");
    const payload = `import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(marker)}, JSON.stringify({ admin: process.env.TRELLIS_ADMIN_TOKEN ?? null }));
export async function instantiate() { return { sayHello: () => "owned" }; }
`;
    await writeFile(join(evil, "transpiled", "component.js"), payload);
    const archive = await archiveOf(evil);
    // Deploying (transpiling and the smoke call in a throwaway worker) does not slow the neighbour.
    const report = await duringNeighbourLoad(victim, () => upload("tenant", archive));
    const deployed = report.result;
    expect(deployed.status).toBe(201);
    expect(report.failures).toEqual([]);
    const answer = await gql("tenant", tenantKey, '{ sayHello(name: "x") }');
    expect(answer.body.data).toEqual({ sayHello: "Hello, x!" });
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("refuses a request with 5,000 aliases on a cold app without starting a worker per call", async () => {
    await api("PUT", "/api/apps/tenant/env/TRELLIS_APP_COLD", { value: "1" }); // unloads the tenant
    const threadsBefore = threads();
    const aliases = Array.from({ length: 5000 }, (_, i) => `a${i}: sayHello(name: "x")`).join(" ");
    const report = await duringNeighbourLoad(victim, () => gql("tenant", tenantKey, `{ ${aliases} }`));
    expect(report.result.body.errors[0].message).toMatch(
      /Aliases limit of 32 exceeded, found 5000|Token limit/,
    );
    expect(threads() - threadsBefore).toBeLessThan(8);
    expect(report.failures).toEqual([]);
  }, 60_000);

  it("stops a gzip bomb at the extraction limit", async () => {
    const rssBefore = process.memoryUsage().rss;
    const report = await duringNeighbourLoad(victim, () => upload("tenant", gzipBomb(3 * 1024 ** 3)));
    expect(report.result.status).toBe(400);
    expect(report.result.body.error.message).toMatch(
      /^the archive expands to more than 268435456 bytes; deployment \w+ keeps serving$/,
    );
    expect(report.failures).toEqual([]);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(512 * 1024 * 1024);
  }, 60_000);

  it("rejects a build with a corrupt core module and keeps the current deployment serving", async () => {
    const broken = join(tmp, "broken-build");
    await cp(tenantBuild, broken, { recursive: true });
    const wasm = new Uint8Array(await readFile(join(broken, "app.wasm")));
    wasm.fill(0xff, Math.floor(wasm.length / 2), Math.floor(wasm.length / 2) + 256);
    await writeFile(join(broken, "app.wasm"), wasm);
    const archive = await archiveOf(broken);
    const report = await duringNeighbourLoad(victim, () => upload("tenant", archive));
    expect(report.failures).toEqual([]);
    const rejected = report.result;
    expect(rejected.status).toBe(400);
    expect(rejected.body.error.code).toBe("DEPLOY_REJECTED");
    expect(rejected.body.error.message).toMatch(/keeps serving$/);
    expect((await gql("tenant", tenantKey, '{ sayHello(name: "y") }')).body.data).toEqual({
      sayHello: "Hello, y!",
    });
  }, 60_000);

  it("refuses limits beyond the platform's ceilings", async () => {
    const greedy = await typeScriptApp(
      "greedy",
      'export function sayHello(name: string): string { return "Hello, " + name + "!"; }\n',
      { limits: { timeoutMs: 3_600_000, memoryMb: 4096 } },
    );
    const rejected = await upload("tenant", await archiveOf(greedy));
    expect(rejected.status).toBe(400);
    expect(rejected.body.error.message).toMatch(
      /asks for limits \{ timeoutMs: 3600000, memoryMb: 4096 \}; this platform allows at most \{ timeoutMs: 60000, memoryMb: 512 \}/,
    );
  }, 60_000);

  it("refuses a 300 MB result and keeps a log flood to its budget, neighbours unaffected", async () => {
    const huge = await duringNeighbourLoad(victim, () => gql("tenant", tenantKey, "{ huge(mb: 300) }"));
    expect(huge.result.body.errors[0].extensions.code).toMatch(/RESOURCE_EXHAUSTED|OUT_OF_MEMORY/);
    const flood = await duringNeighbourLoad(victim, () => gql("tenant", tenantKey, "{ chatter(n: 200000) }"));
    expect(flood.result.body.data).toEqual({ chatter: 200000 });
    const logs = flood.result.body.extensions.invocations.chatter.logs as { message: string }[];
    expect(logs.reduce((n, l) => n + l.message.length, 0)).toBeLessThan(300 * 1024);
    expect(logs.at(-1)?.message).toMatch(/more log lines .* were dropped/);
    expect(huge.failures).toEqual([]);
    expect(flood.failures).toEqual([]);
  }, 120_000);

  it("closes an app's SQL connections when it is reloaded: 30 reloads leave no pile of MariaDB connections", async () => {
    const db = await mysql.createConnection({ host: "127.0.0.1", user: "root", database: "test" });
    const count = async () => {
      const [rows] = await db.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'root'",
      );
      return Number((rows as { n: number }[])[0]?.n);
    };
    try {
      const before = await count();
      for (let i = 0; i < 30; i++) {
        await api("PUT", "/api/apps/tenant/env/TRELLIS_APP_RELOAD", { value: String(i) });
        const r = await gql("tenant", tenantKey, `mutation { addNote(text: "n${i}") }`);
        expect(r.body.errors).toBeUndefined();
      }
      // Closing is asynchronous: give the last retired instance a moment.
      await new Promise((r) => setTimeout(r, 500));
      expect((await count()) - before).toBeLessThanOrEqual(3);
    } finally {
      await db.end();
    }
  }, 120_000);
});

/** Threads of this process (Linux). */
function threads(): number {
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]);
}
