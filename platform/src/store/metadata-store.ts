import { randomBytes } from "node:crypto";
import type { ExecutionRecord, LogLine } from "../app-runtime.ts";
import { PlatformError } from "../platform-error.ts";
import type { EnvCipher } from "../secrets/env-cipher.ts";
import { hashToken, type IssuedToken, issueToken, sameBytes } from "../secrets/tokens.ts";
import { LookupCache } from "./lookup-cache.ts";
import { migrate } from "./migrations.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

export interface AppRecord {
  name: string;
  createdAt: string;
  activeDeploymentId: string | null;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface EnvVarRecord {
  name: string;
  value: string;
  updatedAt: string;
}

export type DeploymentStatus = "active" | "previous" | "failed";
export type DeploymentSource = "cli" | "action" | "api";

export interface DeploymentRecord {
  id: string;
  status: DeploymentStatus;
  createdAt: string;
  source: DeploymentSource;
  message: string | null;
  functions: string[];
}

export interface StoredExecution {
  executionId: string;
  function: string;
  status: "success" | "error";
  durationMs: number;
  startedAt: string;
  logs: LogLine[];
  error: string | null;
}

export interface ExecutionFilter {
  limit?: number;
  /** The `nextCursor` of the previous page. */
  before?: string;
  status?: "success" | "error";
  function?: string;
}

export interface ExecutionPage {
  executions: StoredExecution[];
  nextCursor: string | null;
}

export interface RetentionPolicy {
  /** Newest executions kept per app. */
  maxPerApp: number;
  /** Older executions are deleted. */
  maxAgeMs: number;
  /** Stored bytes (logs and error text) kept per app, newest first: the rest is deleted. */
  maxBytesPerApp: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  maxPerApp: 10_000,
  maxAgeMs: 7 * 24 * 3600_000,
  maxBytesPerApp: 64 * 1024 * 1024,
};

/** App names: DNS labels, since an app is also served at `<app>.<host>`. */
export const APP_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** A time-sortable id (base-36 milliseconds, then random). */
export function sortableId(): string {
  return Date.now().toString(36).padStart(9, "0") + randomBytes(6).toString("hex");
}

/** How stale a gateway lookup may be on a node that did not make the change itself. */
const LOOKUP_TTL_MS = 1_000;
const EXECUTION_FLUSH_MS = 200;
const EXECUTION_BATCH = 200;
/** Executions waiting to be written, at most: beyond it (the database falling behind) the oldest go. */
const MAX_PENDING_EXECUTIONS = 20_000;
/** An execution's error text is stored up to this many characters. */
const MAX_ERROR_CHARS = 8_192;
/** Per stored execution, beyond its logs and error: ids, times, index entries. */
const ROW_OVERHEAD_BYTES = 200;

const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));
const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

/**
 * The platform's metadata: apps, API keys, deploy tokens, env vars, deployments and activity, over one
 * SqlDb. Secrets never reach the database in clear: keys and tokens as SHA-256, env vars sealed.
 */
export class MetadataStore {
  /** Gateway lookups (app record, presented API key), cached briefly; this node's writes invalidate. */
  private readonly lookups = new LookupCache<unknown>(LOOKUP_TTL_MS);
  /** Executions waiting to be written in one multi-row INSERT. */
  private pendingExecutions: { app: string; e: ExecutionRecord }[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: SqlDb,
    private readonly cipher: EnvCipher,
  ) {}

  /** Opens the store and migrates its schema. */
  static async open(db: SqlDb, cipher: EnvCipher): Promise<MetadataStore> {
    await migrate(db);
    return new MetadataStore(db, cipher);
  }

  async close(): Promise<void> {
    await this.flushExecutions();
    return this.db.close();
  }

  /** getApp for the gateway's hot path: cached for LOOKUP_TTL_MS. */
  cachedApp(name: string): Promise<AppRecord | undefined> {
    return this.lookups.get(name, `app:${name}`, () => this.getApp(name)) as Promise<AppRecord | undefined>;
  }

  /** findActiveApiKey for the gateway's hot path: cached (by hash) for LOOKUP_TTL_MS. */
  cachedActiveApiKey(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    const hash = Buffer.from(hashToken(presented)).toString("base64");
    return this.lookups.get(app, `key:${app}:${hash}`, () =>
      this.findActiveApiKey(app, presented),
    ) as Promise<ApiKeyRecord | undefined>;
  }

  // Apps -----------------------------------------------------------------------------------------

