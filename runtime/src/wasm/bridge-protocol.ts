import type { MessagePort } from "node:worker_threads";
import type { InvokeOutcome } from "./function-invoker.ts";
import type { HostCallContext, HostCallName, LogEntry } from "./host-calls.ts";

/**
 * Messages between the worker pool (main thread) and an instance worker. Kept in one file so both sides
 * agree on the shapes; everything here is structured-clone safe.
 */

export interface WorkerInit {
  /** file: URL of the jco glue (`component.js`). */
  glueUrl: string;
  /** file: URL of `@bytecodealliance/preview2-shim/instantiation` (the bundled worker has no resolver). */
  shimUrl: string;
  /** Compiled core modules by file name, shared with the main thread's compilation. */
  modules: Record<string, WebAssembly.Module>;
  /** Port for host calls; the worker blocks on `signal` until the main thread has replied. */
  hostPort: MessagePort;
  signal: SharedArrayBuffer;
  /** Wasm memory cap in bytes (also written into the modules): a trap near it is an out-of-memory. */
  memoryLimitBytes: number;
  instancePolicy: InstancePolicy;
  /** A result bigger than this (roughly, serialized) is refused in the worker (RESOURCE_EXHAUSTED). */
  maxResultBytes: number;
  /** Characters of log lines kept per call (call-log.ts). */
  maxLogBytes: number;
}

/**
 * `fresh`: every call runs on an instance nobody else has used (the next one is instantiated right after
 * a call, off the request path). `reuse`: one instance serves calls until it fails.
 */
export type InstancePolicy = "fresh" | "reuse";

export type ToWorker = {
  type: "invoke";
  id: number;
  exportName: string;
  args: unknown[];
  /** The call's context, without its `memory` account (which stays on the main thread). */
  ctx: Omit<HostCallContext, "memory">;
  /**
   * What the request this call serves may still receive: a larger result stays in the worker (answered
   * `overBudget`, and the main thread charges its size to the request to say which bound it passed).
   */
  budgetBytes?: number;
};

export type FromWorker =
  | { type: "ready"; instantiateMs: number }
  | { type: "init-failed"; message: string }
  | {
      type: "result";
      id: number;
      ok: boolean;
      value?: unknown;
      /** The result's rough serialized size (call-log.ts `roughSize`), when `ok` or `overBudget`. */
      bytes?: number;
      /** The result was bigger than `budgetBytes` (not than `maxResultBytes`): not passed on. */
      overBudget?: boolean;
      error?: NonNullable<InvokeOutcome["error"]>;
      logs: LogEntry[];
    };

/** A guest's host call (any of `HostCalls`; `log` never crosses the bridge). */
export interface HostRequest {
  method: HostCallName;
  args: unknown[];
}

export type HostReply = { ok: true; value: unknown } | { ok: false; message: string };

/** Index of the Int32 in `signal` the worker waits on: 0 while a host call is pending, 1 once answered. */
export const SIGNAL_SLOT = 0;
