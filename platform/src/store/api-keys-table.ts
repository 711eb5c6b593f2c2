import { hashToken, type IssuedToken, issueToken, sameBytes } from "../secrets/tokens.ts";
import { iso, isoOrNull } from "./row-values.ts";
import { sortableId } from "./sortable-id.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The `api_keys` table: an app's keys, stored as SHA-256 of the secret (shown once, at creation). */
export class ApiKeysTable {
  constructor(private readonly db: SqlDb) {}

  async create(app: string, name: string): Promise<{ key: ApiKeyRecord; secret: string }> {
    const token: IssuedToken = issueToken("api-key");
    const rows = await this.db.query(
      "INSERT INTO api_keys (id, app, name, prefix, hash) VALUES ($1, $2, $3, $4, $5) RETURNING *",
      [sortableId(), app, name, token.prefix, token.hash],
    );
    return { key: apiKeyRecord(rows[0]), secret: token.secret };
  }

  async list(app: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query("SELECT * FROM api_keys WHERE app = $1 ORDER BY created_at, id", [app]);
    return rows.map(apiKeyRecord);
  }

  /** Revokes a key (idempotent); false if the app has no such key. */
  async revoke(app: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE app = $1 AND id = $2 RETURNING id",
      [app, id],
    );
    return rows.length > 0;
  }

  /** The unrevoked key of `app` whose secret is `presented`, or undefined. */
  async findActive(app: string, presented: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashToken(presented);
    const rows = await this.db.query(
      "SELECT * FROM api_keys WHERE hash = $1 AND app = $2 AND revoked_at IS NULL",
      [hash, app],
    );
    const row = rows[0];
    if (!row || !sameBytes(hash, row.hash as Uint8Array)) return undefined;
    return apiKeyRecord(row);
  }

  async touch(id: string): Promise<void> {
    await this.db.query("UPDATE api_keys SET last_used_at = now() WHERE id = $1", [id]);
  }
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
