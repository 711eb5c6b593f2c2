/**
 * The packages as a user outside this repository gets them: every publishable workspace package is packed
 * and published (`npm publish`, dependency order) to a local registry (Verdaccio on loopback; everything
 * else proxied to npmjs). Then, in a temporary directory outside the repository:
 *   - `trellis new` from the published CLI (`npm exec --package @trellis/cli@0.1.0`);
 *   - the template's own `.github/workflows/ci-build.yml`, read from the scaffolded app and run step by step:
 *     its `run:` build step as written (`npm install`, `npx trellis build`) against the local registry, and
 *     its deploy step through the deploy action's entry point (.github/actions/deploy/dist/index.js) with the
 *     step's inputs, against a running platform: a push to main (production), a push to another branch (its
 *     preview), a pull request from a fork (built, not deployed), the branch's deletion (preview removed);
 *   - the deployed function answers at `{app_url}/graphql` with an API key; `npx tsc --noEmit` is clean;
 *   - the published `trellis-graphdb` and `trellis-platform` bins run with plain node from an install, and
 *     the installed platform serves its console and its first-start demo app.
 * No mocks: real npm, real registry protocol, real builds. Cold (empty cache) it downloads the dependency
 * tree once; the cache under node_modules/.cache/trellis-packages-test/ makes reruns faster.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import {
  readWorkflow,
  runJob,
  type StepResult,
  type WorkflowEvent,
  type WorkflowStep,
} from "./github-workflow.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const ROOT = join(import.meta.dirname, "../..");
const CACHE = join(ROOT, "node_modules/.cache/trellis-packages-test");
const ACTION_DIR = join(ROOT, ".github/actions/deploy");
const VERSION = "0.1.0";
/** Dependency order: each package's @trellis dependencies are published before it. */
const PACKAGES = [
  { name: "@trellis/graphdb", dir: "graphdb" },
  { name: "@trellis/sdk", dir: "runtime/sdk/ts" },
  { name: "@trellis/runtime", dir: "runtime" },
  { name: "@trellis/cli", dir: "runtime/cli" },
  { name: "@trellis/platform", dir: "platform" },
];
const APP = "my-app";
/** Cold runs download the whole dependency tree (~300 packages) through the registry. */
const SETUP_TIMEOUT = 8 * 60_000;
const TEST_TIMEOUT = 8 * 60_000;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

interface Run {
  code: number | null;
  output: string;
}

/** npm and friends with the registry's environment and without the variables of an outer `npm test`. */
function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd, env: cleanEnv(env), maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        if (error && typeof (error as { code?: unknown }).code !== "number") reject(error);
        else resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

