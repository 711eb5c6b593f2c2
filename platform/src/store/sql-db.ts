/**
 * The one SQL seam of the metadata store: PGlite embedded, PostgreSQL (`pg`) when shared. Both speak the
 * same dialect, so one migrations list and one repository layer serve both.
 */
export type SqlRow = Record<string, unknown>;

export interface SqlQueryable {
  query<R extends SqlRow = SqlRow>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface SqlDb extends SqlQueryable {
  /** Runs `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
