import type { FunctionInvoker, InvokeOptions, InvokeOutcome } from "../../src/wasm/function-invoker.ts";
import type { LogEntry, LogLevel } from "../../src/wasm/host-calls.ts";

/**
 * A real FunctionInvoker over plain JS functions, with the worker pool's observable behaviour: values in
 * jco's representation, a thrown error becomes a `function-error` outcome (like a WIT `err`), a `Trap`
 * becomes a trap, exceeding the timeout becomes a timeout, and everything logged is returned with the
 * outcome. Lets the GraphQL layer be tested end to end without building wasm.
 */
export interface GuestContext {
  executionId: string;
  log(level: LogLevel, message: string): void;
}

export type GuestFunction = (args: unknown[], ctx: GuestContext) => unknown;

/** Thrown by a guest function to simulate a wasm trap (e.g. `unreachable`). */
export class Trap extends Error {}

export class JsFunctionInvoker implements FunctionInvoker {
  /** Every call made, in order, for assertions. */
  readonly calls: { name: string; args: unknown[]; executionId: string }[] = [];
  private closed = false;

  constructor(
    private readonly functions: Record<string, GuestFunction>,
    private readonly defaultTimeoutMs = 2_000,
  ) {}

  async invoke(name: string, args: unknown[], options: InvokeOptions): Promise<InvokeOutcome> {
    if (this.closed) throw new Error("invoker is closed");
    const fn = this.functions[name];
    if (!fn) throw new Error(`no exported function "${name}"`);
    this.calls.push({ name, args, executionId: options.executionId });
    const logs: LogEntry[] = [];
    const ctx: GuestContext = {
      executionId: options.executionId,
      log: (level, message) => logs.push({ level, message }),
    };
    const t0 = performance.now();
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      const value = await Promise.race([Promise.resolve().then(() => fn(args, ctx)), timeout]);
      const durationMs = performance.now() - t0;
      if (value === "timeout") {
        return {
          ok: false,
          error: { kind: "timeout", message: `function exceeded its ${timeoutMs} ms time limit` },
          logs,
          durationMs,
        };
      }
      return { ok: true, value, logs, durationMs };
    } catch (e) {
      const durationMs = performance.now() - t0;
      const kind = e instanceof Trap ? "trap" : "function-error";
      return { ok: false, error: { kind, message: (e as Error).message }, logs, durationMs };
    } finally {
      clearTimeout(timer);
    }
  }

  async unload(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
  }
}
