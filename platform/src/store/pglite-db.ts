import { PGlite } from "@electric-sql/pglite";
import type { SqlDb, SqlQueryable, SqlRow } from "./sql-db.ts";

/**
 * The embedded metadata engine: PostgreSQL compiled to WebAssembly, with its files in `dir`. Chosen over
 * SQLite-likes so that the embedded and the shared (PostgreSQL) deployments run the very same SQL.
 */
export async function openPgliteDb(dir: string): Promise<SqlDb> {
  const db = new PGlite(dir);
  await db.waitReady;
  // PGlite is single-connection: transactions must not interleave with other statements.
  let chain: Promise<unknown> = Promise.resolve();
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => {});
    return run;
  };
  const wrap = (q: { query: PGlite["query"] }): SqlQueryable => ({
    async query<R extends SqlRow>(text: string, params?: unknown[]) {
      return (await q.query<R>(text, params)).rows;
    },
  });
  return {
    query: (text, params) => serialize(() => wrap(db).query(text, params)),
    transaction: (fn) => serialize(() => db.transaction((tx) => fn(wrap(tx)))),
    close: () => serialize(() => db.close()),
  };
}
