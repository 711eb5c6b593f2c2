/**
 * Entry of an instance worker thread. Owns at most one component instance at a time and runs one call
 * at a time on it (the pool never sends a second call before the first is answered, and the handler
 * chain below serialises anyway). Guest code runs synchronously on this thread; host I/O blocks it
 * through the Atomics bridge. Bundled by worker-script.ts, so it may only import relative files and
 * node: builtins; preview2-shim and the glue are loaded by URL.
 */

import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import type { FromWorker, ToWorker, WorkerInit } from "./bridge-protocol.ts";
import { CallLog, roughSize } from "./call-log.ts";
import { classifyFailure } from "./failure-kind.ts";
import { GuestOutput } from "./guest-output.ts";
import { createHostImports } from "./host-bridge-client.ts";
import { sandboxedWasiImports, withHostImports } from "./sandbox-imports.ts";

type Glue = {
  instantiate(
    getCoreModule: (path: string) => WebAssembly.Module,
    imports: Record<string, unknown>,
    instantiateCore?: (
      module: WebAssembly.Module,
      imports?: WebAssembly.Imports,
    ) => Promise<WebAssembly.Instance>,
  ): Promise<Record<string, unknown>>;
};

interface LiveInstance {
  exports: Record<string, unknown>;
  memories: WebAssembly.Memory[];
}

// QuickJS guests need extended-const on Node 20 (no-op where it is standard).
v8.setFlagsFromString("--experimental-wasm-extended-const");

const init = workerData as WorkerInit;
const port = parentPort!;
let logs = new CallLog(init.maxLogBytes);
const output = new GuestOutput(() => logs);
const hostImports = createHostImports(init.hostPort, init.signal, () => logs);

const { WASIShim } = (await import(
  init.shimUrl
)) as typeof import("@bytecodealliance/preview2-shim/instantiation");
const glue = (await import(init.glueUrl)) as Glue;
const imports = withHostImports(sandboxedWasiImports(WASIShim), hostImports);

async function instantiate(): Promise<LiveInstance> {
  const memories: WebAssembly.Memory[] = [];
  const exports = await glue.instantiate(
    (path) => {
      const module = init.modules[path];
      if (!module) throw new Error(`core module ${path} missing from the transpiled output`);
      return module;
    },
    imports,
    async (module, coreImports) => {
      const instance = await WebAssembly.instantiate(module, coreImports);
      for (const value of Object.values(instance.exports)) {
        if (value instanceof WebAssembly.Memory) memories.push(value);
      }
      return instance;
    },
  );
  return { exports, memories };
}

let next: Promise<LiveInstance> | undefined;

function send(message: FromWorker): void {
  try {
    port.postMessage(message);
  } catch (error) {
    if (message.type !== "result") throw error;
    const text = `the function's result cannot be passed on: ${error instanceof Error ? error.message : error}`;
    port.postMessage({ ...message, ok: false, value: undefined, error: { kind: "internal", message: text } });
  }
}

try {
  const started = performance.now();
  next = Promise.resolve(await instantiate());
  send({ type: "ready", instantiateMs: performance.now() - started });
} catch (error) {
  // What the guest printed while initializing explains the failure (a Go init() panic, say).
  const said = output.endCall();
  const message = error instanceof Error ? error.message : String(error);
  send({
    type: "init-failed",
    message: said.length > 0 ? `${message} (guest stderr: ${said.join(" | ")})` : message,
  });
  process.exit(1);
}

async function invoke(message: ToWorker): Promise<void> {
  logs = new CallLog(init.maxLogBytes);
  let instance: LiveInstance;
  try {
    instance = await (next ?? instantiate());
  } catch (error) {
    next = undefined;
    const text = error instanceof Error ? error.message : String(error);
    send({
      type: "result",
      id: message.id,
      ok: false,
      error: { kind: "internal", message: text },
      logs: logs.finish(),
    });
    return;
  }
  next = undefined;
  let keep = init.instancePolicy === "reuse";
  const fn = instance.exports[message.exportName];
  if (typeof fn !== "function") {
    send({
      type: "result",
      id: message.id,
      ok: false,
      error: { kind: "internal", message: `the component exports no function ${message.ctx.functionName}` },
      logs: logs.finish(),
    });
  } else {
    try {
      const value = fn(...message.args);
      output.endCall();
      const limit = Math.min(init.maxResultBytes, message.budgetBytes ?? init.maxResultBytes);
      const bytes = roughSize(value, limit);
      if (bytes <= limit)
        send({ type: "result", id: message.id, ok: true, value, bytes, logs: logs.finish() });
      else {
        const overBudget = bytes <= init.maxResultBytes;
        const error = {
          kind: "resource-exhausted" as const,
          message: overBudget
            ? `${message.ctx.functionName}'s result is over what its request may still receive`
            : `${message.ctx.functionName} returned about ${mb(bytes)} MB, more than the ${mb(init.maxResultBytes)} MB a call may return`,
        };
        send({ type: "result", id: message.id, ok: false, error, bytes, overBudget, logs: logs.finish() });
      }
    } catch (error) {
      const stderrTail = output.endCall();
      const memoryBytes = Math.max(0, ...instance.memories.map((m) => m.buffer.byteLength));
      const failure = classifyFailure(error, memoryBytes, init.memoryLimitBytes, stderrTail);
      if (failure.kind !== "function-error") keep = false;
      send({ type: "result", id: message.id, ok: false, error: failure, logs: logs.finish() });
    }
  }
  // Prepare the instance for the next call now, off the next request's path.
  next = keep ? Promise.resolve(instance) : instantiate();
  next.catch(() => undefined);
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);
}

let chain = Promise.resolve();
port.on("message", (message: ToWorker) => {
  chain = chain
    .then(() => invoke(message))
    .catch((error) => {
      const text = error instanceof Error ? error.message : String(error);
      send({
        type: "result",
        id: message.id,
        ok: false,
        error: { kind: "internal", message: text },
        logs: logs.finish(),
      });
    });
});
