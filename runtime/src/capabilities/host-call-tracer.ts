/**
 * Where every host call is logged and its failure worded: one entry per call (never its data) at debug
 * level when it completes and warn level when it fails, with the call's execution and function.
 */
import { HOST_CALLS, type HostCallContext, type HostCallName } from "../wasm/host-calls.ts";

/** Structural subset of a pino logger. */
export interface HostLogger {
  debug(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface HostCallTracer {
  /** Runs a host call on `target` (a URL, a model, a secret's name), logging it; failures keep their message. */
  call<T>(ctx: HostCallContext, call: HostCallName, target: string, run: () => Promise<T>): Promise<T>;
  /**
   * Runs a host call on a named connection, logging it; a failure's message says what was attempted:
   * `sql query on connection "db" failed: <reason>`.
   */
  onConnection<T>(
    ctx: HostCallContext,
    call: HostCallName,
    connection: string,
    run: () => Promise<T>,
  ): Promise<T>;
}

export function createHostCallTracer(logger: HostLogger | undefined): HostCallTracer {
  async function traced<T>(
    ctx: HostCallContext,
    call: HostCallName,
    target: string,
    failure: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    const start = performance.now();
    const fields = {
      executionId: ctx.executionId,
      function: ctx.functionName,
      hostCall: HOST_CALLS[call],
      target,
    };
    try {
      const result = await run();
      logger?.debug({ ...fields, ms: elapsedMs(start) }, "Host call completed.");
      return result;
    } catch (e) {
      const message = failure ? `${failure}: ${errorText(e)}` : errorText(e);
      logger?.warn({ ...fields, ms: elapsedMs(start), error: message }, "Host call failed.");
      throw new Error(message);
    }
  }
  return {
    call: (ctx, call, target, run) => traced(ctx, call, target, undefined, run),
    onConnection: (ctx, call, connection, run) =>
      traced(
        ctx,
        call,
        connection,
        `${HOST_CALLS[call].replaceAll("-", " ")} on connection "${connection}" failed`,
        run,
      ),
  };
}

/** A gRPC failure's `details`, or any error's message. */
export function errorText(e: unknown): string {
  const err = e as { details?: string; message?: string };
  return err.details || err.message || String(e);
}

/** Milliseconds since `start` (a `performance.now()`), to a tenth. */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}
