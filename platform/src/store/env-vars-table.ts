import { PlatformError } from "../platform-error.ts";
import type { EnvCipher } from "../secrets/env-cipher.ts";
import { iso } from "./row-values.ts";
import type { SqlDb } from "./sql-db.ts";

export interface EnvVarRecord {
  name: string;
  value: string;
  updatedAt: string;
}

export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** The `env_vars` table: an app's env vars, each value sealed by the `EnvCipher` (never stored in clear). */
export class EnvVarsTable {
  constructor(
    private readonly db: SqlDb,
    private readonly cipher: EnvCipher,
  ) {}

  async set(app: string, name: string, value: string): Promise<EnvVarRecord> {
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

  async delete(app: string, name: string): Promise<boolean> {
    const rows = await this.db.query("DELETE FROM env_vars WHERE app = $1 AND name = $2 RETURNING name", [
      app,
      name,
    ]);
    return rows.length > 0;
  }

  /** Decrypted env vars of an app, by name. */
  async list(app: string): Promise<EnvVarRecord[]> {
    const rows = await this.db.query("SELECT * FROM env_vars WHERE app = $1 ORDER BY name", [app]);
    return rows.map((r) => ({
      name: String(r.name),
      value: this.cipher.open(app, String(r.name), r.sealed as Uint8Array),
      updatedAt: iso(r.updated_at),
    }));
  }

  /** The environment a loaded app sees. */
  async envFor(app: string): Promise<Record<string, string>> {
    return Object.fromEntries((await this.list(app)).map((v) => [v.name, v.value]));
  }
}
