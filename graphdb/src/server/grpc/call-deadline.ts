import type { ServerUnaryCall } from "@grpc/grpc-js";

/**
 * Milliseconds left before a call's deadline (at least 1), undefined when it has none: what the engine
 * gets as the request's timeout, so a client's deadline (an app function's own, passed on by the runtime)
 * stops the work it started.
 */
export function remainingMs(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (!Number.isFinite(at)) return undefined;
  return Math.max(1, at - Date.now());
}