  /** Creates an app and its first deploy token (returned once). */
  async createApp(name: string): Promise<{ app: AppRecord; deployToken: string }> {
    if (!APP_NAME.test(name)) {
      throw new PlatformError(
        "BAD_REQUEST",
        `invalid app name "${name}": use 1-63 lower-case letters, digits and inner hyphens (a DNS label)`,
      );
    }
    const token = issueToken("deploy-token");
    const rows = await this.db.query(
      `INSERT INTO apps (name, deploy_token_hash, deploy_token_prefix) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO NOTHING RETURNING *`,
      [name, token.hash, token.prefix],
    );
    if (rows.length === 0) throw new PlatformError("CONFLICT", `an app named "${name}" already exists`);
    this.lookups.invalidate(name);
    return { app: appRecord(rows[0]), deployToken: token.secret };
  }

  async listApps(): Promise<AppRecord[]> {
    return (await this.db.query("SELECT * FROM apps ORDER BY name")).map(appRecord);
  }

  async getApp(name: string): Promise<AppRecord | undefined> {
    const rows = await this.db.query("SELECT * FROM apps WHERE name = $1", [name]);
    return rows[0] && appRecord(rows[0]);
  }

  /** The app, or a NOT_FOUND error. */
  async requireApp(name: string): Promise<AppRecord> {
    const app = await this.getApp(name);
    if (!app) throw new PlatformError("NOT_FOUND", `no app named "${name}"; create it first`);
    return app;
  }

  async deleteApp(name: string): Promise<boolean> {
    this.lookups.invalidate(name);
    return (await this.db.query("DELETE FROM apps WHERE name = $1 RETURNING name", [name])).length > 0;
  }

  // Deploy tokens --------------------------------------------------------------------------------

  /** Replaces the app's deploy token; the old one stops working at once. */
  async rotateDeployToken(app: string): Promise<string> {
    const token = issueToken("deploy-token");
    const rows = await this.db.query(
      "UPDATE apps SET deploy_token_hash = $2, deploy_token_prefix = $3 WHERE name = $1 RETURNING name",
      [app, token.hash, token.prefix],
    );
    if (rows.length === 0) throw new PlatformError("NOT_FOUND", `no app named "${app}"`);
    return token.secret;
  }

  async verifyDeployToken(app: string, presented: string): Promise<boolean> {
    const rows = await this.db.query<{ deploy_token_hash: Uint8Array }>(
      "SELECT deploy_token_hash FROM apps WHERE name = $1",
      [app],
    );
    return rows.length > 0 && sameBytes(hashToken(presented), rows[0].deploy_token_hash);
  }

  // API keys -------------------------------------------------------------------------------------

  async createApiKey(app: string, name: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    this.lookups.invalidate(app);
    const token: IssuedToken = issueToken("api-key");
    const rows = await this.db.query(
      "INSERT INTO api_keys (id, app, name, prefix, hash) VALUES ($1, $2, $3, $4, $5) RETURNING *",
      [sortableId(), app, name, token.prefix, token.hash],
    );
    return { key: apiKeyRecord(rows[0]), secret: token.secret };
  }

  async listApiKeys(app: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query("SELECT * FROM api_keys WHERE app = $1 ORDER BY created_at, id", [app]);
    return rows.map(apiKeyRecord);
  }

  /** Revokes a key (idempotent); false if the app has no such key. */
  async revokeApiKey(app: string, id: string): Promise<boolean> {
    this.lookups.invalidate(app);
    const rows = await this.db.query(
      "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE app = $1 AND id = $2 RETURNING id",
      [app, id],
    );
    return rows.length > 0;
  }

  /** The unrevoked key of `app` whose secret is `presented`, or undefined. */
  async findActiveApiKey(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashToken(presented);
    const rows = await this.db.query(
      "SELECT * FROM api_keys WHERE hash = $1 AND app = $2 AND revoked_at IS NULL",
      [hash, app],
    );
    const row = rows[0];
    if (!row || !sameBytes(hash, row.hash as Uint8Array)) return undefined;
    return apiKeyRecord(row);
  }

  async touchApiKey(id: string): Promise<void> {
    await this.db.query("UPDATE api_keys SET last_used_at = now() WHERE id = $1", [id]);
  }

  // Env vars -------------------------------------------------------------------------------------

  async setEnvVar(app: string, name: string, value: string): Promise<EnvVarRecord> {
    if (!ENV_VAR_NAME.test(name)) {
      throw new PlatformError(
        "BAD_REQUEST",
        `invalid env var name "${name}": use A-Z, 0-9 and _ (not first digit)`,
      );
    }
    const rows = await this.db.query(
      `INSERT INTO env_vars (app, name, sealed) VALUES ($1, $2, $3)
       ON CONFLICT (app, name) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()
       RETURNING updated_at`,
      [app, name, this.cipher.seal(app, name, value)],
    );
    return { name, value, updatedAt: iso(rows[0].updated_at) };
  }

  async deleteEnvVar(app: string, name: string): Promise<boolean> {
    const rows = await this.db.query("DELETE FROM env_vars WHERE app = $1 AND name = $2 RETURNING name", [
      app,
      name,
    ]);
    return rows.length > 0;
  }

