/**
 * SQL on a `relationaldb` connection: a pooled PostgreSQL client (`pg`) for postgres:// and postgresql://,
 * a pooled MySQL/MariaDB client (`mysql2`) for mysql:// and mariadb://. Rows cross to the guest as JSON:
 * dates as ISO strings, 64-bit integers and decimals as strings when a number would lose digits, bytes
 * as base64. Under a deployed egress policy both clients connect through guarded sockets
 * (egress/guarded-socket.ts): the address they reach is checked at connect time, Unix sockets are refused.
 */
import mysql from "mysql2/promise";
import pg from "pg";
import type { EgressPolicy } from "../egress/egress-policy.ts";
import { connectGuarded, GuardedSocket } from "../egress/guarded-socket.ts";

export interface ExecuteResult {
  rowsAffected: number;
  lastInsertId: number | string | null;
}

export interface SqlClient {
  readonly dialect: "postgresql" | "mysql";
  /** Rows of a statement as objects. */
  query(statement: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  execute(statement: string, params: unknown[]): Promise<ExecuteResult>;
  close(): Promise<void>;
}

export interface SqlClientOptions {
  /** Connect and per-statement timeout. */
  timeoutMs: number;
  /** Pool size (default 10). */
  maxConnections?: number;
  /** Where connections may go; absent or permissive: anywhere the URL says. */
  egress?: EgressPolicy;
}

/** Whether `options` restricts where the client connects. */
function guarded(options: SqlClientOptions): EgressPolicy | undefined {
  return options.egress && !options.egress.permissive ? options.egress : undefined;
}

/** A pool for `connStr`; connects lazily, on the first statement. */
export function createSqlClient(connStr: string, options: SqlClientOptions): SqlClient {
  const scheme = connStr.slice(0, connStr.indexOf(":"));
  if (scheme === "postgres" || scheme === "postgresql") return postgresClient(connStr, options);
  if (scheme === "mysql" || scheme === "mariadb") return mysqlClient(connStr, options);
  throw new Error(`unsupported database URL scheme "${scheme}://" (use postgres://, mysql:// or mariadb://)`);
}

function postgresClient(connStr: string, options: SqlClientOptions): SqlClient {
  const egress = guarded(options);
  const pool = new pg.Pool({
    // pg calls connect(port, host) on the stream, or connect(path) for a Unix socket.
    ...(egress ? { stream: () => new GuardedSocket(egress) } : {}),
    connectionString: connStr,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: options.timeoutMs,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the process; the next statement reconnects.
  pool.on("error", () => {});
  return {
    dialect: "postgresql",
    async query(statement, params) {
      const res = await pool.query(statement, params);
      return res.rows;
    },
    async execute(statement, params) {
      const res = await pool.query(statement, params);
      return { rowsAffected: res.rowCount ?? 0, lastInsertId: null };
    },
    close: () => pool.end(),
  };
}

function mysqlClient(connStr: string, options: SqlClientOptions): SqlClient {
  const egress = guarded(options);
  const pool = mysql.createPool({
    // mysql2 hands the factory its connection config (host, port, or socketPath from the URL).
    ...(egress
      ? {
          stream: ({ config }: { config: { host?: string; port?: number; socketPath?: string } }) =>
            connectGuarded(egress, config),
        }
      : {}),
    uri: connStr.replace(/^mariadb:/, "mysql:"),
    connectionLimit: options.maxConnections ?? 10,
    connectTimeout: options.timeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: false,
    timezone: "Z",
  });
  const run = (statement: string, params: unknown[]) =>
    pool.query({ sql: statement, timeout: options.timeoutMs }, params);
  return {
    dialect: "mysql",
    async query(statement, params) {
      const [rows] = await run(statement, params);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    async execute(statement, params) {
      const [result] = await run(statement, params);
      const header = result as mysql.ResultSetHeader;
      return {
        rowsAffected: header.affectedRows ?? 0,
        lastInsertId: header.insertId ? header.insertId : null,
      };
    },
    close: () => pool.end(),
  };
}

/** JSON text of SQL values: Date → ISO string, bigint → number if exact else string, bytes → base64. */
export function sqlJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v) {
    const raw = this[key];
    if (Buffer.isBuffer(raw) || raw instanceof Uint8Array) return Buffer.from(raw).toString("base64");
    if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    return v;
  });
}

/** The guest's `params`: a JSON array (empty text means none). */
export function parseSqlParams(params: string): unknown[] {
  if (params.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(params);
  } catch (e) {
    throw new Error(`params are not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error("params must be a JSON array");
  return parsed;
}
