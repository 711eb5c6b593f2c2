import type { SqlDb } from "./sql-db.ts";

/**
 * The metadata schema, append-only: a migration, once released, is never edited. Plain PostgreSQL, run
 * unchanged by PGlite and by a PostgreSQL server.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE apps (
     name text PRIMARY KEY,
     created_at timestamptz NOT NULL DEFAULT now(),
     active_deployment_id text,
     deploy_token_hash bytea NOT NULL,
     deploy_token_prefix text NOT NULL
   );
   CREATE TABLE api_keys (
     id text PRIMARY KEY,
     app text NOT NULL REFERENCES apps(name) ON DELETE CASCADE,
     name text NOT NULL,
     prefix text NOT NULL,
     hash bytea NOT NULL UNIQUE,
     created_at timestamptz NOT NULL DEFAULT now(),
     last_used_at timestamptz,
     revoked_at timestamptz
   );
   CREATE INDEX api_keys_app ON api_keys(app, created_at);
   CREATE TABLE env_vars (
     app text NOT NULL REFERENCES apps(name) ON DELETE CASCADE,
     name text NOT NULL,
     sealed bytea NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (app, name)
   );
   CREATE TABLE deployments (
     id text PRIMARY KEY,
     app text NOT NULL REFERENCES apps(name) ON DELETE CASCADE,
     status text NOT NULL CHECK (status IN ('active', 'previous', 'failed')),
     source text NOT NULL CHECK (source IN ('cli', 'action', 'api')),
     message text,
     functions jsonb NOT NULL DEFAULT '[]',
     created_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX deployments_app ON deployments(app, created_at DESC, id DESC);
   CREATE TABLE executions (
     app text NOT NULL REFERENCES apps(name) ON DELETE CASCADE,
     execution_id text NOT NULL,
     function text NOT NULL,
     status text NOT NULL CHECK (status IN ('success', 'error')),
     duration_ms double precision NOT NULL,
     started_at timestamptz NOT NULL,
     logs jsonb NOT NULL DEFAULT '[]',
     error text,
     PRIMARY KEY (app, execution_id)
   );
   CREATE INDEX executions_app_started ON executions(app, started_at DESC, execution_id DESC);`,
  // Preview deployments: a deploy from a branch other than main is its branch's preview (status
  // 'preview', served at <app>--<preview>.<appDomain>), beside the app's production deployment.
  `ALTER TABLE deployments ADD COLUMN branch text;
   ALTER TABLE deployments ADD COLUMN preview text;
   ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
   ALTER TABLE deployments ADD CONSTRAINT deployments_status_check
     CHECK (status IN ('active', 'previous', 'failed', 'preview'));
   CREATE INDEX deployments_preview ON deployments(app, preview, created_at DESC) WHERE preview IS NOT NULL;`,
  // An execution the graph database asked for, to serve a @lambda field: the field (`Type.field`).
  "ALTER TABLE executions ADD COLUMN lambda text;",
  // What a deployment's static site holds ({files, bytes, hasIndex}), for the console; null: no site.
  "ALTER TABLE deployments ADD COLUMN site jsonb;",
];

/** Brings the schema up to date; an advisory lock keeps concurrent platform nodes from racing. */
export async function migrate(db: SqlDb): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7305311)");
    await tx.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const rows = await tx.query<{ v: number | null }>("SELECT max(version) AS v FROM schema_migrations");
    const current = rows[0]?.v ?? 0;
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      for (const statement of splitStatements(MIGRATIONS[version - 1])) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (version) VALUES ($1)", [version]);
    }
  });
}

/** Statements of a migration (none of ours contains a `;` inside a literal). */
function splitStatements(sql: string): string[] {
  return sql
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
