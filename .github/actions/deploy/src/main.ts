/**
 * The deploy GitHub Action: uploads the build folder with the same client as `trellis deploy`, and
 * reports the endpoint and deployment id as step outputs. With `remove-preview: <branch>` it removes that
 * branch's preview instead (the workflow's job for deleted branches).
 */
import * as core from "@actions/core";
import { deployBuild, removePreview } from "@trellis/runtime";

export async function run(): Promise<void> {
  try {
    const token = core.getInput("token", { required: true });
    core.setSecret(token);
    const url = core.getInput("url", { required: true });
    const app = core.getInput("app", { required: true });
    const removed = core.getInput("remove-preview");
    if (removed) {
      const deployment = await removePreview({
        url,
        app,
        token,
        branch: removed,
        onProgress: (message) => core.info(message),
      });
      core.setOutput("deployment-id", deployment?.id ?? "");
      return;
    }
    const buildDir = core.getInput("build-dir") || "./build";
    // A pull request's head branch, else the pushed branch: main deploys to production, others to previews.
    const branch =
      core.getInput("branch") || process.env.GITHUB_HEAD_REF || process.env.GITHUB_REF_NAME || undefined;
    const { deployment, endpoint, siteUrl } = await deployBuild({
      url,
      app,
      token,
      buildDir,
      source: "action",
      branch,
      onProgress: (message) => core.info(message),
    });
    core.setOutput("endpoint", endpoint);
    core.setOutput("deployment-id", deployment.id);
    core.setOutput("preview-url", deployment.previewUrl ?? "");
    core.setOutput("site-url", siteUrl ?? "");
    core.info(`Deployed ${app} (${deployment.id}, functions: ${deployment.functions.join(", ") || "none"})`);
    if (siteUrl) core.info(`Site: ${siteUrl}`);
    core.info(`Endpoint: ${endpoint}`);
  } catch (e) {
    core.setFailed((e as Error).message);
  }
}

await run();
