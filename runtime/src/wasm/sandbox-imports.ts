import type { WASIShim } from "@bytecodealliance/preview2-shim/instantiation";

type ImportObject = Record<string, unknown>;

/**
 * The guest called `wasi:cli/exit` (a Go panic or fatal error ends that way: the runtime prints the
 * reason to stderr, then exits with status 2). It ends the call, never the worker thread.
 */
export class GuestExitError extends Error {
  override name = "GuestExitError";
  constructor(readonly code: number) {
    super(code === 0 ? "the guest exited" : `the guest exited with status ${code === 1 ? "error" : code}`);
  }
}

/**
 * The WASI imports a guest gets: preview2-shim's `WASIShim` locked down (no preopens, empty env, no
 * sockets), with outgoing `wasi:http` and `wasi:cli/exit` replaced so that network access only happens
 * through the `host` interface and a guest cannot end the worker thread. Keys are unversioned (how jco's
 * glue looks them up) and also carry the WASI 0.2.0 version TinyGo uses.
 */
export function sandboxedWasiImports(Shim: typeof WASIShim): ImportObject {
  const base = new Shim({ sandbox: { preopens: {}, env: {}, args: ["app"], enableNetwork: false } });
  const wasi: ImportObject = { ...base.getImportObject() };
  wasi["wasi:http/outgoing-handler"] = {
    handle() {
      throw { tag: "internal-error", val: "outgoing HTTP is disabled: use the trellis:app/host interface" };
    },
  };
  wasi["wasi:cli/exit"] = {
    exit(status: { tag: string }) {
      throw new GuestExitError(status.tag === "err" ? 1 : 0);
    },
    exitWithCode(code: number) {
      throw new GuestExitError(code);
    },
  };
  const versioned: ImportObject = {};
  for (const [key, value] of Object.entries(wasi)) versioned[`${key}@0.2.0`] = value;
  return { ...wasi, ...versioned };
}

/** Adds the `trellis:app/host` imports under both the unversioned and the versioned key. */
export function withHostImports(wasi: ImportObject, host: Record<string, unknown>): ImportObject {
  return { ...wasi, "trellis:app/host": host, "trellis:app/host@0.1.0": host };
}
