import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DeployError, deployBuild, removePreview } from "@trellis/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleAction } from "../../.github/actions/deploy/build.mjs";
import { readWorkflow, runJob } from "../../test/packages/github-workflow.ts";
import { writeBuild } from "./support/builds.ts";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const ACTION_DIR = fileURLToPath(new URL("../../.github/actions/deploy/", import.meta.url));
const TEMPLATE_WORKFLOW = fileURLToPath(
  new URL("../../app-template/typescript/.github/workflows/ci-build.yml", import.meta.url),
);

/** Runs the action's entry point the way the GitHub runner does: inputs as INPUT_* env vars. */
async function runAction(
  inputs: Record<string, string>,
  outputFile: string,
  runnerEnv: Record<string, string> = {},
) {
  await writeFile(outputFile, ""); // the runner creates it

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    GITHUB_OUTPUT: outputFile,
    ...runnerEnv,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ACTION_DIR, "dist/index.js")], { env, cwd: ACTION_DIR });
    let stdout = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stdout += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

/** `name<<delimiter\nvalue\ndelimiter` blocks of a GITHUB_OUTPUT file. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)) out[m[1]] = m[3];
  return out;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe("deploy client and GitHub Action", () => {
  let t: TestPlatform;
  let deployToken: string;
  let buildDir: string;
  let tmp: string;
  beforeAll(async () => {
    t = await startTestPlatform({ postgres: true });
    deployToken = (await t.api("POST", "/api/apps", { name: "shop" })).body.deployToken;
    tmp = await mkdtemp(join(tmpdir(), "trellis-action-"));
    buildDir = await writeBuild(join(tmp, "build"), { version: "from-ci" });
  });
  afterAll(async () => {
    await t?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("has a committed bundle that matches its sources", async () => {
    const fresh = await bundleAction(join(tmp, "index.js"));
    const committed = await readFile(join(ACTION_DIR, "dist/index.js"), "utf8");
    const stale = "dist/index.js is stale: run node .github/actions/deploy/build.mjs";
    expect(committed === (await readFile(fresh, "utf8")), stale).toBe(true);
    const manifest = await readFile(join(ACTION_DIR, "action.yml"), "utf8");
    expect(manifest).toMatch(/using: node24\n\s+main: dist\/index\.js/);
  });

  it("deploys the build folder and reports the endpoint", async () => {
    const progress: string[] = [];
    const result = await deployBuild({
      url: `${t.platform.url}/`,
      app: "shop",
      token: deployToken,
      buildDir,
      onProgress: (m) => progress.push(m),
    });
    expect(result.endpoint).toBe(`${t.platform.url}/apps/shop/graphql`);
    expect(result.deployment).toMatchObject({ status: "active", source: "cli" });
    expect(progress.at(-1)).toContain(result.deployment.id);
  });

  it("fails with clear messages: unreachable URL, bad token, unknown app, rejected build, no build", async () => {
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => expect.fail("expected the deploy to fail"),
        (e: DeployError) => e,
      );
    const port = await closedPort();
    const unreachable = await fail(
      deployBuild({ url: `http://127.0.0.1:${port}`, app: "shop", token: deployToken, buildDir }),
    );
    expect(unreachable.message).toMatch(
      /cannot reach the platform at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    const badToken = await fail(
      deployBuild({ url: t.platform.url, app: "shop", token: "trd_nope", buildDir }),
    );
    expect(badToken).toMatchObject({ status: 401 });
    expect(badToken.message).toContain('refused the deploy token for app "shop"');
    const unknown = await fail(
      deployBuild({ url: t.platform.url, app: "nope", token: t.platform.adminToken, buildDir }),
    );
    expect(unknown.message).toContain('no app named "nope"');
    const broken = await writeBuild(join(tmp, "broken"), { schema: null });
    const rejected = await fail(
      deployBuild({ url: t.platform.url, app: "shop", token: deployToken, buildDir: broken }),
    );
    expect(rejected).toMatchObject({ status: 400 });
    expect(rejected.message).toMatch(
      /^deployment rejected: the build is invalid: schema\.graphql was not found/,
    );
    const missing = await fail(
      deployBuild({ url: t.platform.url, app: "shop", token: deployToken, buildDir: join(tmp, "none") }),
    );
    expect(missing.message).toContain("run `trellis build` first");
  });

  it("runs as a GitHub Action: outputs, masked token, failure message", async () => {
    const outputFile = join(tmp, "github-output");
    const ok = await runAction(
      { url: t.platform.url, app: "shop", token: deployToken, "build-dir": buildDir },
      outputFile,
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`::add-mask::${deployToken}`);
    const outputs = parseOutputs(await readFile(outputFile, "utf8"));
    expect(outputs.endpoint).toBe(`${t.platform.url}/apps/shop/graphql`);
    const deployments = (await t.api("GET", "/api/apps/shop/deployments")).body.deployments;
    expect(deployments[0]).toMatchObject({
      id: outputs["deployment-id"],
      status: "active",
      source: "action",
    });

    const failed = await runAction(
      { url: t.platform.url, app: "shop", token: "trd_wrong", "build-dir": buildDir },
      join(tmp, "out2"),
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/::error::the platform refused the deploy token for app "shop"/);
    const noInput = await runAction({ url: t.platform.url, app: "shop" }, join(tmp, "out3"));
    expect(noInput.code).toBe(1);
    expect(noInput.stdout).toContain("::error::Input required and not supplied: token");
  });
  it("deploys a pull request's branch to its preview and removes it with remove-preview", async () => {
    const outputFile = join(tmp, "github-output-preview");
    const deployed = await runAction(
      { url: t.platform.url, app: "shop", token: deployToken, "build-dir": buildDir },
      outputFile,
      { GITHUB_HEAD_REF: "feature/Login", GITHUB_REF_NAME: "7/merge" },
    );
    expect(deployed.code, deployed.stdout).toBe(0);
    const outputs = parseOutputs(await readFile(outputFile, "utf8"));
    expect(outputs["preview-url"]).toMatch(/^http:\/\/shop--feature-login\.localhost:\d+$/);
    const preview = async () =>
      (await t.api("GET", "/api/apps/shop/deployments")).body.deployments.find(
        (d: { status: string }) => d.status === "preview",
      );
    expect(await preview()).toMatchObject({ id: outputs["deployment-id"], branch: "feature/Login" });

    const removedFile = join(tmp, "github-output-removed");
    const removed = await runAction(
      { url: t.platform.url, app: "shop", token: deployToken, "remove-preview": "feature/Login" },
      removedFile,
    );
    expect(removed.code, removed.stdout).toBe(0);
    expect(parseOutputs(await readFile(removedFile, "utf8"))["deployment-id"]).toBe(outputs["deployment-id"]);
    expect(await preview()).toBeUndefined();
    // Again: nothing to remove is no failure.
    const again = await runAction(
      { url: t.platform.url, app: "shop", token: deployToken, "remove-preview": "feature/Login" },
      join(tmp, "github-output-again"),
    );
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain("branch feature/Login has no preview: nothing to remove");
  });

  it("removes a preview by branch: not main, not with a wrong token", async () => {
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => expect.fail("expected the removal to fail"),
        (e: DeployError) => e,
      );
    const main = await fail(
      removePreview({ url: t.platform.url, app: "shop", token: deployToken, branch: "main" }),
    );
    expect(main).toMatchObject({ status: 400 });
    expect(main.message).toContain('"main" deploys to production, not to a preview');
    const badToken = await fail(
      removePreview({ url: t.platform.url, app: "shop", token: "trd_nope", branch: "feature/x" }),
    );
    expect(badToken).toMatchObject({ status: 401 });
    const unknown = await fail(
      removePreview({ url: t.platform.url, app: "nope", token: t.platform.adminToken, branch: "feature/x" }),
    );
    expect(unknown.message).toContain('no app named "nope"');
  });

  it("runs the template workflow's remove-preview job when a branch is deleted, and only then", async () => {
    const deployed = await deployBuild({
      url: t.platform.url,
      app: "shop",
      token: deployToken,
      buildDir,
      branch: "fix/typo",
    });
    expect(deployed.deployment.status).toBe("preview");
    const workflow = await readWorkflow(TEMPLATE_WORKFLOW);
    const options = (event: Parameters<typeof runJob>[2]["event"]) => ({
      cwd: tmp,
      env: {},
      vars: { TRELLIS_URL: t.platform.url, TRELLIS_APP: "shop" },
      secrets: { TRELLIS_DEPLOY_TOKEN: deployToken },
      actions: { "trellis-dev/trellis/.github/actions/deploy": ACTION_DIR },
      tmp,
      event,
    });
    const deleteOf = (ref: string, refType: string) => ({
      name: "delete",
      refName: "main",
      payload: { ref, ref_type: refType },
    });
    // Neither a push nor a deleted tag runs it; a deletion does not build.
    expect(await runJob(workflow, "remove-preview", options({ name: "push", refName: "fix/typo" }))).toEqual(
      [],
    );
    expect(await runJob(workflow, "remove-preview", options(deleteOf("fix/typo", "tag")))).toEqual([]);
    expect(await runJob(workflow, "build", options(deleteOf("fix/typo", "branch")))).toEqual([]);

    const results = await runJob(workflow, "remove-preview", options(deleteOf("fix/typo", "branch")));
    expect(results.map((r) => r.step.name)).toEqual(["Remove the preview"]);
    expect(results[0]!.outputs?.["deployment-id"]).toBe(deployed.deployment.id);
    const { deployments } = (await t.api("GET", "/api/apps/shop/deployments")).body;
    expect(deployments.some((d: { id: string }) => d.id === deployed.deployment.id)).toBe(false);
  });
});
