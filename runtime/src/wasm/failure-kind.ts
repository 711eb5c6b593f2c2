import type { InvokeOutcome } from "./function-invoker.ts";

type OutcomeError = NonNullable<InvokeOutcome["error"]>;

/**
 * Maps what a guest call threw to an outcome error. A `result` export returning `err` arrives as jco's
 * `ComponentError` (payload = the guest's error); it is a normal answer and the instance stays usable.
 * Everything else means the instance may be corrupt and is discarded by the caller.
 */
export function classifyFailure(
  error: unknown,
  memoryBytes: number,
  memoryLimitBytes: number,
  stderrTail: string[],
): OutcomeError {
  if (isComponentError(error)) {
    const payload = error.payload;
    if (payload === undefined) return { kind: "function-error", message: "the function returned an error" };
    return { kind: "function-error", message: typeof payload === "string" ? payload : safeJson(payload) };
  }
  const message = error instanceof Error ? error.message : String(error);
  // A failed memory.grow cannot be observed directly; a trap with memory close to the cap is taken as one.
  const nearLimit = memoryBytes >= memoryLimitBytes * 0.75;
  const limitMb = Math.round(memoryLimitBytes / (1024 * 1024));
  if (
    error instanceof WebAssembly.RuntimeError ||
    (error instanceof RangeError && /memory|alloc/i.test(message))
  ) {
    if (nearLimit || /out of memory|allocation failed|memory size exceeded/i.test(message)) {
      return {
        kind: "out-of-memory",
        message: `the function exceeded the ${limitMb} MB memory limit (${message})`,
      };
    }
  }
  const explanation = stderrTail.length > 0 ? ` (guest stderr: ${stderrTail.join(" | ")})` : "";
  if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
    return { kind: "trap", message: `wasm trap: ${message}${explanation}` };
  }
  return { kind: "internal", message: `${message}${explanation}` };
}

interface ComponentErrorLike extends Error {
  payload: unknown;
}

function isComponentError(error: unknown): error is ComponentErrorLike {
  return error instanceof Error && "payload" in error && error.constructor.name === "ComponentError";
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
