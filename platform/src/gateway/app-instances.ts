import type { LambdaRequest } from "@trellis/graphdb";
import type { EgressOptions } from "@trellis/runtime";
import type { Logger } from "pino";
import type { AppRuntime, ExecutionRecord, LoadedApp, RequestAuth } from "../app-runtime.ts";
import type { DeploymentStore } from "../deploy/deployment-store.ts";
import type { PlatformMetrics } from "../metrics.ts";
import type { AppRecord } from "../store/apps-table.ts";
import type { MetadataStore } from "../store/metadata-store.ts";

/** One loaded deployment of an app, shared by the requests in flight. */
interface Instance {
  deploymentId: string;
  loaded: Promise<LoadedApp>;
  inFlight: number;
  /** Set when replaced or idle: unloaded once the last request in flight ends. */
  retired: boolean;
}

export type AppRunState = "running" | "idle" | "not-deployed";

export interface AppInstancesOptions {
  store: MetadataStore;
  runtime: AppRuntime;
  files: DeploymentStore;
  metrics: PlatformMetrics;
  logger: Logger;
  /** Idle time after which an app is unloaded (scale to zero). */
  idleMs: number;
  /** Where apps' connections may go (the runtime's egress policy, as plain options). */
  egress?: EgressOptions;
  /** The app's own graph database connection (`dgraph://`, with its credentials), if the platform serves one. */
  graphConnection?: (app: string) => Promise<string | undefined>;
}

/**
 * The apps this node serves: loads an app's active deployment on its first request (cold start), unloads
 * it after `idleMs` without requests (scale to zero), and swaps in a new deployment or new env vars
 * without dropping requests in flight.
 */
