/** Helpers for executor tests: parse + execute a DQL query against a GraphReader. */

import type { GraphReader } from "../../src/core/graph-reader.ts";
import { parseDql } from "../../src/dql/parser.ts";
import { executeQuery, type QueryOptions, type QueryResult } from "../../src/query/executor.ts";

/** The full result of a query. */
export function execute(
  g: GraphReader,
  query: string,
  opts: QueryOptions = {},
  vars?: Record<string, string>,
): QueryResult {
  return executeQuery(g, parseDql(query, vars), opts);
}

/** The `data` object of a query, parsed. */
export function data(g: GraphReader, query: string, opts: QueryOptions = {}): unknown {
  return JSON.parse(execute(g, query, opts).json);
}

/** The `data` JSON text of a query. */
export function text(g: GraphReader, query: string, opts: QueryOptions = {}): string {
  return execute(g, query, opts).json;
}

/** The error message a query fails with (fails the test when it succeeds). */
export function failure(g: GraphReader, query: string): string {
  try {
    execute(g, query);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`query succeeded: ${query}`);
}
