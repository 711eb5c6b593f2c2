/** A real platform on a free loopback port, in a temp dir, with the YogaAppRuntime. */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { type PlatformOptions, type RunningPlatform, startPlatform } from "../../src/platform.ts";
import { type BuildFiles, buildArchive } from "./builds.ts";
import { YogaAppRuntime } from "./yoga-app-runtime.ts";

/** A parsed JSON response; the tests check its shape with assertions. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
export type Json = any;

export const PG_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface TestPlatform {
  platform: RunningPlatform;
  runtime: YogaAppRuntime;
  dataDir: string;
  tmp: string;
  /** The PostgreSQL schema of this run (with `postgres: true`). */
  databaseSchema: string;
  /** A control-plane call with the admin token (or `token`). */
  api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Json }>;
  /** Uploads an archive as a deployment. */
  deploy(app: string, archive: Uint8Array, token?: string): Promise<{ status: number; body: Json }>;
  /** GET /metrics with the admin token (or `token`; "" sends none). */
  metrics(token?: string): Promise<{ status: number; text: string }>;
  /** A GraphQL call through the gateway. */
  gql(app: string, query: string, apiKey?: string): Promise<{ status: number; body: Json }>;
  /** A new build archive (files in a fresh temp folder). */
  archive(files?: BuildFiles): Promise<Buffer>;
  /** Creates an app with a deployed v1 build and an API key. */
  deployedApp(name: string): Promise<{ deployToken: string; apiKey: string; keyId: string }>;
  close(): Promise<void>;
}

export async function startTestPlatform(
  options: Partial<PlatformOptions> & { postgres?: boolean } = {},
): Promise<TestPlatform> {
  const tmp = await mkdtemp(join(tmpdir(), "trellis-platform-"));
  const dataDir = join(tmp, "data");
  const runtime = new YogaAppRuntime();
  const schema = `trellis_test_${randomBytes(6).toString("hex")}`;
  const platform = await startPlatform({
    port: 0,
    host: "127.0.0.1",
    dataDir,
    adminToken: `admin-${randomBytes(16).toString("hex")}`,
    graphdb: { httpPort: 0, grpcPort: 0 },
    logger: pino({ level: "silent" }),
    runtime,
    ...(options.postgres ? { databaseUrl: PG_URL, databaseSchema: schema } : {}),
    ...options,
  });
  let builds = 0;
  const request = async (method: string, path: string, init: RequestInit) => {
    const res = await fetch(platform.url + path, { method, ...init });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const t: TestPlatform = {
    platform,
    runtime,
    dataDir,
    tmp,
    databaseSchema: schema,
    api: (method, path, body, token = platform.adminToken) =>
      request(method, path, {
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    deploy: (app, archive, token = platform.adminToken) =>
      request("POST", `/api/apps/${app}/deployments`, {
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/gzip" },
        body: new Uint8Array(archive),
      }),
    async metrics(token = platform.adminToken) {
      const res = await fetch(`${platform.url}/metrics`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      return { status: res.status, text: await res.text() };
    },
    gql: (app, query, apiKey) =>
      request("POST", `/apps/${app}/graphql`, {
        headers: {
          "Content-Type": "application/json",
          ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({ query }),
      }),
    archive: (files) => buildArchive(join(tmp, `build-${builds++}`), files),
    async deployedApp(name) {
      const created = await t.api("POST", "/api/apps", { name });
      if (created.status !== 201) throw new Error(JSON.stringify(created.body));
      const deployed = await t.deploy(name, await t.archive(), created.body.deployToken);
      if (deployed.status !== 201) throw new Error(JSON.stringify(deployed.body));
      const key = await t.api("POST", `/api/apps/${name}/keys`, { name: "test" });
      return { deployToken: created.body.deployToken, apiKey: key.body.secret, keyId: key.body.key.id };
    },
    async close() {
      await platform.close();
      if (options.postgres) {
        const pg = (await import("pg")).default;
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
      await rm(tmp, { recursive: true, force: true });
    },
  };
  return t;
}
