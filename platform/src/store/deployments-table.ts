import { PlatformError } from "../platform-error.ts";
import { iso, json } from "./row-values.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

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

/** A deployment as recorded on arrival: refused ("failed") or accepted, not yet active ("previous"). */
export interface NewDeployment {
  id: string;
  status: "failed" | "previous";
  source: DeploymentSource;
  message: string | null;
  functions: string[];
}

/**
 * The `deployments` table: an app's deployments, at most one "active" (also `apps.active_deployment_id`).
 * Their files are on disk (`DeploymentStore`).
 */
export class DeploymentsTable {
  constructor(private readonly db: SqlDb) {}

  async add(app: string, d: NewDeployment): Promise<DeploymentRecord> {
    const rows = await this.db.query(
      `INSERT INTO deployments (id, app, status, source, message, functions) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING *`,
      [d.id, app, d.status, d.source, d.message, JSON.stringify(d.functions)],
    );
    return deploymentRecord(rows[0]);
  }

  async list(app: string): Promise<DeploymentRecord[]> {
    const rows = await this.db.query(
      "SELECT * FROM deployments WHERE app = $1 ORDER BY created_at DESC, id DESC",
      [app],
    );
    return rows.map(deploymentRecord);
  }

  async get(app: string, id: string): Promise<DeploymentRecord | undefined> {
    const rows = await this.db.query("SELECT * FROM deployments WHERE app = $1 AND id = $2", [app, id]);
    return rows[0] && deploymentRecord(rows[0]);
  }

  /** Makes `id` the app's live deployment, in one transaction; the former one becomes "previous". */
  async activate(app: string, id: string): Promise<DeploymentRecord> {
    return this.db.transaction(async (tx) => {
      const target = await tx.query("SELECT * FROM deployments WHERE app = $1 AND id = $2 FOR UPDATE", [
        app,
        id,
      ]);
      if (target.length === 0) throw new PlatformError("NOT_FOUND", `app "${app}" has no deployment ${id}`);
      if (target[0].status === "failed") {
        throw new PlatformError("BAD_REQUEST", `deployment ${id} failed validation and cannot be made live`);
      }
      await tx.query("UPDATE deployments SET status = 'previous' WHERE app = $1 AND status = 'active'", [
        app,
      ]);
      const rows = await tx.query("UPDATE deployments SET status = 'active' WHERE id = $1 RETURNING *", [id]);
      await tx.query("UPDATE apps SET active_deployment_id = $2 WHERE name = $1", [app, id]);
      return deploymentRecord(rows[0]);
    });
  }

  /**
   * Deletes all but the newest `keep` good deployments (never the active one), and all but the newest
   * `keep` failed ones, so that rejected uploads never push out a rollback target. Returns deleted ids.
   */
  async prune(app: string, keep: number): Promise<string[]> {
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
