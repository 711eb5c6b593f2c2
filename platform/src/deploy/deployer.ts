import type { Logger } from "pino";
import type { AppRuntime } from "../app-runtime.ts";
import type { AppInstances } from "../gateway/app-instances.ts";
import { PlatformError } from "../platform-error.ts";
import type { DeploymentRecord, DeploymentSource } from "../store/deployments-table.ts";
import type { MetadataStore } from "../store/metadata-store.ts";
import { sortableId } from "../store/sortable-id.ts";
import { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS, extractBuildArchive } from "./build-archive.ts";
import type { DeploymentStore } from "./deployment-store.ts";

export interface DeployerOptions {
  store: MetadataStore;
  runtime: AppRuntime;
  files: DeploymentStore;
  instances: AppInstances;
  logger: Logger;
  /** Deployments kept per app for rollback (default 10). */
  keep?: number;
  limits?: ArchiveLimits;
}

/**
 * The deploy pipeline: unpack, prepare (through the runtime: only the component and the manifest are
 * trusted, the component is transpiled here and must answer a smoke call), then switch in one transaction. Anything
 * that fails before the switch leaves the current deployment serving; a rejected upload is kept as a
 * "failed" deployment carrying the reason.
 */
export class Deployer {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: DeployerOptions) {}

  deploy(app: string, archive: Uint8Array, source: DeploymentSource): Promise<DeploymentRecord> {
    return this.serialized(app, () => this.deployNow(app, archive, source));
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
  ): Promise<DeploymentRecord> {
    const { store, files, runtime, instances, logger } = this.options;
    const current = await store.requireApp(app);
    const id = sortableId();
    let functions: string[];
    try {
      await extractBuildArchive(
        archive,
        files.deploymentDir(app, id),
        this.options.limits ?? DEFAULT_ARCHIVE_LIMITS,
      );
      ({ functions } = await runtime.prepareBuild(await files.buildDir(app, id)));
    } catch (e) {
      const reason = e instanceof PlatformError ? e.message : `the build is invalid: ${(e as Error).message}`;
      const message = reason.replace(/\.\s*$/, "");
      await files.removeDeployment(app, id);
      await store.addDeployment(app, { id, status: "failed", source, message, functions: [] });
      logger.warn({ app, deploymentId: id, reason: message }, "deployment rejected");
      const outcome = current.activeDeploymentId
        ? `deployment ${current.activeDeploymentId} keeps serving`
        : "nothing was deployed";
      throw new PlatformError("DEPLOY_REJECTED", `${message}; ${outcome}`);
    }
    await store.addDeployment(app, { id, status: "previous", source, message: null, functions });
    const record = await store.activateDeployment(app, id);
    instances.invalidate(app);
    logger.info({ app, deploymentId: id, functions }, "deployed");
    for (const old of await store.pruneDeployments(app, this.options.keep ?? 10)) {
      await files.removeDeployment(app, old);
    }
    return record;
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