async function must(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<string> {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0) {
    throw new Error(`\`${command} ${args.join(" ")}\` in ${cwd} failed (${result.code}):\n${result.output}`);
  }
  return result.output;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k === "NODE_ENV" || k.startsWith("VITEST")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

async function gql(endpoint: string, query: string, apiKey: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

describe("published packages: an app made, built and deployed outside the repository", () => {
  let registry: LocalRegistry;
  let tmp: string;
  let platform: RunningPlatform;
  const published: Record<string, Json> = {};

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-packages-"));
    registry = await startLocalRegistry(CACHE);
    // `npm publish` in each workspace runs its prepack (tsc -b; the CLI copies app-template/ in, the platform
    // builds the console into console-dist/), packs exactly what `files` lists, and postpack cleans up.
    for (const pkg of PACKAGES) {
      await must("npm", ["publish", "--registry", registry.url], join(ROOT, pkg.dir), registry.npmEnv);
      published[pkg.name] = JSON.parse(
        await must("npm", ["view", `${pkg.name}@${VERSION}`, "--json"], tmp, registry.npmEnv),
      );
    }
    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "platform-data"),
      adminToken: `admin-${randomBytes(16).toString("hex")}`,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await platform?.close();
    await registry?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

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

  it("publishes each package with compiled JS, real semver dependencies and no tsx", () => {
    for (const pkg of PACKAGES) {
      const manifest = published[pkg.name];
      expect(manifest.version).toBe(VERSION);
      const deps: Record<string, string> = manifest.dependencies ?? {};
      expect(Object.keys(deps), pkg.name).not.toContain("tsx");
      for (const [name, range] of Object.entries(deps)) {
        expect(range, `${pkg.name} → ${name}`).toMatch(/^[\^~]?\d+\.\d+\.\d+/);
        if (name.startsWith("@trellis/")) expect(range, `${pkg.name} → ${name}`).toBe(`^${VERSION}`);
      }
      expect(manifest.exports["."].default, pkg.name).toBe("./dist/index.js");
      expect(manifest.exports["."].types, pkg.name).toBe("./dist/index.d.ts");
    }
    expect(published["@trellis/cli"].bin).toEqual({ trellis: "bin/trellis.mjs" });
    expect(published["@trellis/graphdb"].bin).toEqual({ "trellis-graphdb": "bin/trellis-graphdb.mjs" });
    expect(published["@trellis/platform"].bin).toEqual({ "trellis-platform": "bin/trellis-platform.mjs" });
  });

  it(
    "trellis new (published CLI) → the template's ci-build workflow (npm install, trellis build, deploy action) → the function answers",
    async () => {
      const work = join(tmp, "work");
      await mkdir(work);
      await must(
        "npm",
        ["exec", "--yes", "--package", `@trellis/cli@${VERSION}`, "--", "trellis", "new", APP, "--no-vendor"],
        work,
        registry.npmEnv,
      );
      const appDir = join(work, APP);
      const pkg = JSON.parse(await readFile(join(appDir, "package.json"), "utf8"));
      expect(pkg.name).toBe(APP);
      expect(pkg.devDependencies).toMatchObject({
        "@trellis/cli": `^${VERSION}`,
        "@trellis/sdk": `^${VERSION}`,
      });
      expect(pkg.devDependencies.typescript).toBeDefined();
      expect(existsSync(join(appDir, ".gitignore"))).toBe(true);
      expect(existsSync(join(appDir, ".env.dev.local"))).toBe(true);

      const { body: created } = await api("POST", "/api/apps", { name: APP });
      expect(created.deployToken).toMatch(/^trd_/);

      const workflow = await readWorkflow(join(appDir, ".github/workflows/ci-build.yml"));
      const steps: string[] = [];
      const results: StepResult[] = await runJob(workflow, "build", {
        cwd: appDir,
        env: registry.npmEnv,
        vars: { TRELLIS_URL: platform.url, TRELLIS_APP: APP },
        secrets: { TRELLIS_DEPLOY_TOKEN: created.deployToken },
        actions: { "trellis-dev/trellis/.github/actions/deploy": ACTION_DIR },
        tmp,
        onStep: (step, outcome) => steps.push(`${outcome} ${step.name}`),
      });
      expect(steps).toEqual([
        "skipped Checkout code",
        "skipped Setup Node",
        "skipped Setup Go",
        "skipped Setup TinyGo",
        "skipped Setup wasm-tools",
        "ran Build project",
        "skipped Publish GitHub artifact",
        "ran Deploy",
        "skipped Show the preview URL",
      ]);

      // The build used the packages this run published, installed in the app.
      const installed = JSON.parse(await readFile(join(appDir, "package-lock.json"), "utf8")).packages;
      for (const name of ["@trellis/cli", "@trellis/sdk", "@trellis/runtime", "@trellis/graphdb"]) {
        expect(installed[`node_modules/${name}`]?.version, name).toBe(VERSION);
      }
      expect(existsSync(join(appDir, "node_modules/tsx")), "tsx is not installed with the packages").toBe(
        false,
      );
      const build = results.find((r) => r.step.name === "Build project")!;
      expect(build.output).toContain("Query.sayHello");
      // No type warnings: the SDK's types resolve from node_modules, `trellis:app/host` stays inside the SDK.
      expect(stripVTControlCharacters(build.output ?? "")).not.toMatch(/^! /m);
      expect(existsSync(join(appDir, "build/app.wasm"))).toBe(true);

      // The deploy action's outputs, as a later step would read them.
      const deploy = results.find((r) => r.step.name === "Deploy")!;
      const endpoint = deploy.outputs?.endpoint;
      expect(endpoint).toBe(`${platform.url}/apps/${APP}/graphql`);
      const { body: deployments } = await api("GET", `/api/apps/${APP}/deployments`);
      expect(deployments.deployments[0]).toMatchObject({
        id: deploy.outputs?.["deployment-id"],
        status: "active",
        source: "action",
      });

      const { body: key } = await api("POST", `/api/apps/${APP}/keys`, { name: "ci-test" });
      const hello = await gql(endpoint!, '{ sayHello(name: "Trellis") }', key.secret);
      expect(hello.status).toBe(200);
      expect(hello.body).toMatchObject({ data: { sayHello: "Hello, Trellis!" } });
      expect(hello.body.errors).toBeUndefined();

      // Editors and `tsc` see the SDK's types (i32 and friends) and nothing unresolved.
      const typecheck = await run("npx", ["--no-install", "tsc", "--noEmit"], appDir, registry.npmEnv);
      expect(typecheck.output.trim()).toBe("");
      expect(typecheck.code).toBe(0);

      // A push to another branch deploys its preview, beside production; the run shows the preview's URL.
      // These runs reuse the build the push to main made (building again takes half a minute and tests
      // nothing new): the build step's condition is evaluated, the step itself reported as reused.
      const runFor = (event: WorkflowEvent, onStep?: (step: WorkflowStep, outcome: string) => void) =>
        runJob(workflow, event.name === "delete" ? "remove-preview" : "build", {
          reuse: ["Build project"],
          cwd: appDir,
          env: registry.npmEnv,
          vars: { TRELLIS_URL: platform.url, TRELLIS_APP: APP },
          secrets: { TRELLIS_DEPLOY_TOKEN: created.deployToken },
          actions: { "trellis-dev/trellis/.github/actions/deploy": ACTION_DIR },
          tmp,
          event,
          onStep,
        });
      const branchSteps: string[] = [];
      const branchRun = await runFor({ name: "push", refName: "feature/login" }, (step, outcome) =>
        branchSteps.push(`${outcome} ${step.name}`),
      );
      expect(branchSteps.slice(-3)).toEqual([
        "skipped Publish GitHub artifact",
        "ran Deploy",
        "ran Show the preview URL",
      ]);
      const previewUrl = branchRun.find((r) => r.step.name === "Deploy")!.outputs?.["preview-url"];
      expect(previewUrl).toMatch(new RegExp(`^http://${APP}--feature-login\\.localhost:\\d+$`));
      expect(branchRun.at(-1)!.output).toContain(`Preview: ${previewUrl}`);
      const previewHello = await gql(
        `${platform.url}/apps/${APP}--feature-login/graphql`,
        '{ sayHello(name: "preview") }',
        key.secret,
      );
      expect(previewHello.body).toMatchObject({ data: { sayHello: "Hello, preview!" } });

      // A pull request from a fork builds but does not deploy (it gets no secrets on GitHub).
      const forkSteps: string[] = [];
      await runFor(
        {
          name: "pull_request",
          refName: "9/merge",
          headRef: "patch-1",
          repository: "owner/app",
          payload: { pull_request: { head: { repo: { full_name: "someone/app" } } } },
        },
        (step, outcome) => forkSteps.push(`${outcome} ${step.name}`),
      );
      expect(forkSteps.slice(-4)).toEqual([
        "reused Build project",
        "skipped Publish GitHub artifact",
        "skipped Deploy",
        "skipped Show the preview URL",
      ]);

      // Deleting the branch removes its preview; production keeps serving.
      const removal = await runFor({
        name: "delete",
        refName: "main",
        payload: { ref: "feature/login", ref_type: "branch" },
      });
      expect(removal.map((r) => r.step.name)).toEqual(["Remove the preview"]);
      const { body: after } = await api("GET", `/api/apps/${APP}/deployments`);
      expect(after.deployments.filter((d: { status: string }) => d.status === "preview")).toEqual([]);
      expect((await gql(endpoint!, '{ sayHello(name: "prod") }', key.secret)).status).toBe(200);
    },
    TEST_TIMEOUT,
  );

  it(
    "the published trellis-graphdb and trellis-platform bins run with plain node; the platform serves its console and demo app",
    async () => {
      const project = join(tmp, "host");
      await mkdir(project);
      await writeFile(join(project, "package.json"), JSON.stringify({ name: "host", private: true }));
      await must("npm", ["install", `@trellis/platform@${VERSION}`], project, registry.npmEnv);
      const bin = (name: string) => join(project, "node_modules/.bin", name);
      expect(existsSync(join(project, "node_modules/tsx")), "tsx is not installed with the packages").toBe(
        false,
      );

      const help = await must(bin("trellis-graphdb"), ["--help"], project, {});
      expect(help).toContain("Usage: trellis-graphdb");

      const port = await freePort();
      const adminToken = `admin-${randomBytes(16).toString("hex")}`;
      const child: ChildProcess = spawn(
        bin("trellis-platform"),
        ["--host", "127.0.0.1", "--port", String(port), "--data", join(project, "data"), "--no-graphdb"],
        {
          cwd: project,
          env: cleanEnv({ TRELLIS_ADMIN_TOKEN: adminToken }),
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout?.on("data", (d) => (output += d));
      child.stderr?.on("data", (d) => (output += d));
      try {
        const deadline = Date.now() + 120_000;
        while (!/API key: {2}(\S+)/.test(output)) {
          if (child.exitCode !== null || Date.now() > deadline) {
            throw new Error(`trellis-platform did not deploy its demo app:\n${output}`);
          }
          await new Promise((r) => setTimeout(r, 200));
        }
        const url = `http://127.0.0.1:${port}`;
        const page = await fetch(`${url}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root">');
        const apiKey = /API key: {2}(\S+)/.exec(output)![1]!;
        const demo = await gql(`${url}/apps/hello/graphql`, '{ sayHello(name: "demo") }', apiKey);
        expect(demo.body).toMatchObject({ data: { sayHello: "Hello, demo!" } });
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(undefined)));
      }
    },
    TEST_TIMEOUT,
  );
});
