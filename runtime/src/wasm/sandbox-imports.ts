import type { WASIShim } from "@bytecodealliance/preview2-shim/instantiation";

type ImportObject = Record<string, unknown>;

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
      throw new Error(`guest called exit (${status.tag === "err" ? "error" : "ok"})`);
    },
    exitWithCode(code: number) {
      throw new Error(`guest called exit with code ${code}`);
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
