/**
 * Sends `console.*` to the host log so app output lands in the call's logs (the component has no usable
 * stdout). The generated glue calls this before any exported function runs.
 */
import { write } from "./log.ts";

export function routeConsoleToHost(): void {
  const routed = {
    log: (...args: unknown[]) => write("info", args),
    info: (...args: unknown[]) => write("info", args),
    debug: (...args: unknown[]) => write("debug", args),
    warn: (...args: unknown[]) => write("warning", args),
    error: (...args: unknown[]) => write("error", args),
  };
  Object.defineProperty(globalThis, "console", { value: routed, writable: true, configurable: true });
}