  /** Decrypted env vars of an app, by name. */
  async listEnvVars(app: string): Promise<EnvVarRecord[]> {
    const rows = await this.db.query("SELECT * FROM env_vars WHERE app = $1 ORDER BY name", [app]);
    return rows.map((r) => ({
      name: String(r.name),
      value: this.cipher.open(app, String(r.name), r.sealed as Uint8Array),
      updatedAt: iso(r.updated_at),
    }));
  }

  /** The environment a loaded app sees. */
  async envFor(app: string): Promise<Record<string, string>> {
    return Object.fromEntries((await this.listEnvVars(app)).map((v) => [v.name, v.value]));
  }

  // Deployments ----------------------------------------------------------------------------------

  async addDeployment(
    app: string,
    d: {
      id: string;
      status: "failed" | "previous";
      source: DeploymentSource;
      message: string | null;
      functions: string[];
    },
  ): Promise<DeploymentRecord> {
    const rows = await this.db.query(
      `INSERT INTO deployments (id, app, status, source, message, functions) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING *`,
      [d.id, app, d.status, d.source, d.message, JSON.stringify(d.functions)],
    );
    return deploymentRecord(rows[0]);
  }

  async listDeployments(app: string): Promise<DeploymentRecord[]> {
    const rows = await this.db.query(
      "SELECT * FROM deployments WHERE app = $1 ORDER BY created_at DESC, id DESC",
      [app],
    );
    return rows.map(deploymentRecord);
  }

  async getDeployment(app: string, id: string): Promise<DeploymentRecord | undefined> {
    const rows = await this.db.query("SELECT * FROM deployments WHERE app = $1 AND id = $2", [app, id]);
    return rows[0] && deploymentRecord(rows[0]);
  }

  /** Makes `id` the app's live deployment, in one transaction; the former one becomes "previous". */
  async activateDeployment(app: string, id: string): Promise<DeploymentRecord> {
    this.lookups.invalidate(app);
    return this.db
      .transaction(async (tx) => {
        const target = await tx.query("SELECT * FROM deployments WHERE app = $1 AND id = $2 FOR UPDATE", [
          app,
          id,
        ]);
        if (target.length === 0) throw new PlatformError("NOT_FOUND", `app "${app}" has no deployment ${id}`);
        if (target[0].status === "failed") {
          throw new PlatformError(
            "BAD_REQUEST",
            `deployment ${id} failed validation and cannot be made live`,
          );
        }
        await tx.query("UPDATE deployments SET status = 'previous' WHERE app = $1 AND status = 'active'", [
          app,
        ]);
        const rows = await tx.query("UPDATE deployments SET status = 'active' WHERE id = $1 RETURNING *", [
          id,
        ]);
        await tx.query("UPDATE apps SET active_deployment_id = $2 WHERE name = $1", [app, id]);
        return deploymentRecord(rows[0]);
      })
      .finally(() => this.lookups.invalidate(app));
  }

