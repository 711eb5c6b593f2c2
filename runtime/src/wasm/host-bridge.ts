import type { MessagePort } from "node:worker_threads";
import { type HostReply, type HostRequest, SIGNAL_SLOT } from "./bridge-protocol.ts";
import type { HostCallContext, HostCalls } from "./host-calls.ts";

/**
 * Main-thread half of the Atomics bridge (reference §6.2): runs the real async `HostCalls` method for
 * a worker whose guest is blocked in `Atomics.wait`, posts the reply, then wakes the worker. The event
 * loop stays free while host I/O is pending. On Node >= 24 JSPI can replace this whole bridge.
 */
export class HostBridge {
  private readonly signal: Int32Array;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
    private readonly host: HostCalls,
    private readonly context: () => HostCallContext,
  ) {
    this.signal = new Int32Array(signal);
    port.on("message", (request: HostRequest) => void this.serve(request));
  }

  private async serve(request: HostRequest): Promise<void> {
    let reply: HostReply;
    try {
      const method = this.host[request.method] as (
        ctx: HostCallContext,
        ...args: unknown[]
      ) => Promise<unknown>;
      if (typeof method !== "function") throw new Error(`unknown host function ${request.method}`);
      reply = { ok: true, value: await method.call(this.host, this.context(), ...request.args) };
    } catch (error) {
      reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    try {
      this.port.postMessage(reply);
    } catch (error) {
      // A value that cannot be cloned must still wake the guest, as an `err`.
      this.port.postMessage({ ok: false, message: `host reply not transferable: ${String(error)}` });
    }
    Atomics.store(this.signal, SIGNAL_SLOT, 1);
    Atomics.notify(this.signal, SIGNAL_SLOT);
  }

  close(): void {
    this.port.close();
  }
}
