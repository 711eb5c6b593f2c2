import pg from "pg";
import type { SqlDb, SqlQueryable, SqlRow } from "./sql-db.ts";

/**
 * The shared metadata engine: a PostgreSQL pool, so several platform nodes see the same apps, keys and
 * deployments. `schema` (optional) isolates one store in its own schema via `search_path`.
 */
export async function openPostgresDb(url: string, options: { schema?: string } = {}): Promise<SqlDb> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  if (options.schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
  }
  const wrap = (client: pg.Pool | pg.PoolClient): SqlQueryable => ({
    async query<R extends SqlRow>(text: string, params?: unknown[]) {
      return (await client.query(text, params)).rows as R[];
    },
  });
  return {
    query: (text, params) => wrap(pool).query(text, params),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
