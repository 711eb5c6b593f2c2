/// <reference path="./host.d.ts" />
/**
 * Statements on the app's `relationaldb` connections. Parameters are positional (`$1` for PostgreSQL,
 * `?` for MySQL/MariaDB). Each call runs in its own transaction on the host.
 */
import { sqlExecute, sqlQuery } from "trellis:app/host";
import { toJsonText } from "./json-text.ts";

export interface ExecuteResult {
  rowsAffected: number;
  lastInsertId: number | null;
}

/** Rows as objects keyed by column name. */
export function query<T = Record<string, unknown>>(
  connection: string,
  statement: string,
  params: unknown[] = [],
): T[] {
  return JSON.parse(sqlQuery(connection, statement, toJsonText(params))) as T[];
}

/** The first column of the first row, or null when there is no row. */
export function queryScalar<T = unknown>(
  connection: string,
  statement: string,
  params: unknown[] = [],
): T | null {
  const [row] = query<Record<string, unknown>>(connection, statement, params);
  return row === undefined ? null : ((Object.values(row)[0] ?? null) as T | null);
}

export function execute(connection: string, statement: string, params: unknown[] = []): ExecuteResult {
  return JSON.parse(sqlExecute(connection, statement, toJsonText(params))) as ExecuteResult;
}
