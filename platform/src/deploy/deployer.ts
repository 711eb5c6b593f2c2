import { loadManifest, STATIC_DIR } from "@trellis/runtime";
import type { Logger } from "pino";
import type { AppRuntime } from "../app-runtime.ts";
import type { AppInstances } from "../gateway/app-instances.ts";
import { PlatformError } from "../platform-error.ts";
import type { AppSites } from "../site/app-sites.ts";
import { checkSite, DEFAULT_SITE_LIMITS, type SiteLimits, type SiteSummary } from "../site/site-check.ts";
import { SiteFilesError } from "../site/site-files.ts";
import type { DeploymentRecord, DeploymentSource } from "../store/deployments-table.ts";
import type { MetadataStore } from "../store/metadata-store.ts";
import { sortableId } from "../store/sortable-id.ts";
import { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS, extractBuildArchive } from "./build-archive.ts";
import type { DeploymentStore } from "./deployment-store.ts";
import { previewOf } from "./preview-branch.ts";

const DEFAULT_MAX_PREVIEWS = 20;

export interface DeployerOptions {
  store: MetadataStore;
  runtime: AppRuntime;
  files: DeploymentStore;
  instances: AppInstances;
  logger: Logger;
  sites: AppSites;
  /** Deployments kept per app for rollback (default 10). */
  keep?: number;
  /** Live previews per app (default 20): each holds its files and, while in use, a loaded instance. */
  maxPreviews?: number;
  limits?: ArchiveLimits;
  /** Bounds of a deployment's static site (default DEFAULT_SITE_LIMITS). */
  siteLimits?: SiteLimits;
}

/**
 * The deploy pipeline: unpack, prepare (through the runtime: only the component and the manifest are
 * trusted, the component is transpiled here and must answer a smoke call), then switch in one transaction. Anything
 * that fails before the switch leaves the current deployment serving; a rejected upload is kept as a
 * "failed" deployment carrying the reason. The static site (`static/`) is part of the deployment's files,
 * checked before the switch, and switches (and rolls back) with the component and the manifest. A deploy
 * from a branch other than main becomes that branch's preview instead, beside production.
 */
