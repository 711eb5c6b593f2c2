import type { ExecutionRecord, LogLine } from "../app-runtime.ts";
import { PlatformError } from "../platform-error.ts";
import { iso, json } from "./row-values.ts";
import type { SqlDb, SqlRow } from "./sql-db.ts";

export interface StoredExecution {
  executionId: string;
  function: string;
  status: "success" | "error";
  durationMs: number;
  startedAt: string;
  logs: LogLine[];
  error: string | null;
  /** The `@lambda` field (`Type.field`) the call served for the graph database; null for gateway calls. */
  lambda: string | null;
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

/** Per stored execution, beyond its logs and error: ids, times, index entries. */
const ROW_OVERHEAD_BYTES = 200;

/**
 * The `executions` table: every function execution of every app (the console's Activity), written in
 * batches (`ExecutionBatcher`), read newest first, pruned by a `RetentionPolicy`.
 */
export class ExecutionsTable {
  constructor(private readonly db: SqlDb) {}

  /** Writes executions in one multi-row INSERT (one already stored is skipped). */
  async insert(batch: readonly { app: string; e: ExecutionRecord }[]): Promise<void> {
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
        e.lambda ?? null,
      );
      return `(${Array.from({ length: 9 }, (_, i) => `$${base + i + 1}`).join(", ")})`;
    });
    await this.db.query(
      `INSERT INTO executions (app, execution_id, function, status, duration_ms, started_at, logs, error, lambda)
       VALUES ${rows.join(", ")} ON CONFLICT DO NOTHING`,
      params,
    );
  }

  /** Newest first, keyset-paginated by (startedAt, executionId). */
  async list(app: string, filter: ExecutionFilter = {}): Promise<ExecutionPage> {
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
  async prune(policy: RetentionPolicy): Promise<number> {
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

function executionRecord(r: SqlRow): StoredExecution {
  return {
    executionId: String(r.execution_id),
    function: String(r.function),
    status: r.status as "success" | "error",
    durationMs: Number(r.duration_ms),
    startedAt: iso(r.started_at),
    logs: json<LogLine[]>(r.logs),
    error: (r.error as string | null) ?? null,
    lambda: (r.lambda as string | null) ?? null,
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