  /**
   * Deletes all but the newest `keep` good deployments (never the active one), and all but the newest
   * `keep` failed ones, so that rejected uploads never push out a rollback target. Returns deleted ids.
   */
  async pruneDeployments(app: string, keep: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM deployments WHERE app = $1 AND status <> 'active' AND id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY status = 'failed' ORDER BY created_at DESC, id DESC) AS rn
           FROM deployments WHERE app = $1) ranked
         WHERE rn > $2)
       RETURNING id`,
      [app, keep],
    );
    return rows.map((r) => r.id);
  }

  // Activity -------------------------------------------------------------------------------------

  /**
   * Queues an execution; queued ones are written together (one multi-row INSERT) within
   * EXECUTION_FLUSH_MS, or at once when EXECUTION_BATCH are waiting. Reads of activity flush first.
   */
  recordExecution(app: string, e: ExecutionRecord): Promise<void> {
    if (this.pendingExecutions.length >= MAX_PENDING_EXECUTIONS) this.pendingExecutions.shift();
    const error =
      e.error && e.error.length > MAX_ERROR_CHARS ? `${e.error.slice(0, MAX_ERROR_CHARS)}…` : e.error;
    this.pendingExecutions.push({ app, e: error === e.error ? e : { ...e, error } });
    if (this.pendingExecutions.length >= EXECUTION_BATCH) return this.flushExecutions();
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flushExecutions().catch(() => {}), EXECUTION_FLUSH_MS);
      this.flushTimer.unref();
    }
    return Promise.resolve();
  }

  /** Writes every queued execution. */
  flushExecutions(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pendingExecutions;
    this.pendingExecutions = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      const params: unknown[] = [];
      const rows = batch.map(({ app, e }) => {
        const base = params.length;
        params.push(
          app,
          e.executionId,
          e.function,
          e.status,
          e.durationMs,
          e.startedAt,
          JSON.stringify(e.logs),
          e.error ?? null,
        );
        return `(${Array.from({ length: 8 }, (_, i) => `$${base + i + 1}`).join(", ")})`;
      });
      await this.db.query(
        `INSERT INTO executions (app, execution_id, function, status, duration_ms, started_at, logs, error)
         VALUES ${rows.join(", ")} ON CONFLICT DO NOTHING`,
        params,
      );
    });
    return this.flushing;
  }

  /** Newest first, keyset-paginated by (startedAt, executionId). */
  async listExecutions(app: string, filter: ExecutionFilter = {}): Promise<ExecutionPage> {
    await this.flushExecutions();
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 500);
    const where = ["app = $1"];
    const params: unknown[] = [app];
    if (filter.status) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.function) {
      params.push(filter.function);
      where.push(`function = $${params.length}`);
    }
    if (filter.before) {
      const cursor = decodeCursor(filter.before);
      params.push(cursor.startedAt, cursor.executionId);
      where.push(`(started_at, execution_id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const rows = await this.db.query(
      `SELECT * FROM executions WHERE ${where.join(" AND ")}
       ORDER BY started_at DESC, execution_id DESC LIMIT $${params.length}`,
      params,
    );
    const executions = rows.slice(0, limit).map(executionRecord);
    const last = executions[executions.length - 1];
    return {
      executions,
      nextCursor: rows.length > limit && last ? encodeCursor(last.startedAt, last.executionId) : null,
    };
  }

  /** Applies the retention policy to every app; returns the number of executions deleted. */
  async pruneExecutions(policy: RetentionPolicy = DEFAULT_RETENTION): Promise<number> {
    await this.flushExecutions();
    const byAge = await this.db.query(
      "DELETE FROM executions WHERE started_at < now() - $1 * interval '1 millisecond' RETURNING execution_id",
      [policy.maxAgeMs],
    );
    const byCount = await this.db.query(
      `DELETE FROM executions e USING (
         SELECT app, execution_id,
                row_number() OVER (PARTITION BY app ORDER BY started_at DESC, execution_id DESC) AS rn
         FROM executions) r
       WHERE e.app = r.app AND e.execution_id = r.execution_id AND r.rn > $1
       RETURNING e.execution_id`,
      [policy.maxPerApp],
    );
    const bySize = await this.db.query(
      `DELETE FROM executions e USING (
         SELECT app, execution_id,
                sum(octet_length(logs::text) + coalesce(octet_length(error), 0) + $2)
                  OVER (PARTITION BY app ORDER BY started_at DESC, execution_id DESC) AS kept
         FROM executions) r
       WHERE e.app = r.app AND e.execution_id = r.execution_id AND r.kept > $1
       RETURNING e.execution_id`,
      [policy.maxBytesPerApp, ROW_OVERHEAD_BYTES],
    );
    return byAge.length + byCount.length + bySize.length;
  }
}

function appRecord(r: SqlRow): AppRecord {
  return {
    name: String(r.name),
    createdAt: iso(r.created_at),
    activeDeploymentId: (r.active_deployment_id as string | null) ?? null,
  };
}

function apiKeyRecord(r: SqlRow): ApiKeyRecord {
  return {
    id: String(r.id),
    name: String(r.name),
    prefix: String(r.prefix),
    createdAt: iso(r.created_at),
    lastUsedAt: isoOrNull(r.last_used_at),
    revokedAt: isoOrNull(r.revoked_at),
  };
}

function deploymentRecord(r: SqlRow): DeploymentRecord {
  return {
    id: String(r.id),
    status: r.status as DeploymentStatus,
    createdAt: iso(r.created_at),
    source: r.source as DeploymentSource,
    message: (r.message as string | null) ?? null,
    functions: json<string[]>(r.functions),
  };
}

function executionRecord(r: SqlRow): StoredExecution {
  return {
    executionId: String(r.execution_id),
    function: String(r.function),
    status: r.status as "success" | "error",
    durationMs: Number(r.duration_ms),
    startedAt: iso(r.started_at),
    logs: json<LogLine[]>(r.logs),
    error: (r.error as string | null) ?? null,
  };
}

function encodeCursor(startedAt: string, executionId: string): string {
  return Buffer.from(`${startedAt}|${executionId}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { startedAt: string; executionId: string } {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const bar = text.indexOf("|");
  const startedAt = text.slice(0, bar);
  if (bar < 0 || Number.isNaN(Date.parse(startedAt))) {
    throw new PlatformError("BAD_REQUEST", "invalid activity cursor: pass the nextCursor of a previous page");
  }
  return { startedAt, executionId: text.slice(bar + 1) };
}
