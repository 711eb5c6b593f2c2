/**
 * The `trellis-graphdb` flags that bound each query (what Dgraph's `--limit` superflag holds as
 * `query-timeout`, `query-edge` and `normalize-node`, plus the response size): their usage text, their
 * parseArgs options, and their parsing into GraphDBOptions.
 */

import { DEFAULT_QUERY_TIMEOUT_MS } from "./engine/graph-db.ts";
import { DEFAULT_QUERY_LIMITS, MAX_RESPONSE_BYTES, type QueryLimits } from "./query/query-budget.ts";
import { parseGoDuration } from "./server/request-params.ts";

export const QUERY_LIMIT_USAGE = `  --query-timeout <dur>    longest any query may run, whatever its timeout asks: Go duration, e.g. 30s,
                           500ms; 0 for no limit (default ${DEFAULT_QUERY_TIMEOUT_MS / 1000}s)
  --limit-query-edge <n>   edges one @recurse query may follow (default ${DEFAULT_QUERY_LIMITS.queryEdges}, as Dgraph)
  --limit-normalize-node <n>
                           entries one @normalize flattening may produce (default ${DEFAULT_QUERY_LIMITS.normalizeNodes},
                           as Dgraph)
  --limit-response-size <size>
                           estimated size of one query's result, e.g. 64MiB (default ${DEFAULT_QUERY_LIMITS.responseBytes / 2 ** 20}MiB,
                           at most 512MiB)
`;

export const QUERY_LIMIT_OPTIONS = {
  "query-timeout": { type: "string" },
  "limit-query-edge": { type: "string" },
  "limit-normalize-node": { type: "string" },
  "limit-response-size": { type: "string" },
} as const;

export interface QueryLimitConfig {
  /** ms; 0 means no server limit. */
  queryTimeoutMs: number;
  queryLimits: QueryLimits;
}

/** Reads the flags (absent ones keep the defaults); throws `usageError(message)` for a bad value. */
export function parseQueryLimitFlags(
  values: Partial<Record<keyof typeof QUERY_LIMIT_OPTIONS, string>>,
  usageError: (message: string) => Error,
): QueryLimitConfig {
  const count = (flag: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
      throw usageError(`--${flag}: not a positive whole number: ${value}`);
    }
    return Number(value);
  };
  let queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS;
  const timeout = values["query-timeout"];
  if (timeout !== undefined) {
    try {
      queryTimeoutMs = parseGoDuration(timeout) / 1e6;
    } catch (e) {
      throw usageError(`--query-timeout: ${(e as Error).message} (write it as 30s, 500ms, 2m; 0 for none)`);
    }
    if (queryTimeoutMs < 0) throw usageError(`--query-timeout: must not be negative: ${timeout}`);
  }
  const size = values["limit-response-size"];
  return {
    queryTimeoutMs,
    queryLimits: {
      queryEdges: count("limit-query-edge", values["limit-query-edge"], DEFAULT_QUERY_LIMITS.queryEdges),
      normalizeNodes: count(
        "limit-normalize-node",
        values["limit-normalize-node"],
        DEFAULT_QUERY_LIMITS.normalizeNodes,
      ),
      responseBytes: size === undefined ? DEFAULT_QUERY_LIMITS.responseBytes : responseSize(size, usageError),
    },
  };
}

const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes from `134217728`, `128MiB`, `128mb`, `512k` (multiples are binary), at most 512MiB. */
function responseSize(value: string, usageError: (message: string) => Error): number {
  const m = /^(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(value.trim());
  const bytes = m === null ? Number.NaN : Math.floor(Number(m[1]) * UNITS[(m[2] ?? "").toLowerCase()]);
  if (!(bytes > 0)) throw usageError(`--limit-response-size: not a size: ${value} (write it as 64MiB)`);
  if (bytes > 2 ** 29) {
    throw usageError(
      `--limit-response-size: ${value} is more than a JavaScript string can hold; at most 512MiB`,
    );
  }
  return Math.min(bytes, MAX_RESPONSE_BYTES);
}
