import type { LogEntry } from "../../src/wasm/host-calls.ts";

/** The JSON shape of a GraphQL response from the handler, for typed assertions. */
export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  extensions?: { code?: string; level?: string };
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: GraphQLErrorBody[];
  extensions?: { invocations: Record<string, { executionId: string; logs: LogEntry[]; durationMs: number }> };
}
