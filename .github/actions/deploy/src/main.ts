/**
 * The deploy GitHub Action: uploads the build folder with the same client as `trellis deploy`, and
 * reports the endpoint and deployment id as step outputs.
 */
import * as core from "@actions/core";
import { deployBuild } from "@trellis/runtime";

export async function run(): Promise<void> {
  try {
    const token = core.getInput("token", { required: true });
    core.setSecret(token);
    const url = core.getInput("url", { required: true });
    const app = core.getInput("app", { required: true });
    const buildDir = core.getInput("build-dir") || "./build";
    const { deployment, endpoint } = await deployBuild({
      url,
      app,
      token,
      buildDir,
      source: "action",
      onProgress: (message) => core.info(message),
    });
    core.setOutput("endpoint", endpoint);
    core.setOutput("deployment-id", deployment.id);
    core.info(`Deployed ${app} (${deployment.id}, functions: ${deployment.functions.join(", ") || "none"})`);
    core.info(`Endpoint: ${endpoint}`);
  } catch (e) {
    core.setFailed((e as Error).message);
  }
}

await run();
