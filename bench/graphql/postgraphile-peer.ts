/**
 * The third peer of the GraphQL benchmark: the same Freebase film set in PostgreSQL, served by PostGraphile 4.
 *
 * The quads are loaded with the graphdb bench's helpers (`bench/graphdb/postgres.ts`: `node_values` and
 * `edges` in its schema), then normalized into the tables a PostgreSQL user would design for the same
 * types, in this bench's own schema, with the foreign keys PostGraphile turns into relation fields:
 *
 *   film(id, name)         director(id, name)        actor(id, name)
 *   performance(id, film_id → film, actor_id → actor, character)
 *   film_director(film_id → film, director_id → director)
 *
 * Ids are the graphdb bench's PostgreSQL uids (`pgUid`: dataset node + 1). Term questions, which the
 * generated CRUD cannot express, are STABLE SQL functions returning `setof film` (PostGraphile exposes them
 * as root connection fields) with the graphdb bench's term semantics: `to_tsvector('simple', name)` matched
 * against `plainto_tsquery` (all terms) or an OR of the terms (any term), over a GIN index.
 */
import { Agent } from "node:http";
import { fileURLToPath } from "node:url";
import type { Dataset } from "../graphdb/dataset.ts";
import { requestJson, spawnServerChild, stopChild } from "../graphdb/http-client.ts";
import { connect, createTables, loadPostgres, pgUid, resetSchema } from "../graphdb/postgres.ts";

/** The schema PostGraphile serves (the raw `node_values`/`edges` stay in the graphdb bench's schema). */
const CHARACTER = "/film/performance/character";

export const PG_GRAPHQL_SCHEMA = "trellis_graphql_bench";

const S = PG_GRAPHQL_SCHEMA;

/** Loads `ds` into PostgreSQL and builds the relational schema; returns the row counts per table. */
export async function loadRelational(ds: Dataset): Promise<Record<string, number>> {
  const client = await connect();
  try {
    await resetSchema(client);
    await createTables(client, ds);
    await loadPostgres(client, ds, { batchSize: 5000, connections: 2 });
    const v = ds.vocab;
    const films = ds.films.map(pgUid);
    const directors = ds.directors.map(pgUid);
    const lit = (x: string) => `'${x.replace(/'/g, "''")}'`;
    const name = (uid: string) =>
      `(SELECT val FROM node_values n WHERE n.uid = ${uid} AND n.pred = ${lit(v.name)} AND n.lang = ${lit(v.nameLang)} LIMIT 1)`;
    // node_values and edges are the graphdb bench's tables (on the search path); parameters: film/director ids
    const ddl: (string | [string, unknown[]])[] = [
      `DROP SCHEMA IF EXISTS ${S} CASCADE`,
      `CREATE SCHEMA ${S}`,
      `CREATE TABLE ${S}.film (id int PRIMARY KEY, name text)`,
      [
        `INSERT INTO ${S}.film SELECT f, ${name("f")} FROM unnest($1::int[]) f ON CONFLICT DO NOTHING`,
        [films],
      ],
      `CREATE TABLE ${S}.director (id int PRIMARY KEY, name text)`,
      [
        `INSERT INTO ${S}.director SELECT d, ${name("d")} FROM unnest($1::int[]) d ON CONFLICT DO NOTHING`,
        [directors],
      ],
      `CREATE TABLE ${S}.actor (id int PRIMARY KEY, name text)`,
      `INSERT INTO ${S}.actor SELECT a.dst, ${name("a.dst")} FROM (SELECT DISTINCT dst FROM edges WHERE pred = ${lit(v.actor)}) a`,
      `CREATE TABLE ${S}.performance (id int PRIMARY KEY, film_id int NOT NULL REFERENCES ${S}.film,
         actor_id int REFERENCES ${S}.actor, character text)`,
      [
        `INSERT INTO ${S}.performance
         SELECT s.dst, s.src,
           (SELECT a.dst FROM edges a WHERE a.pred = ${lit(v.actor)} AND a.src = s.dst LIMIT 1),
           (SELECT c.val FROM node_values c WHERE c.uid = s.dst AND c.pred = ${lit(CHARACTER)} LIMIT 1)
         FROM edges s WHERE s.pred = ${lit(v.starring)} AND s.src = ANY($1::int[])`,
        [films],
      ],
      `CREATE TABLE ${S}.film_director (film_id int NOT NULL REFERENCES ${S}.film,
         director_id int NOT NULL REFERENCES ${S}.director, PRIMARY KEY (film_id, director_id))`,
      [
        `INSERT INTO ${S}.film_director SELECT DISTINCT e.src, e.dst FROM edges e
         WHERE e.pred = ${lit(v.directs.pred)} AND e.src = ANY($1::int[]) AND e.dst = ANY($2::int[])`,
        [films, directors],
      ],
      // indexes on the foreign keys (the reverse relations) and for term search
      `CREATE INDEX ON ${S}.performance (film_id)`,
      `CREATE INDEX ON ${S}.performance (actor_id)`,
      `CREATE INDEX ON ${S}.film_director (director_id)`,
      `CREATE INDEX film_name_fts ON ${S}.film USING gin (to_tsvector('simple', name))`,
      // term questions: root query fields filmsWithAllTerms / filmsWithAnyTerm
      `CREATE FUNCTION ${S}.films_with_all_terms(terms text) RETURNS SETOF ${S}.film
         LANGUAGE sql STABLE PARALLEL SAFE AS $$
           SELECT * FROM ${S}.film
           WHERE to_tsvector('simple', name) @@ plainto_tsquery('simple', terms) ORDER BY id $$`,
      `CREATE FUNCTION ${S}.films_with_any_term(terms text) RETURNS SETOF ${S}.film
         LANGUAGE sql STABLE PARALLEL SAFE AS $$
           SELECT * FROM ${S}.film
           WHERE to_tsvector('simple', name)
             @@ websearch_to_tsquery('simple', regexp_replace(trim(terms), '\\s+', ' or ', 'g')) ORDER BY id $$`,
    ];
    for (const statement of ddl) {
      const [text, params] = typeof statement === "string" ? [statement, []] : statement;
      await client.query(text, params);
    }
    const counts: Record<string, number> = {};
    for (const t of ["film", "director", "actor", "performance", "film_director"]) {
      await client.query(`VACUUM ANALYZE ${S}.${t}`);
      counts[t] = Number((await client.query(`SELECT count(*)::int AS n FROM ${S}.${t}`)).rows[0].n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

export interface GraphQLPeer {
  /** POST /graphql; resolves to the parsed response. */
  query(query: string, variables: Record<string, unknown>): Promise<GraphQLResponse>;
  stop(): Promise<void>;
}

export interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

/** Starts PostGraphile in a child process on a free loopback port. */
export async function startPostGraphile(): Promise<GraphQLPeer> {
  const script = fileURLToPath(new URL("./postgraphile-child.ts", import.meta.url));
  const { child, port } = await spawnServerChild(script, [S], "PostGraphile");
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const query = (q: string, variables: Record<string, unknown>) =>
    requestJson<GraphQLResponse>(
      agent,
      port,
      "POST",
      "/graphql",
      "application/json",
      JSON.stringify({ query: q, variables }),
    );
  const stop = async () => {
    agent.destroy();
    await stopChild(child);
  };
  return { query, stop };
}
