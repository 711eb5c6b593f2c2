import { join, resolve } from "node:path";
import { deployBuild } from "@trellis/runtime";
import pc from "picocolors";
import type { Terminal } from "./terminal.ts";

/** `trellis deploy`: uploads ./build to the platform with the app's deploy token. */
export async function runDeploy(
  appDir: string,
  options: { url: string; app: string; token: string; branch?: string },
  term: Terminal,
): Promise<void> {
  const buildDir = join(resolve(appDir), "build");
  const result = await term.step(`Deploying ${options.app} to ${options.url}`, () =>
    deployBuild({
      url: options.url,
      app: options.app,
      token: options.token,
      buildDir,
      source: "cli",
      branch: options.branch,
    }),
  );
  term.success(`Deployed ${pc.bold(options.app)} (deployment ${result.deployment.id})`);
  if (result.deployment.previewUrl) term.info(`Preview: ${pc.cyan(result.deployment.previewUrl)}`);
  else if (result.siteUrl) term.info(`Site: ${pc.cyan(result.siteUrl)}`);
  term.info(`Endpoint: ${pc.cyan(result.endpoint)}`);
}
