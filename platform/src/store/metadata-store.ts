import type { ExecutionRecord } from "../app-runtime.ts";
import type { EnvCipher } from "../secrets/env-cipher.ts";
import { type ApiKeyRecord, ApiKeysTable } from "./api-keys-table.ts";
import { type AppRecord, AppsTable } from "./apps-table.ts";
import { type DeploymentRecord, DeploymentsTable, type NewDeployment } from "./deployments-table.ts";
import { type EnvVarRecord, EnvVarsTable } from "./env-vars-table.ts";
import { ExecutionBatcher } from "./execution-batcher.ts";
import {
  DEFAULT_RETENTION,
  type ExecutionFilter,
  type ExecutionPage,
  ExecutionsTable,
  type RetentionPolicy,
} from "./executions-table.ts";
import { GatewayLookups } from "./gateway-lookups.ts";
import { migrate } from "./migrations.ts";
import type { SqlDb } from "./sql-db.ts";

/**
 * The platform's metadata: apps, API keys, deploy tokens, env vars, deployments and activity, over one
 * SqlDb. Secrets never reach the database in clear: keys and tokens as SHA-256, env vars sealed.
 *
 * A facade: each table is its own class (`AppsTable`, `ApiKeysTable`, `EnvVarsTable`, `DeploymentsTable`,
 * `ExecutionsTable`); this class adds what spans them: the gateway's cached lookups (invalidated by the
 * writes that change them) and the batching of execution records (flushed before activity is read).
 */
export class MetadataStore {
  private readonly apps: AppsTable;
  private readonly apiKeys: ApiKeysTable;
  private readonly envVars: EnvVarsTable;
  private readonly deployments: DeploymentsTable;
  private readonly executions: ExecutionsTable;
  private readonly lookups: GatewayLookups;
  private readonly executionBatcher: ExecutionBatcher;

  private constructor(
    private readonly db: SqlDb,
    cipher: EnvCipher,
  ) {
    this.apps = new AppsTable(db);
    this.apiKeys = new ApiKeysTable(db);
    this.envVars = new EnvVarsTable(db, cipher);
    this.deployments = new DeploymentsTable(db);
    this.executions = new ExecutionsTable(db);
    this.lookups = new GatewayLookups(this.apps, this.apiKeys);
    this.executionBatcher = new ExecutionBatcher((batch) => this.executions.insert(batch));
  }

  /** Opens the store and migrates its schema. */
  static async open(db: SqlDb, cipher: EnvCipher): Promise<MetadataStore> {
    await migrate(db);
    return new MetadataStore(db, cipher);
  }

  async close(): Promise<void> {
    await this.flushExecutions();
    return this.db.close();
  }

  /** getApp for the gateway's hot path: cached briefly (`GatewayLookups`). */
  cachedApp(name: string): Promise<AppRecord | undefined> {
    return this.lookups.app(name);
  }

  /** findActiveApiKey for the gateway's hot path: cached briefly (`GatewayLookups`). */
  cachedActiveApiKey(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    return this.lookups.activeApiKey(app, presented);
  }

  // Apps and their deploy tokens (AppsTable) ------------------------------------------------------

  /** Creates an app and its first deploy token (returned once). */
  async createApp(name: string): Promise<{ app: AppRecord; deployToken: string }> {
    const created = await this.apps.create(name);
    this.lookups.invalidate(name);
    return created;
  }

  listApps(): Promise<AppRecord[]> {
    return this.apps.list();
  }

  getApp(name: string): Promise<AppRecord | undefined> {
    return this.apps.get(name);
  }

  /** The app, or a NOT_FOUND error. */
  requireApp(name: string): Promise<AppRecord> {
    return this.apps.require(name);
  }

  deleteApp(name: string): Promise<boolean> {
    this.lookups.invalidate(name);
    return this.apps.delete(name);
  }

  /** Replaces the app's deploy token; the old one stops working at once. */
  rotateDeployToken(app: string): Promise<string> {
    return this.apps.rotateDeployToken(app);
  }

  verifyDeployToken(app: string, presented: string): Promise<boolean> {
    return this.apps.verifyDeployToken(app, presented);
  }

  // API keys (ApiKeysTable) ----------------------------------------------------------------------