export class AppInstances {
  private readonly instances = new Map<string, Instance>();
  private readonly lastRequest = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: AppInstancesOptions) {}

  /**
   * Serves a request with the app's active deployment, or with the live deployment of one of its
   * previews (loaded beside production, as `<app>--<preview>`), loading it if needed.
   */
  fetch(
    app: AppRecord,
    request: Request,
    preview?: { name: string; deploymentId: string },
    auth: RequestAuth = {},
    endpointPath?: string,
  ): Promise<Response> {
    return this.serve(app, preview, (loaded) => loaded.fetch(request, auth, endpointPath));
  }

  /**
   * Calls the function behind one of the graph database's `@lambda` fields with the app's active
   * deployment, loading it if needed: a request like any other (idle time, replaced deployments).
   */
  lambda(app: AppRecord, request: LambdaRequest): Promise<unknown> {
    return this.serve(app, undefined, (loaded) => {
      if (loaded.lambda === undefined) {
        throw new Error(`app ${app.name}: this platform's runtime does not serve @lambda fields`);
      }
      return loaded.lambda(request);
    });
  }

  private async serve<T>(
    app: AppRecord,
    preview: { name: string; deploymentId: string } | undefined,
    use: (loaded: LoadedApp) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error("the platform is shutting down");
    const deploymentId = preview ? preview.deploymentId : app.activeDeploymentId;
    if (!deploymentId) throw new Error(`app ${app.name} has no active deployment`);
    const key = preview ? `${app.name}--${preview.name}` : app.name;
    this.lastRequest.set(key, Date.now());
    let instance = this.instances.get(key);
    if (!instance || instance.deploymentId !== deploymentId) {
      if (instance) this.retire(key, instance, "replaced");
      instance = this.load(app.name, key, deploymentId);
    }
    instance.inFlight++;
    try {
      return await use(await instance.loaded);
    } finally {
      instance.inFlight--;
      this.lastRequest.set(key, Date.now());
      if (instance.retired && instance.inFlight === 0) void this.dispose(key, instance);
    }
  }

  state(app: AppRecord): AppRunState {
    if (!app.activeDeploymentId) return "not-deployed";
    return this.instances.has(app.name) ? "running" : "idle";
  }

  lastRequestAt(app: string): string | null {
    const at = this.lastRequest.get(app);
    return at === undefined ? null : new Date(at).toISOString();
  }

  /**
   * Drops the loaded instance of `app` (new deployment, changed env vars, deleted app): the next request
   * loads the current state. Requests in flight finish on the old instance.
   */
  invalidate(app: string, reason: "replaced" | "deleted" = "replaced"): void {
    for (const [key, instance] of [...this.instances]) {
      if (key === app || key.startsWith(`${app}--`)) this.retire(key, instance, reason);
    }
    if (reason === "deleted") this.lastRequest.delete(app);
  }

  /** Unloads apps idle for `idleMs` or more; returns their names. */
  sweepIdle(now = Date.now()): string[] {
    const unloaded: string[] = [];
    for (const [app, instance] of this.instances) {
      if (instance.inFlight > 0) continue;
      if (now - (this.lastRequest.get(app) ?? 0) >= this.options.idleMs) {
        this.retire(app, instance, "idle");
        unloaded.push(app);
      }
    }
    return unloaded;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.instances.entries()];
    this.instances.clear();
    this.options.metrics.loadedApps.set(0);
    await Promise.all(
      all.map(async ([app, instance]) => {
        this.options.metrics.unloads.inc({ app, reason: "shutdown" });
        const loaded = await instance.loaded.catch(() => undefined);
        await loaded?.close().catch((e) => this.options.logger.warn({ app, err: e }, "closing app failed"));
      }),
    );
  }

  /** Loads `app`'s deployment `deploymentId` as the instance `key` (the app, or `<app>--<preview>`). */
  private load(app: string, key: string, deploymentId: string): Instance {
    const { runtime, store, files, metrics, logger } = this.options;
    const started = performance.now();
    const loaded = (async () => {
      const env = await store.envFor(app);
      const graphdb = await this.options.graphConnection?.(app);
      return runtime.loadApp(await files.buildDir(app, deploymentId), {
        appName: app,
        env,
        ...(graphdb ? { graphdb } : {}),
        egress: this.options.egress ?? {},
        onExecution: (e) => this.record(app, e),
      });
    })();
    const instance: Instance = { deploymentId, loaded, inFlight: 0, retired: false };
    this.instances.set(key, instance);
    metrics.coldStarts.inc({ app });
    metrics.loadedApps.set(this.instances.size);
    loaded.then(
      () => logger.info({ app, deploymentId, ms: Math.round(performance.now() - started) }, "app cold start"),
      (err) => {
        logger.error({ app, deploymentId, err }, "app failed to load");
        // Forget it so that the next request tries again.
        if (this.instances.get(key) === instance) {
          this.instances.delete(key);
          metrics.loadedApps.set(this.instances.size);
        }
      },
    );
    return instance;
  }

  private retire(app: string, instance: Instance, reason: string): void {
    if (this.instances.get(app) === instance) this.instances.delete(app);
    this.options.metrics.loadedApps.set(this.instances.size);
    if (instance.retired) return;
    instance.retired = true;
    this.options.metrics.unloads.inc({ app, reason });
    this.options.logger.info({ app, deploymentId: instance.deploymentId, reason }, "app unloaded");
    if (instance.inFlight === 0) void this.dispose(app, instance);
  }

  /**
   * A retired instance is never used again (the next request loads a fresh one): close it, not just
   * unload it, so its workers and its connections (SQL pools, gRPC clients) go with it.
   */
  private async dispose(app: string, instance: Instance): Promise<void> {
    const loaded = await instance.loaded.catch(() => undefined);
    await loaded?.close().catch((err) => this.options.logger.warn({ app, err }, "closing app failed"));
  }

  private record(app: string, execution: ExecutionRecord): void {
    this.options.metrics.executions.inc({ app, status: execution.status });
    this.options.store
      .recordExecution(app, execution)
      .catch((err) => this.options.logger.warn({ app, err }, "recording an execution failed"));
  }
}
