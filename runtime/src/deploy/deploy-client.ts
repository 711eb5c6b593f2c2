import { readdir, stat } from "node:fs/promises";
import { resolve } from "node:path";
import * as tar from "tar";
import { TRANSPILED_DIR } from "../app/build-layout.ts";
/** A deployment as the control plane reports it (GET /api/apps/:app/deployments). */
export interface DeploymentRecord {
  id: string;
  status: "active" | "previous" | "failed" | "preview";
  createdAt: string;
  source: string;
  message: string | null;
  functions: string[];
  /** The branch deployed from, when the deploy named one. */
  branch?: string | null;
  /** Where a preview serves its pages and functions (`http://<app>--<branch>.<domain>`); null otherwise. */
  previewUrl?: string | null;
}

export interface DeployBuildOptions {
  /** The platform's base URL, e.g. http://localhost:8787. */
  url: string;
  app: string;
  /** The app's deploy token (or the admin token). */
  token: string;
  /** The build folder to upload (e.g. ./build). */
  buildDir: string;
  source?: "cli" | "action";
  /**
   * The git branch the build is from: `main` (or none) deploys to production, any other branch to that
   * branch's preview, served at its own URL beside production.
   */
  branch?: string;
  onProgress?: (message: string) => void;
}

export interface DeployBuildResult {
  deployment: DeploymentRecord;
  /** The app's GraphQL endpoint. */
  endpoint: string;
  /** Where the deployment's pages are served, when the build has a front end (`web`); else undefined. */
  siteUrl?: string;
}

/** A deploy that failed; `message` is meant for the user as is. */
export class DeployError extends Error {
  override name = "DeployError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Packs a build folder into a tar.gz (its contents at the archive root). */
export async function packBuild(buildDir: string): Promise<Buffer> {
  const dir = resolve(buildDir);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new DeployError(`${dir} is not a folder: run \`trellis build\` first`);
  // The platform trusts only the component and the manifest (it transpiles the component itself): the
  // local transpiled/ glue stays home.
  const entries = (await readdir(dir)).filter((e) => e !== TRANSPILED_DIR);
  if (entries.length === 0) throw new DeployError(`${dir} is empty: run \`trellis build\` first`);
  const chunks: Buffer[] = [];
  for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, entries)) {
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Uploads `buildDir` as a new deployment of `app`; used by `trellis deploy` and the GitHub Action. */
export async function deployBuild(options: DeployBuildOptions): Promise<DeployBuildResult> {
  const progress = options.onProgress ?? (() => {});
  const base = options.url.replace(/\/+$/, "");
  progress(`packing ${resolve(options.buildDir)}`);
  const archive = await packBuild(options.buildDir);
  const endpoint = `${base}/api/apps/${encodeURIComponent(options.app)}/deployments`;
  progress(`uploading ${archive.length} bytes to ${base}`);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${options.token}`,
        "Content-Type": "application/gzip",
        "X-Trellis-Deploy-Source": options.source ?? "cli",
        ...(options.branch ? { "X-Trellis-Deploy-Branch": options.branch } : {}),
      },
      body: new Uint8Array(archive),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new DeployError(
      `cannot reach the platform at ${base} (${cause?.code ?? cause?.message ?? (e as Error).message}): check the platform URL`,
    );
  }
  const text = await res.text();
  let body: {
    deployment?: DeploymentRecord;
    endpoint?: string;
    siteUrl?: string | null;
    error?: { code?: string; message?: string };
  } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not our platform (a proxy error page?): reported below with the status.
  }
  if (res.status === 401) {
    throw new DeployError(
      `the platform refused the deploy token for app "${options.app}": ${body.error?.message ?? "unauthorized"}`,
      401,
    );
  }
  if (res.status === 404) {
    throw new DeployError(
      body.error?.message ?? `no app "${options.app}" at ${base}: create it in the console`,
      404,
    );
  }
  if (!res.ok || !body.deployment) {
    const reason = body.error?.message ?? `HTTP ${res.status} ${text.slice(0, 200)}`;
    throw new DeployError(`deployment rejected: ${reason}`, res.status);
  }
  progress(
    body.deployment.previewUrl
      ? `deployment ${body.deployment.id} is the preview of ${options.branch}: ${body.deployment.previewUrl}`
      : `deployment ${body.deployment.id} is live`,
  );
  return {
    deployment: body.deployment,
    endpoint: body.endpoint ?? `${base}/apps/${options.app}/graphql`,
    ...(body.siteUrl ? { siteUrl: body.siteUrl } : {}),
  };
}

export interface RemovePreviewOptions {
  /** The platform's base URL, e.g. http://localhost:8787. */
  url: string;
  app: string;
  /** The app's deploy token (or the admin token). */
  token: string;
  /** The branch whose preview goes (a deleted branch, a closed pull request's head branch). */
  branch: string;
  onProgress?: (message: string) => void;
}

/**
 * Removes the preview a deploy from `branch` made; resolves to the removed deployment, or null when the
 * branch has none (a branch that was never deployed, or already removed: nothing to do is no failure).
 */
export async function removePreview(options: RemovePreviewOptions): Promise<DeploymentRecord | null> {
  const progress = options.onProgress ?? (() => {});
  const base = options.url.replace(/\/+$/, "");
  const app = encodeURIComponent(options.app);
  progress(`removing the preview of branch ${options.branch} from ${base}`);
  let res: Response;
  try {
    res = await fetch(`${base}/api/apps/${app}/previews/${encodeURIComponent(options.branch)}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${options.token}` },
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new DeployError(
      `cannot reach the platform at ${base} (${cause?.code ?? cause?.message ?? (e as Error).message}): check the platform URL`,
    );
  }
  const text = await res.text();
  let body: { deployment?: DeploymentRecord; error?: { code?: string; message?: string } } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not our platform (a proxy error page?): reported below with the status.
  }
  if (res.status === 401) {
    throw new DeployError(
      `the platform refused the deploy token for app "${options.app}": ${body.error?.message ?? "unauthorized"}`,
      401,
    );
  }
  if (res.status === 404 && body.error?.message?.includes("has no preview")) {
    progress(`branch ${options.branch} has no preview: nothing to remove`);
    return null;
  }
  if (!res.ok || !body.deployment) {
    const reason = body.error?.message ?? `HTTP ${res.status} ${text.slice(0, 200)}`;
    throw new DeployError(`removing the preview failed: ${reason}`, res.status);
  }
  progress(`removed deployment ${body.deployment.id}, the preview of ${options.branch}`);
  return body.deployment;
}
