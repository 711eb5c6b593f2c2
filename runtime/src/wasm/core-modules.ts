import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { capMemoryPages } from "./memory-cap.ts";
import { GLUE_NAME } from "./transpile-component.ts";

/** A transpiled component ready for workers: the glue's URL and every core module compiled once. */
export interface LoadedComponent {
  glueUrl: string;
  modules: Record<string, WebAssembly.Module>;
  compileMs: number;
}

/**
 * Compiles the core modules of a transpiled component once on the main thread, with their memories
 * capped at `memoryLimitBytes`. Compiled modules are posted to workers, which then share V8's compiled
 * code instead of compiling again (bench/runtime/README-jco.md has the numbers).
 */
export async function loadTranspiledComponent(
  transpiledDir: string,
  memoryLimitBytes: number,
): Promise<LoadedComponent> {
  // QuickJS guests use extended-const, behind a flag on Node 20; must be set before compiling.
  v8.setFlagsFromString("--experimental-wasm-extended-const");
  const started = performance.now();
  const names = (await readdir(transpiledDir)).filter((n) => n.endsWith(".wasm"));
  if (!names.length) throw new Error(`no core modules in ${transpiledDir}: was the component transpiled?`);
  const maxPages = Math.max(1, Math.floor(memoryLimitBytes / 65536));
  const compiled = await Promise.all(
    names.map(async (name) => {
      const bytes = capMemoryPages(await readFile(join(transpiledDir, name)), maxPages);
      return [name, await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>)] as const;
    }),
  );
  return {
    glueUrl: pathToFileURL(join(transpiledDir, `${GLUE_NAME}.js`)).href,
    modules: Object.fromEntries(compiled),
    compileMs: performance.now() - started,
  };
}