  createApiKey(app: string, name: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    this.lookups.invalidate(app);
    return this.apiKeys.create(app, name);
  }

  listApiKeys(app: string): Promise<ApiKeyRecord[]> {
    return this.apiKeys.list(app);
  }

  /** Revokes a key (idempotent); false if the app has no such key. */
  revokeApiKey(app: string, id: string): Promise<boolean> {
    this.lookups.invalidate(app);
    return this.apiKeys.revoke(app, id);
  }

  /** The unrevoked key of `app` whose secret is `presented`, or undefined. */
  findActiveApiKey(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    return this.apiKeys.findActive(app, presented);
  }

  touchApiKey(id: string): Promise<void> {
    return this.apiKeys.touch(id);
  }

  // Env vars (EnvVarsTable) ----------------------------------------------------------------------

  setEnvVar(app: string, name: string, value: string): Promise<EnvVarRecord> {
    return this.envVars.set(app, name, value);
  }

  deleteEnvVar(app: string, name: string): Promise<boolean> {
    return this.envVars.delete(app, name);
  }

  /** Decrypted env vars of an app, by name. */
  listEnvVars(app: string): Promise<EnvVarRecord[]> {
    return this.envVars.list(app);
  }

  /** The environment a loaded app sees. */
  envFor(app: string): Promise<Record<string, string>> {
    return this.envVars.envFor(app);
  }

  // Deployments (DeploymentsTable) ---------------------------------------------------------------

  addDeployment(app: string, d: NewDeployment): Promise<DeploymentRecord> {
    return this.deployments.add(app, d);
  }

  listDeployments(app: string): Promise<DeploymentRecord[]> {
    return this.deployments.list(app);
  }

  getDeployment(app: string, id: string): Promise<DeploymentRecord | undefined> {
    return this.deployments.get(app, id);
  }

  /** Records an accepted preview deployment as its preview's live one; returns the ids it replaced. */
  addPreviewDeployment(
    app: string,
    d: Omit<NewDeployment, "status"> & { preview: string },
  ): Promise<{ deployment: DeploymentRecord; replaced: string[] }> {
    return this.deployments.addPreview(app, d);
  }

  /** The live deployment of the app's preview `preview` (its branch, slugged). */
  previewDeployment(app: string, preview: string): Promise<DeploymentRecord | undefined> {
    return this.deployments.findPreview(app, preview);
  }

  /** Deletes a deployment other than the live one (a preview, a rollback target, a rejected upload). */
  removeDeployment(app: string, id: string): Promise<DeploymentRecord | undefined> {
    return this.deployments.remove(app, id);
  }

  /** Makes `id` the app's live deployment, in one transaction; the former one becomes "previous". */
  activateDeployment(app: string, id: string): Promise<DeploymentRecord> {
    this.lookups.invalidate(app);
    return this.deployments.activate(app, id).finally(() => this.lookups.invalidate(app));
  }

  /**
   * Deletes all but the newest `keep` good deployments (never the active one), and all but the newest
   * `keep` failed ones, so that rejected uploads never push out a rollback target. Returns deleted ids.
   */
  pruneDeployments(app: string, keep: number): Promise<string[]> {
    return this.deployments.prune(app, keep);
  }

  // Activity (ExecutionsTable, through the ExecutionBatcher) ------------------------------------

  /** Queues an execution; queued ones are written in batches (`ExecutionBatcher`). */
  recordExecution(app: string, e: ExecutionRecord): Promise<void> {
    return this.executionBatcher.add(app, e);
  }

  /** Writes every queued execution. */
  flushExecutions(): Promise<void> {
    return this.executionBatcher.flush();
  }

  /** Newest first, keyset-paginated by (startedAt, executionId); queued executions are written first. */
  async listExecutions(app: string, filter: ExecutionFilter = {}): Promise<ExecutionPage> {
    await this.flushExecutions();
    return this.executions.list(app, filter);
  }

  /** Applies the retention policy to every app; returns the number of executions deleted. */
  async pruneExecutions(policy: RetentionPolicy = DEFAULT_RETENTION): Promise<number> {
    await this.flushExecutions();
    return this.executions.prune(policy);
  }
}
