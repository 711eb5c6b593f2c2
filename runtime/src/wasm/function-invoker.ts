import type { RequestMemory } from "../memory/memory-budget.ts";
import type { JwtClaims, LogEntry } from "./host-calls.ts";

/**
 * Calls an app's exported functions. Implemented by the worker pool (wasm/worker-pool.ts); used by the
 * GraphQL layer. Arguments and results are in jco's JS representation of the WIT values: records as
 * objects with camelCase fields, `option<T>` as `T | undefined`, 64-bit integers as `bigint`, enums as
 * their kebab-case case names, lists as arrays, `result` unwrapped (an `err` becomes a failed outcome).
 */
export interface InvokeOutcome {
  ok: boolean;
  /** The function's return value when `ok`. */
  value?: unknown;
  /**
   * Why the call failed when not `ok`: the guest's error, a trap, a timeout, an out-of-memory, or a bound
   * of the runtime (too many calls waiting, too many calls in one request).
   */
  error?: {
    message: string;
    kind: "function-error" | "trap" | "timeout" | "out-of-memory" | "resource-exhausted" | "internal";
  };
  /** Everything the guest logged during the call (host `log` calls and console/stdout lines). */
  logs: LogEntry[];
  durationMs: number;
}

export interface InvokeOptions {
  executionId: string;
  /** Overrides the manifest's per-call timeout. */
  timeoutMs?: number;
  /** The verified claims of the user's JWT that authorized the call; its host calls see them (`jwt-claims`). */
  jwtClaims?: JwtClaims;
  /** The memory account of the request the call serves: its result and host answers are charged there. */
  memory?: RequestMemory;
}

export interface FunctionInvoker {
  /** `name` is the WIT export name (kebab-case). */
  invoke(name: string, args: unknown[], options: InvokeOptions): Promise<InvokeOutcome>;
  /** Releases every worker and instance (scale to zero); the next invoke starts them again. */
  unload(): Promise<void>;
  close(): Promise<void>;
}
