import { PlatformError } from "../platform-error.ts";
import { hashToken, issueToken, sameBytes } from "../secrets/tokens.ts";
import { iso } from "./row-values.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

export interface AppRecord {
  name: string;
  createdAt: string;
  activeDeploymentId: string | null;
}

/**
 * App names: DNS labels, since an app is also served at `<app>.<host>`; without `--`, which separates an
 * app from its preview's branch (`<app>--<branch>.<host>`), so no app can take another's preview host.
 */
export const APP_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The `apps` table: one row per app, with the hash of its deploy token. */
export class AppsTable {
  constructor(private readonly db: SqlDb) {}

  /** Creates an app and its first deploy token (returned once). */
  async create(name: string): Promise<{ app: AppRecord; deployToken: string }> {
    if (!APP_NAME.test(name)) {
      throw new PlatformError(
        "BAD_REQUEST",
        `invalid app name "${name}": use 1-63 lower-case letters, digits and single inner hyphens (a DNS label without "--")`,
      );
    }
    const token = issueToken("deploy-token");
    const rows = await this.db.query(
      `INSERT INTO apps (name, deploy_token_hash, deploy_token_prefix) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO NOTHING RETURNING *`,
      [name, token.hash, token.prefix],
    );
    if (rows.length === 0) throw new PlatformError("CONFLICT", `an app named "${name}" already exists`);
    return { app: appRecord(rows[0]), deployToken: token.secret };
  }

  async list(): Promise<AppRecord[]> {
    return (await this.db.query("SELECT * FROM apps ORDER BY name")).map(appRecord);
  }

  async get(name: string): Promise<AppRecord | undefined> {
    const rows = await this.db.query("SELECT * FROM apps WHERE name = $1", [name]);
    return rows[0] && appRecord(rows[0]);
  }

  /** The app, or a NOT_FOUND error. */
  async require(name: string): Promise<AppRecord> {
    const app = await this.get(name);
    if (!app) throw new PlatformError("NOT_FOUND", `no app named "${name}"; create it first`);
    return app;
  }

  /** Deletes the app; its keys, env vars, deployments and activity go with it (ON DELETE CASCADE). */
  async delete(name: string): Promise<boolean> {
    return (await this.db.query("DELETE FROM apps WHERE name = $1 RETURNING name", [name])).length > 0;
  }

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
}

function appRecord(r: SqlRow): AppRecord {
  return {
    name: String(r.name),
    createdAt: iso(r.created_at),
    activeDeploymentId: (r.active_deployment_id as string | null) ?? null,
  };
}
