import type { RequestMemory } from "../memory/memory-budget.ts";
import type { FunctionInvoker, InvokeOutcome } from "../wasm/function-invoker.ts";
import type { JwtClaims, LogEntry } from "../wasm/host-calls.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import { newExecutionId } from "./execution-id.ts";
import type { ExecutionErrorCode, ExecutionRecord } from "./execution-record.ts";
import type { FieldBinding } from "./schema-builder.ts";
import { ValueCodec } from "./value-codec.ts";

/**
 * One call of an app function with GraphQL-shaped arguments (by parameter name), the way every caller
 * makes it — the GraphQL handler's root fields and the graph database's `@lambda` fields: arguments
 * converted to WIT values, the call through the invoker (worker pool, timeout, memory cap), the result
 * converted back, and one `ExecutionRecord` reported.
 */
export interface FunctionCallResult {
  executionId: string;
  logs: LogEntry[];
  durationMs: number;
  /** The result as a GraphQL value, when the call succeeded. */
  value?: unknown;
  /** Why it failed: `message` is what a client is shown, `internal` what the record keeps. */
  failure?: { code: ExecutionErrorCode; message: string; internal: string };
}

export interface FunctionCallerOptions {
  world: AppWorld;
  invoker: FunctionInvoker;
  newExecutionId?: () => string;
  onExecution?: (e: ExecutionRecord) => void;
}

export interface CallOptions {
  /** The `Type.field` this call serves, when the graph database made it for a `@lambda` field. */
  lambda?: string;
  /** The verified claims of the user's JWT that authorized the call (see `RequestAuth`). */
  jwtClaims?: JwtClaims;
  /** The memory account of the request the call serves (see memory/memory-budget.ts). */
  memory?: RequestMemory;
}

export type FunctionCaller = (
  binding: FieldBinding,
  args: Record<string, unknown>,
  options?: CallOptions,
) => Promise<FunctionCallResult>;

const INTERNAL_MESSAGE = "An internal runtime error occurred while executing the function.";

const ERROR_CODES: Record<NonNullable<InvokeOutcome["error"]>["kind"], ExecutionErrorCode> = {
  "function-error": "FUNCTION_ERROR",
  timeout: "TIMEOUT",
  "out-of-memory": "OUT_OF_MEMORY",
  "resource-exhausted": "RESOURCE_EXHAUSTED",
  trap: "TRAP",
  internal: "INTERNAL_ERROR",
};

export function createFunctionCaller(options: FunctionCallerOptions): FunctionCaller {
  const codec = new ValueCodec(options.world.types);
  const nextId = options.newExecutionId ?? newExecutionId;
  return async (binding, args, callOptions = {}) => {
    // A bad argument throws here, before any execution: it is the request's error, not the function's.
    const witArgs = binding.args.map((a) => codec.toWit(a.type, args[a.name], `argument "${a.name}"`));
    const executionId = nextId();
    const startedAt = new Date();
    const t0 = performance.now();
    let outcome: InvokeOutcome;
    try {
      outcome = await options.invoker.invoke(binding.witName, witArgs, {
        executionId,
        ...(callOptions.jwtClaims ? { jwtClaims: callOptions.jwtClaims } : {}),
        ...(callOptions.memory ? { memory: callOptions.memory } : {}),
      });
    } catch (e) {
      outcome = {
        ok: false,
        error: { kind: "internal", message: (e as Error)?.message ?? String(e) },
        logs: [],
        durationMs: performance.now() - t0,
      };
    }
    const durationMs = round(outcome.durationMs ?? performance.now() - t0);
    const logs = outcome.logs ?? [];

    let value: unknown = null;
    let failure: FunctionCallResult["failure"];
    if (outcome.ok) {
      try {
        value = codec.toGraphQL(binding.returns, outcome.value, binding.fieldName);
      } catch (e) {
        const message = (e as Error).message;
        failure = { code: "INVALID_RESULT", message, internal: message };
      }
    } else {
      const kind = outcome.error?.kind ?? "internal";
      const internal = outcome.error?.message ?? "unknown error";
      const message = kind === "internal" ? INTERNAL_MESSAGE : withoutStackTrace(internal);
      failure = { code: ERROR_CODES[kind], message, internal };
    }

    options.onExecution?.({
      executionId,
      function: binding.fieldName,
      witName: binding.witName,
      status: failure ? "error" : "success",
      durationMs,
      startedAt: startedAt.toISOString(),
      logs,
      ...(callOptions.lambda ? { lambda: callOptions.lambda } : {}),
      ...(failure ? { error: { message: failure.internal, code: failure.code } } : {}),
    });
    return failure ? { executionId, logs, durationMs, failure } : { executionId, logs, durationMs, value };
  };
}

/** Keeps a guest error's message but drops stack-frame lines (`    at …`, `wasm-function[…]`). */
function withoutStackTrace(message: string): string {
  const lines = message.split("\n").filter((l) => !/^\s+at\s/.test(l) && !/wasm-function\[/.test(l));
  return lines.join("\n").trim() || "The function failed.";
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
