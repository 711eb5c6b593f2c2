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
  ctx: HostCallContext;
};

export type FromWorker =
  | { type: "ready"; instantiateMs: number }
  | { type: "init-failed"; message: string }
  | {
      type: "result";
      id: number;
      ok: boolean;
      value?: unknown;
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
