import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import { type HostReply, type HostRequest, SIGNAL_SLOT } from "./bridge-protocol.ts";
import { HOST_CALL_NAMES, type HostCallName, type LogEntry, type LogLevel } from "./host-calls.ts";

const LEVELS = new Set<LogLevel>(["debug", "info", "warning", "error"]);

/**
 * Worker half of the Atomics bridge: the `trellis:app/host` import object. Each bridged function posts
 * its request, blocks the thread in `Atomics.wait` until the main thread answers, and returns the value
 * (WIT `ok`) or throws the message string (WIT `err`; jco turns a thrown non-Error into `err`, never a
 * trap). `log` stays local: it is appended to `logs` with no round trip.
 */
export function createHostImports(
  port: MessagePort,
  signalBuffer: SharedArrayBuffer,
  logs: () => { push(entry: LogEntry): void },
): Record<string, (...args: never[]) => unknown> {
  const signal = new Int32Array(signalBuffer);
  const call = (method: HostCallName, args: unknown[]): unknown => {
    Atomics.store(signal, SIGNAL_SLOT, 0);
    port.postMessage({ method, args } satisfies HostRequest);
    Atomics.wait(signal, SIGNAL_SLOT, 0);
    const received = receiveMessageOnPort(port);
    if (!received) throw new Error(`host call ${method}: woken without a reply`);
    const reply = received.message as HostReply;
    if (reply.ok) return reply.value;
    throw reply.message;
  };
  const imports: Record<string, (...args: never[]) => unknown> = {
    log: (level: string, message: string) => {
      logs().push({ level: LEVELS.has(level as LogLevel) ? (level as LogLevel) : "info", message });
    },
  };
  for (const method of HOST_CALL_NAMES) {
    imports[method] = (...args: unknown[]) => call(method, args);
  }
  return imports;
}
