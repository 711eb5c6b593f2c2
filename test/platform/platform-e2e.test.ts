/**
 * Platform acceptance with the real WebAssembly runtime: first-start demo app; a TypeScript app built by
 * `trellis build`, deployed once with `trellis deploy` and once by running the deploy action's entry point
 * the way GitHub Actions does (INPUT_* variables, GITHUB_OUTPUT); API keys (200 / 401 missing, wrong,
 * revoked); an env var set in the platform reaching the app's http connection; Activity with durations;
 * a front end served beside the functions, with a public endpoint and a branch's preview; scale to zero
 * and a cold start that succeeds.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployDemoApp } from "../../platform/src/demo-app.ts";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { buildApp, packBuild } from "../../runtime/src/index.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");
const TRELLIS = join(ROOT, "runtime/cli/bin/trellis.mjs");
const ACTION = join(ROOT, ".github/actions/deploy/dist/index.js");
const PG_URL = "postgres://postgres@127.0.0.1:5432/test";
const IDLE_MS = 60_000;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

describe("platform with WebAssembly apps", () => {
  let tmp: string;
  let platform: RunningPlatform;
  let echo: Server;
  let echoPort: number;
  const seenAuth: (string | undefined)[] = [];
  const schema = `trellis_e2e_${randomBytes(5).toString("hex")}`;
  let buildDir: string;

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

  async function gql(app: string, query: string, key?: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${platform.url}/apps/${app}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-platform-e2e-"));
    echo = createServer((req, res) => {
      seenAuth.push(req.headers.authorization);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", () => r()));
    echoPort = (echo.address() as AddressInfo).port;

    // The app: a pure function and one that calls an http connection whose token is a platform env var.
    const appDir = join(tmp, "echo-app");
    await mkdir(join(appDir, "src"), { recursive: true });
    await writeFile(
      join(appDir, "trellis.json"),
      JSON.stringify({
        connections: {
          echo: {
            type: "http",
            baseUrl: `http://127.0.0.1:${echoPort}/`,
            headers: { Authorization: "Bearer {{TOKEN}}" },
          },
        },
      }),
    );
    await writeFile(join(appDir, "package.json"), JSON.stringify({ name: "echo-app", private: true }));
    await writeFile(
      join(appDir, "src/index.ts"),
      `import { http } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
/** What the echo server saw as Authorization. */
export function getEchoedAuth(): string {
  const r = http.fetch("http://127.0.0.1:${echoPort}/echo");
  return r.json<{ auth: string | null }>().auth ?? "none";
}
`,
    );
    buildDir = (await buildApp(appDir)).outDir;

    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(16).toString("hex")}`,
      databaseUrl: PG_URL,
      databaseSchema: schema,
      idleMs: IDLE_MS,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
      // The echo app's API is on this machine: the operator opens exactly it.
      egress: { allow: [`127.0.0.1:${echoPort}`] },
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    echo?.close();
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
    await rm(tmp, { recursive: true, force: true });
  });

  it("deploys the demo app on first start and its curl line works", async () => {
    const demo = await deployDemoApp({ url: platform.url, adminToken: platform.adminToken, workDir: tmp });
    expect(demo).toBeDefined();
    const r = await gql("hello", '{ sayHello(name: "Trellis") }', demo?.apiKey);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ sayHello: "Hello, Trellis!" });
    // No database is given to the demo (never the host's own): the function that needs one says what to set.
    const count = await gql("hello", "{ tableCount }", demo?.apiKey);
    expect(count.body.errors[0].message).toContain("missing environment variable TRELLIS_DB_DATABASE_URL");
    expect(demo?.curl).toContain(demo?.endpoint);
    // The console's curl example: an operation made from the deployed schema, which runs as it is.
    const example = (await api("GET", "/api/apps/hello")).body.app.exampleOperation as string;
    expect(example).toBe('{ sayHello(name: "Trellis") }');
    const ran = await gql("hello", example, demo?.apiKey);
    expect(ran.body).toMatchObject({ data: { sayHello: "Hello, Trellis!" } });
    expect(ran.body.errors).toBeUndefined();
    // Not on a later start: an app exists.
    expect(
      await deployDemoApp({ url: platform.url, adminToken: platform.adminToken, workDir: tmp }),
    ).toBeUndefined();
  }, 60_000);

  it("deploys with `trellis deploy`, guards the endpoint with API keys, and passes env vars to connections", async () => {
    const created = await api("POST", "/api/apps", { name: "echo" });
    expect(created.status).toBe(201);
    const { stdout } = await run(
      process.execPath,
      [
        TRELLIS,
        "deploy",
        join(buildDir, ".."),
        "--url",
        platform.url,
        "--app",
        "echo",
        "--token",
        created.body.deployToken,
      ],
      { env: { ...process.env, CI: "1" } },
    );
    expect(stdout).toContain("/apps/echo/graphql");

    expect((await gql("echo", '{ sayHello(name: "x") }')).status).toBe(401);
    const wrong = await gql("echo", '{ sayHello(name: "x") }', "trk_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");

    const key = await api("POST", "/api/apps/echo/keys", { name: "ci" });
    const ok = await gql("echo", '{ sayHello(name: "Ada") }', key.body.secret);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ sayHello: "Hello, Ada!" });

    // The http connection's {{TOKEN}} comes from the app's env var TRELLIS_ECHO_TOKEN.
    const value = `secret-${randomBytes(6).toString("hex")}`;
    expect((await api("PUT", "/api/apps/echo/env/TRELLIS_ECHO_TOKEN", { value })).status).toBe(200);
    const echoed = await gql("echo", "{ echoedAuth }", key.body.secret);
    expect(echoed.body.errors).toBeUndefined();
    expect(echoed.body.data).toEqual({ echoedAuth: `Bearer ${value}` });
    expect(seenAuth).toContain(`Bearer ${value}`);

    expect((await api("DELETE", `/api/apps/echo/keys/${key.body.key.id}`)).status).toBe(204);
    expect((await gql("echo", '{ sayHello(name: "x") }', key.body.secret)).status).toBe(401);
  }, 60_000);

  it("deploys through the GitHub Action entry point and lists executions in Activity", async () => {
    const token = (await api("POST", "/api/apps/echo/deploy-token")).body.deployToken;
    const outputs = join(tmp, "github-output");
    await writeFile(outputs, "");
    await run(process.execPath, [ACTION], {
      env: {
        ...process.env,
        INPUT_URL: platform.url,
        INPUT_APP: "echo",
        INPUT_TOKEN: token,
        "INPUT_BUILD-DIR": buildDir,
        GITHUB_OUTPUT: outputs,
      },
    });
    expect(await readFile(outputs, "utf8")).toContain(`${platform.url}/apps/echo/graphql`);
    const deployments = (await api("GET", "/api/apps/echo/deployments")).body.deployments;
    expect(deployments.map((d: Json) => d.source)).toEqual(["action", "cli"]);

    const key = (await api("POST", "/api/apps/echo/keys", { name: "activity" })).body.secret;
    await gql("echo", '{ sayHello(name: "activity") }', key);
    const activity = (await api("GET", "/api/apps/echo/activity?limit=10")).body.executions;
    expect(activity.length).toBeGreaterThanOrEqual(2);
    expect(activity[0]).toMatchObject({ function: "sayHello", status: "success" });
    expect(typeof activity[0].durationMs).toBe("number");
  }, 60_000);

  it("rejects bad deployments with a clear message while the current one keeps serving, and rolls back", async () => {
    const key = (await api("POST", "/api/apps/echo/keys", { name: "bad" })).body.secret;
    const upload = async (archive: Uint8Array<ArrayBuffer>) =>
      fetch(`${platform.url}/api/apps/echo/deployments`, {
        method: "POST",
        headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
        body: archive,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
    const variant = async (name: string, change: (dir: string) => Promise<void>) => {
      const dir = join(tmp, name);
      await cp(buildDir, dir, { recursive: true });
      await change(dir);
      return new Uint8Array(await packBuild(dir)) as Uint8Array<ArrayBuffer>;
    };

    const noComponent = await upload(await variant("no-component", (d) => rm(join(d, "app.wasm"))));
    expect(noComponent.status).toBe(400);
    expect(noComponent.body.error.message).toContain("app.wasm");
    const badManifest = await upload(
      await variant("bad-manifest", (d) =>
        writeFile(join(d, "trellis.json"), JSON.stringify({ connections: { x: { type: "ftp" } } })),
      ),
    );
    expect(badManifest.status).toBe(400);
    expect(badManifest.body.error.message).toContain("connections.x");
    const corrupt = await upload(new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]));
    expect(corrupt.status).toBe(400);
    expect((await gql("echo", '{ sayHello(name: "still") }', key)).body.data).toEqual({
      sayHello: "Hello, still!",
    });

    const deployments = (await api("GET", "/api/apps/echo/deployments")).body.deployments as Json[];
    const previous = deployments.find((d) => d.status === "previous");
    expect(previous).toBeDefined();
    const rolled = await api("POST", `/api/apps/echo/deployments/${previous.id}/rollback`);
    expect(rolled.status).toBe(200);
    expect((await api("GET", "/api/apps/echo")).body.app.activeDeploymentId).toBe(previous.id);
    expect((await gql("echo", '{ sayHello(name: "rolled") }', key)).body.data).toEqual({
      sayHello: "Hello, rolled!",
    });
  }, 60_000);

  it("serves a front end beside its functions, a public endpoint, and a branch's preview", async () => {
    await api("POST", "/api/apps", { name: "site" });
    const port = Number(new URL(platform.url).port);
    const withSite = async (name: string, title: string) => {
      const dir = join(tmp, name);
      await cp(buildDir, dir, { recursive: true });
      const manifest = JSON.parse(await readFile(join(dir, "trellis.json"), "utf8"));
      manifest.web = { spaFallback: true };
      manifest.endpoints = { default: { type: "graphql", path: "/graphql", auth: "none" } };
      await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest));
      await mkdir(join(dir, "static/assets"), { recursive: true });
      await writeFile(join(dir, "static/index.html"), `<!doctype html><title>${title}</title>`);
      await writeFile(join(dir, "static/assets/index-0a1b2c3d.js"), "export {};\n");
      return new Uint8Array(await packBuild(dir)) as Uint8Array<ArrayBuffer>;
    };
    const deploy = async (archive: Uint8Array<ArrayBuffer>, branch?: string) =>
      fetch(`${platform.url}/api/apps/site/deployments`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${platform.adminToken}`,
          "content-type": "application/gzip",
          ...(branch ? { "x-trellis-deploy-branch": branch } : {}),
        },
        body: archive,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
    /** A request to an app host (`site.localhost`), which fetch cannot address. */
    const onHost = (host: string, path: string, body?: string) =>
      new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path,
            method: body ? "POST" : "GET",
            headers: { host, ...(body ? { "content-type": "application/json" } : {}) },
          },
          (res) => {
            let text = "";
            res.on("data", (d) => {
              text += d;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });

    expect((await deploy(await withSite("site-main", "production"))).status).toBe(201);
    const page = await onHost("site.localhost", "/orders/7");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>production</title>");
    const asset = await onHost("site.localhost", "/assets/index-0a1b2c3d.js");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const call = await onHost(
      "site.localhost",
      "/graphql",
      JSON.stringify({ query: '{ sayHello(name: "page") }' }),
    );
    expect(JSON.parse(call.text).data).toEqual({ sayHello: "Hello, page!" });

    const preview = await deploy(await withSite("site-preview", "preview"), "feature/x");
    expect(preview.status).toBe(201);
    expect(preview.body.deployment.previewUrl).toBe(`http://site--feature-x.localhost:${port}`);
    expect((await onHost("site--feature-x.localhost", "/")).text).toContain("<title>preview</title>");
    const previewCall = await onHost(
      "site--feature-x.localhost",
      "/graphql",
      JSON.stringify({ query: '{ sayHello(name: "preview") }' }),
    );
    expect(JSON.parse(previewCall.text).data).toEqual({ sayHello: "Hello, preview!" });
    expect((await onHost("site.localhost", "/")).text).toContain("<title>production</title>");
  }, 120_000);

  it("scales an idle app to zero and cold starts it on the next call", async () => {
    const key = (await api("POST", "/api/apps/echo/keys", { name: "cold" })).body.secret;
    expect((await gql("echo", '{ sayHello(name: "warm") }', key)).status).toBe(200);
    expect((await api("GET", "/api/apps/echo")).body.app.status).toBe("running");
    expect(platform.sweepIdle(Date.now() + IDLE_MS + 1_000)).toContain("echo");
    expect((await api("GET", "/api/apps/echo")).body.app.status).toBe("idle");
    const cold = await gql("echo", '{ sayHello(name: "cold") }', key);
    expect(cold.status).toBe(200);
    expect(cold.body.data).toEqual({ sayHello: "Hello, cold!" });
    expect((await api("GET", "/api/apps/echo")).body.app.status).toBe("running");
    const metrics = await (
      await fetch(`${platform.url}/metrics`, { headers: { authorization: `Bearer ${platform.adminToken}` } })
    ).text();
    expect(metrics).toMatch(/cold_starts_total\{app="echo"\} [2-9]/);
  }, 60_000);
});
