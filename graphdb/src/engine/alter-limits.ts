/**
 * Bounds on one alter: its run time (an index build is the long part), the values an index build may
 * read, and the size of its DQL schema text. Each failure leaves the schema and indexes as they were.
 */
import { DgraphError } from "../core/errors.ts";

export interface AlterLimits {
  /**
   * Longest an alter may run, in ms; a request's own timeout (a gRPC call's deadline, `/alter?timeout=`)
   * may be shorter. 0 for no server limit, as Dgraph.
   */
  timeoutMs: number;
  /** Values (and uid edges) one alter may read to rebuild indexes; 0 for no limit, as Dgraph. */
  indexValues: number;
  /** Bytes (UTF-8) of schema text one alter may carry; 0 for no limit. */
  schemaBytes: number;
  /** Predicates one alter may declare; 0 for no limit. */
  schemaPredicates: number;
  /** Types one alter may declare; 0 for no limit. */
  schemaTypes: number;
}

export const DEFAULT_ALTER_LIMITS: Readonly<AlterLimits> = {
  timeoutMs: 0,
  indexValues: 0,
  schemaBytes: 2 ** 20,
  schemaPredicates: 20_000,
  schemaTypes: 5_000,
};

/** Refuses schema text longer than the limit, before it is parsed. */
export function checkSchemaBytes(text: string, limits: AlterLimits): void {
  if (limits.schemaBytes <= 0 || text.length * 3 <= limits.schemaBytes) return;
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.schemaBytes) {
    throw new DgraphError(
      `Schema of ${bytes} bytes is larger than this server's limit of ${limits.schemaBytes} bytes for one alter.` +
        " Send the schema in several alters.",
      "Error",
    );
  }
}

/** Refuses a parsed schema declaring more predicates or types than the limits. */
export function checkSchemaCounts(predicates: number, types: number, limits: AlterLimits): void {
  const over = (n: number, max: number, what: string) => {
    if (max > 0 && n > max) {
      throw new DgraphError(
        `Schema declares ${n} ${what}, more than this server's limit of ${max} for one alter.` +
          " Send the schema in several alters.",
        "Error",
      );
    }
  };
  over(predicates, limits.schemaPredicates, "predicates");
  over(types, limits.schemaTypes, "types");
}
