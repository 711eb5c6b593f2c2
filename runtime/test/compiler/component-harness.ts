/**
 * Loads a built component the way the runtime will: jco 1.11.2 transpile (async instantiation), a
 * sandboxed WASI shim, and a plain object as the Trellis host import.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { transpile } from "@bytecodealliance/jco";
import { WASIShim } from "@bytecodealliance/preview2-shim/instantiation";

// QuickJS components use extended-const, which Node 20 only compiles behind this flag.
v8.setFlagsFromString("--experimental-wasm-extended-const");

export type HostImports = Record<string, (...args: never[]) => unknown>;
export type Instance = Record<string, (...args: unknown[]) => unknown>;

export async function loadComponent(
  component: Uint8Array,
  dir: string,
  host: HostImports,
): Promise<Instance> {
  const { files } = (await transpile(component, {
    name: "app",
    instantiation: "async",
    noTypescript: true,
  } as Parameters<typeof transpile>[1])) as {
    files: Record<string, Uint8Array>;
  };
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), bytes);
  }
  const glue = (await import(pathToFileURL(join(dir, "app.js")).href)) as {
    instantiate(get: (path: string) => Promise<WebAssembly.Module>, imports: object): Promise<Instance>;
  };
  const wasi = new WASIShim({ sandbox: { preopens: {}, env: {}, enableNetwork: false } }).getImportObject();
  const compile = (path: string) => WebAssembly.compile(files[path] as Uint8Array<ArrayBuffer>);
  return glue.instantiate(compile, { ...wasi, "trellis:app/host": host, "trellis:app/host@0.1.0": host });
}

/** The `err` payload of a failed call (jco throws a ComponentError carrying it). */
export function callError(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    const payload = (error as { payload?: unknown }).payload;
    return typeof payload === "string" ? payload : `not a component error: ${String(error)}`;
  }
  throw new Error("expected the call to fail");
}
