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
  const limitMb = Math.round(memoryLimitBytes / (1024 * 1024));
  // What the guest printed about its crash (Go: `panic: …`, `fatal error: out of memory`).
  const crash = stderrTail.find((line) => CRASH.test(line));
  // Go: "fatal error: out of memory"; Rust's allocator (QuickJS's componentize-qjs runtime): "memory
  // allocation of N bytes failed".
  const outOfMemoryLine = stderrTail
    .find((line) => /out of memory|memory allocation of \d+ bytes failed/i.test(line))
    ?.trim();
  const isTrap = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
  // A failed memory.grow cannot be observed directly; a trap with memory close to the cap is taken as one.
  const nearLimit = memoryBytes >= memoryLimitBytes * 0.75;
  if (
    outOfMemoryLine ||
    (isTrap && (nearLimit || /out of memory|allocation failed|memory size exceeded/i.test(message)))
  ) {
    return {
      kind: "out-of-memory",
      message: `the function exceeded the ${limitMb} MB memory limit (${outOfMemoryLine ?? crash?.trim() ?? message})`,
    };
  }
  // Go prints a panic or a fatal error, then traps (`unreachable`) or exits.
  if (crash && (isTrap || (error instanceof Error && error.name === "GuestExitError"))) {
    return { kind: "trap", message: `the function crashed: ${crash.trim()}` };
  }
  if (error instanceof Error && error.name === "GuestExitError") {
    return { kind: "trap", message: `${message}${explain(stderrTail)}` };
  }
  if (isTrap) return { kind: "trap", message: `wasm trap: ${message}${explain(stderrTail)}` };
  return { kind: "internal", message: `${message}${explain(stderrTail)}` };
}

const CRASH = /^\s*(panic: |fatal error: )/;

function explain(stderrTail: string[]): string {
  return stderrTail.length > 0 ? ` (guest stderr: ${stderrTail.join(" | ")})` : "";
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
