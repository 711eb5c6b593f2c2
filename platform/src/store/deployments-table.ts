import { PlatformError } from "../platform-error.ts";
import { iso, json } from "./row-values.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

/**
 * "active": production, live; "previous": production, a rollback target; "preview": the live preview of
 * its branch; "failed": rejected at deploy.
 */
export type DeploymentStatus = "active" | "previous" | "failed" | "preview";
export type DeploymentSource = "cli" | "action" | "api";

/** What a deployment's static site holds (the files Vite wrote, not their `.br`/`.gz` siblings). */
export interface DeploymentSite {
  files: number;
  bytes: number;
  hasIndex: boolean;
}

export interface DeploymentRecord {
  id: string;
  status: DeploymentStatus;
  createdAt: string;
  source: DeploymentSource;
  message: string | null;
  functions: string[];
  /** The branch it was deployed from, when the deploy named one. */
  branch: string | null;
  /** Its preview's name (the branch, slugged) when deployed from a branch other than main. */
  preview: string | null;
  /** Its static site; null when the build has none (or was refused). */
  site: DeploymentSite | null;
}

/** A deployment as recorded on arrival: refused ("failed") or accepted, not yet active ("previous"). */
export interface NewDeployment {
  id: string;
  status: "failed" | "previous";
  source: DeploymentSource;
  message: string | null;
  functions: string[];
  branch?: string | null;
  preview?: string | null;
  site?: DeploymentSite | null;
}

/**
 * The `deployments` table: an app's deployments, at most one "active" (also `apps.active_deployment_id`).
 * Their files are on disk (`DeploymentStore`).
 */
export class DeploymentsTable {
  constructor(private readonly db: SqlDb) {}

  async add(app: string, d: NewDeployment): Promise<DeploymentRecord> {
    const rows = await this.db.query(
      `INSERT INTO deployments (id, app, status, source, message, functions, branch, preview, site)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        d.id,
        app,
        d.status,
        d.source,
        d.message,
        JSON.stringify(d.functions),
        d.branch ?? null,
        d.preview ?? null,
        d.site ? JSON.stringify(d.site) : null,
      ],
    );
    return deploymentRecord(rows[0]);
  }

  /**
   * Records an accepted preview deployment and makes it its preview's live one, in one transaction: the
   * preview's former deployment is deleted. Returns the new record and the deleted ids (their files go).
   */
  async addPreview(
    app: string,
    d: Omit<NewDeployment, "status"> & { preview: string },
  ): Promise<{ deployment: DeploymentRecord; replaced: string[] }> {
    return this.db.transaction(async (tx) => {
      const replaced = await tx.query<{ id: string }>(
        "DELETE FROM deployments WHERE app = $1 AND preview = $2 AND status = 'preview' RETURNING id",
        [app, d.preview],
      );
      const rows = await tx.query(
        `INSERT INTO deployments (id, app, status, source, message, functions, branch, preview, site)
         VALUES ($1, $2, 'preview', $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          d.id,
          app,
          d.source,
          d.message,
          JSON.stringify(d.functions),
          d.branch ?? null,
          d.preview,
          d.site ? JSON.stringify(d.site) : null,
        ],
      );
      return { deployment: deploymentRecord(rows[0]), replaced: replaced.map((r) => r.id) };
    });
  }

  /** The live deployment of the app's preview `preview`. */
  async findPreview(app: string, preview: string): Promise<DeploymentRecord | undefined> {
    const rows = await this.db.query(
      "SELECT * FROM deployments WHERE app = $1 AND preview = $2 AND status = 'preview' ORDER BY created_at DESC LIMIT 1",
      [app, preview],
    );
    return rows[0] && deploymentRecord(rows[0]);
  }

  /** Deletes a deployment that is not the app's live one; returns it, or undefined when there is none. */
  async remove(app: string, id: string): Promise<DeploymentRecord | undefined> {
    const rows = await this.db.query(
      "DELETE FROM deployments WHERE app = $1 AND id = $2 AND status <> 'active' RETURNING *",
      [app, id],
    );
    return rows[0] && deploymentRecord(rows[0]);
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
      if (target[0].status === "preview") {
        throw new PlatformError(
          "BAD_REQUEST",
          `deployment ${id} is the preview of branch "${target[0].branch}": deploy that branch's build to main to make it live`,
        );
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
   * `keep` failed ones, so that rejected uploads never push out a rollback target. Live previews are
   * not counted and never pruned (they are removed by their own DELETE). Returns deleted ids.
   */
  async prune(app: string, keep: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM deployments WHERE app = $1 AND status NOT IN ('active', 'preview') AND id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY status = 'failed' ORDER BY created_at DESC, id DESC) AS rn
           FROM deployments WHERE app = $1 AND status <> 'preview') ranked
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
    branch: (r.branch as string | null) ?? null,
    preview: (r.preview as string | null) ?? null,
    site: r.site == null ? null : json<DeploymentSite>(r.site),
  };
}
