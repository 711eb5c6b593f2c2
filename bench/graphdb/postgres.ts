/**
 * The PostgreSQL side of the comparison: the same graph as two tables (typed node values and edges) with the
 * indexes a PostgreSQL user would add, loaded with batched multi-row `INSERT … SELECT unnest(…)`, one
 * transaction per batch (durable commits, as Trellis' commitNow).
 */
import pg from "pg";
import type { Dataset } from "./dataset.ts";
import type { QuadSet } from "./quads.ts";

export const PG_SCHEMA = "trellis_bench";

export const PG_CONFIG: pg.ClientConfig = {
  host: process.env.PGHOST ?? "127.0.0.1",
  port: Number(process.env.PGPORT ?? 5432),
  user: process.env.PGUSER ?? "postgres",
  database: process.env.PGDATABASE ?? "test",
};

/** uid of a dataset node in PostgreSQL (node indexes are 0-based). */
export const pgUid = (node: number) => node + 1;

export async function connect(): Promise<pg.Client> {
  const client = new pg.Client(PG_CONFIG);
  await client.connect();
  await client.query(`SET search_path TO ${PG_SCHEMA}, public`);
  return client;
}

export async function resetSchema(client: pg.Client): Promise<void> {
  await client.query("SET client_min_messages TO warning");
  await client.query(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE`);
  await client.query(`CREATE SCHEMA ${PG_SCHEMA}`);
  await client.query(`SET search_path TO ${PG_SCHEMA}, public`);
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Tables and indexes (created before loading, so the load pays for index maintenance as Trellis does). */
export async function createTables(client: pg.Client, ds: Dataset): Promise<void> {
  await client.query("DROP TABLE IF EXISTS node_values, edges");
  await client.query(
    "CREATE TABLE node_values (uid bigint NOT NULL, pred text NOT NULL, lang text NOT NULL DEFAULT '', val text NOT NULL, dval date)",
  );
  await client.query("CREATE TABLE edges (src bigint NOT NULL, pred text NOT NULL, dst bigint NOT NULL)");
  const name = lit(ds.vocab.name);
  for (const ddl of [
    // values of a node; exact match and ordering by value (byte order, as Dgraph's exact index)
    "CREATE INDEX node_values_uid ON node_values (uid, pred, lang)",
    `CREATE INDEX node_values_val ON node_values (pred, lang, val COLLATE "C")`,
    // term search on names, as allofterms: word tokens, lower-cased, no stemming, no stop words
    `CREATE INDEX node_values_name_fts ON node_values USING gin (to_tsvector('simple', val)) WHERE pred = ${name}`,
    "CREATE INDEX node_values_date ON node_values (pred, dval) WHERE dval IS NOT NULL",
    // forward and reverse traversal, covering so that hops are index-only scans
    "CREATE INDEX edges_fwd ON edges (pred, src, dst)",
    "CREATE INDEX edges_rev ON edges (pred, dst, src)",
  ]) {
    await client.query(ddl);
  }
}

interface Batch {
  eSrc: number[];
  ePred: string[];
  eDst: number[];
  vUid: number[];
  vPred: string[];
  vLang: string[];
  vVal: string[];
  vDate: (string | null)[];
}

function batchOf(q: QuadSet, start: number, end: number, datePreds: Set<number>): Batch {
  const b: Batch = { eSrc: [], ePred: [], eDst: [], vUid: [], vPred: [], vLang: [], vVal: [], vDate: [] };
  for (let i = start; i < end; i++) {
    const o = q.o[i];
    if (o >= 0) {
      b.eSrc.push(pgUid(q.s[i]));
      b.ePred.push(q.preds[q.p[i]]);
      b.eDst.push(pgUid(o));
    } else {
      const v = q.litValue[-o - 1];
      b.vUid.push(pgUid(q.s[i]));
      b.vPred.push(q.preds[q.p[i]]);
      b.vLang.push(q.litLang[-o - 1]);
      b.vVal.push(v);
      b.vDate.push(datePreds.has(q.p[i]) ? v.slice(0, 10) : null);
    }
  }
  return b;
}

async function insertBatch(client: pg.Client, b: Batch): Promise<void> {
  await client.query("BEGIN");
  if (b.eSrc.length > 0) {
    await client.query({
      name: "ins_edges",
      text: "INSERT INTO edges (src, pred, dst) SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])",
      values: [b.eSrc, b.ePred, b.eDst],
    });
  }
  if (b.vUid.length > 0) {
    await client.query({
      name: "ins_values",
      text:
        "INSERT INTO node_values (uid, pred, lang, val, dval) " +
        "SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::date[])",
      values: [b.vUid, b.vPred, b.vLang, b.vVal, b.vDate],
    });
  }
  await client.query("COMMIT");
}

export interface PgLoadOptions {
  batchSize: number;
  /** Connections loading batches concurrently (the first is `client`, others are opened for the load). */
  connections: number;
  onProgress?: (done: number, total: number) => void;
}

export async function loadPostgres(client: pg.Client, ds: Dataset, o: PgLoadOptions): Promise<void> {
  const q = ds.quads;
  const datePreds = new Set(ds.vocab.releaseDate ? [q.predId(ds.vocab.releaseDate)] : []);
  const clients = [client];
  for (let i = 1; i < o.connections; i++) clients.push(await connect());
  let next = 0;
  let done = 0;
  try {
    await Promise.all(
      clients.map(async (c) => {
        while (next < q.length) {
          const start = next;
          const end = Math.min(q.length, start + o.batchSize);
          next = end;
          await insertBatch(c, batchOf(q, start, end, datePreds));
          done += end - start;
          o.onProgress?.(done, q.length);
        }
      }),
    );
  } finally {
    for (const c of clients.slice(1)) await c.end();
  }
}
