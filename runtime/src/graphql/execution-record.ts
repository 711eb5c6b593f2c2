import type { LogEntry } from "../wasm/host-calls.ts";

/**
 * One function call, made through the app's GraphQL API or by the graph database for a `@lambda` field, as
 * reported to metrics, dev logs and the Activity view.
 */
export interface ExecutionRecord {
  executionId: string;
  /** GraphQL field name (`person`). */
  function: string;
  /** WIT export name (`get-person`). */
  witName: string;
  status: "success" | "error";
  durationMs: number;
  /** ISO 8601 start time. */
  startedAt: string;
  logs: LogEntry[];
  /** The graph database's `@lambda` field (`Type.field`) the call served; absent for GraphQL calls. */
  lambda?: string;
  /** Why the call failed; `message` may be internal detail (not what the client was shown). */
  error?: { message: string; code: ExecutionErrorCode };
}

/** `extensions.code` of a failed call's GraphQL error. */
export type ExecutionErrorCode =
  | "FUNCTION_ERROR"
  | "TIMEOUT"
  | "OUT_OF_MEMORY"
  | "RESOURCE_EXHAUSTED"
  | "TRAP"
  | "INTERNAL_ERROR"
  | "INVALID_RESULT";