export class Deployer {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: DeployerOptions) {}

  deploy(
    app: string,
    archive: Uint8Array,
    source: DeploymentSource,
    branch?: string,
  ): Promise<DeploymentRecord> {
    return this.serialized(app, () => this.deployNow(app, archive, source, branch));
  }

  /** Removes a deployment other than the live one: a preview (its URL stops serving), or an old one. */
  remove(app: string, id: string): Promise<DeploymentRecord> {
    return this.serialized(app, async () => {
      const { store, files, sites } = this.options;
      await store.requireApp(app);
      const removed = await store.removeDeployment(app, id);
      if (!removed) {
        const found = await store.getDeployment(app, id);
        if (found) {
          throw new PlatformError(
            "CONFLICT",
            `deployment ${id} is live: roll back to another one before removing it`,
          );
        }
        throw new PlatformError("NOT_FOUND", `app "${app}" has no deployment ${id}`);
      }
      await files.removeDeployment(app, id);
      if (removed.preview) sites.previewsChanged(app);
      this.options.logger.info({ app, deploymentId: id, preview: removed.preview }, "deployment removed");
      return removed;
    });
  }

  /**
   * Removes the preview a deploy from `branch` made (its branch was deleted, its pull request closed).
   * NOT_FOUND when the branch has no preview; BAD_REQUEST for main, which is production.
   */
  async removePreview(app: string, branch: string): Promise<DeploymentRecord> {
    const preview = previewOf(app, branch);
    if (preview === undefined) {
      throw new PlatformError("BAD_REQUEST", `"${branch}" deploys to production, not to a preview`);
    }
    await this.options.store.requireApp(app);
    const found = await this.options.store.previewDeployment(app, preview);
    // A preview of the same name made by another branch is not this branch's to remove.
    if (!found || (found.branch !== null && found.branch !== branch)) {
      throw new PlatformError("NOT_FOUND", `app "${app}" has no preview of branch "${branch}"`);
    }
    return this.remove(app, found.id);
  }

  /** Makes an earlier deployment live again. */
  rollback(app: string, id: string): Promise<DeploymentRecord> {
    return this.serialized(app, async () => {
      const { store, files, instances } = this.options;
      const target = await store.getDeployment(app, id);
      if (!target) throw new PlatformError("NOT_FOUND", `app "${app}" has no deployment ${id}`);
      if (target.status === "failed") {
        throw new PlatformError(
          "BAD_REQUEST",
          `deployment ${id} was rejected (${target.message}); it cannot go live`,
        );
      }
      await files.buildDir(app, id).catch((e: Error) => {
        throw new PlatformError("CONFLICT", e.message);
      });
      const record = await store.activateDeployment(app, id);
      instances.invalidate(app);
      this.options.logger.info({ app, deploymentId: id }, "rolled back");
      return record;
    });
  }

  private async deployNow(
    app: string,
    archive: Uint8Array,
    source: DeploymentSource,
    branch: string | undefined,
  ): Promise<DeploymentRecord> {
    const { store, files, runtime, instances, logger, sites } = this.options;
    const current = await store.requireApp(app);
    const preview = previewOf(app, branch);
    if (preview) await this.checkPreviewRoom(app, preview, branch as string);
    const id = sortableId();
    const origin = { branch: branch || null, preview: preview ?? null };
    let functions: string[];
    let site: SiteSummary | undefined;
    try {
      await extractBuildArchive(
        archive,
        files.deploymentDir(app, id),
        this.options.limits ?? DEFAULT_ARCHIVE_LIMITS,
      );
      const buildDir = await files.buildDir(app, id);
      site = await this.checkStaticSite(buildDir);
      ({ functions } = await runtime.prepareBuild(buildDir));
    } catch (e) {
      const reason =
        e instanceof PlatformError || e instanceof SiteFilesError
          ? e.message
          : `the build is invalid: ${(e as Error).message}`;
      const message = reason.replace(/\.\s*$/, "");
      await files.removeDeployment(app, id);
      await store.addDeployment(app, { id, status: "failed", source, message, functions: [], ...origin });
      logger.warn({ app, deploymentId: id, reason: message }, "deployment rejected");
      const serving = preview
        ? (await store.previewDeployment(app, preview))?.id
        : (current.activeDeploymentId ?? undefined);
      const outcome = serving ? `deployment ${serving} keeps serving` : "nothing was deployed";
      throw new PlatformError("DEPLOY_REJECTED", `${message}; ${outcome}`);
    }
    if (preview) {
      const { deployment, replaced } = await store.addPreviewDeployment(app, {
        id,
        source,
        message: null,
        functions,
        ...origin,
        preview,
        site: site ?? null,
      });
      for (const old of replaced) await files.removeDeployment(app, old);
      sites.previewsChanged(app);
      logger.info({ app, deploymentId: id, preview, functions }, "preview deployed");
      return deployment;
    }
    await store.addDeployment(app, {
      id,
      status: "previous",
      source,
      message: null,
      functions,
      ...origin,
      site: site ?? null,
    });
    const record = await store.activateDeployment(app, id);
    instances.invalidate(app);
    logger.info({ app, deploymentId: id, functions }, "deployed");
    for (const old of await store.pruneDeployments(app, this.options.keep ?? 10)) {
      await files.removeDeployment(app, old);
    }
    return record;
  }

  /** A new preview (not a redeploy of a live one) must fit within `maxPreviews`. */
  /**
   * A preview may be deployed: its name is not another branch's (`feature/new-ui` and `feature-new-ui`
   * both make `feature-new-ui`: the second is refused rather than replacing the first's preview), and the
   * app has room for one more.
   */
  private async checkPreviewRoom(app: string, preview: string, branch: string): Promise<void> {
    const max = this.options.maxPreviews ?? DEFAULT_MAX_PREVIEWS;
    const live = (await this.options.store.listDeployments(app)).filter((d) => d.status === "preview");
    const owner = live.find((d) => d.preview === preview && d.branch !== null && d.branch !== branch);
    if (owner) {
      throw new PlatformError(
        "CONFLICT",
        `branch "${branch}" would deploy to preview "${preview}", which is branch "${owner.branch}"'s: rename the branch, or remove that preview first (DELETE /api/apps/${app}/deployments/${owner.id})`,
      );
    }
    if (live.length >= max && !live.some((d) => d.preview === preview)) {
      throw new PlatformError(
        "DEPLOY_REJECTED",
        `app "${app}" already has ${live.length} previews, the most it may have: remove one (DELETE /api/apps/${app}/deployments/<id>) and deploy again`,
      );
    }
  }

  /**
   * Holds the build's static site to its limits before it may go live; a manifest with `web` needs one.
   * A manifest that does not parse is left to the runtime's check, which explains it. Returns what the
   * site holds, or undefined when the build has none.
   */
  private async checkStaticSite(buildDir: string): Promise<SiteSummary | undefined> {
    const manifest = await loadManifest(buildDir).then(
      (loaded) => loaded.manifest,
      () => undefined,
    );
    const site = await checkSite(
      buildDir,
      manifest?.web?.spaFallback ?? false,
      this.options.siteLimits ?? DEFAULT_SITE_LIMITS,
    );
    if (!site && manifest?.web) {
      throw new SiteFilesError(
        `trellis.json has "web" but the build has no ${STATIC_DIR}/ folder: build the front end with \`trellis build\``,
      );
    }
    return site;
  }

  private serialized<T>(app: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(app) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    this.queues.set(app, tail);
    void tail.then(() => {
      if (this.queues.get(app) === tail) this.queues.delete(app);
    });
    return run;
  }
}
