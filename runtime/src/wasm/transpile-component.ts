import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { transpile } from "@bytecodealliance/jco";

/** File name (without extension) of the generated glue: `component.js` plus `component.core*.wasm`. */
export const GLUE_NAME = "component";

/**
 * Transpiles a component once, at build or deploy time, into jco 1.11.2 glue (`component.js`, an ESM
 * module exporting `instantiate(getCoreModule, imports, instantiateCore)`) and its core modules as
 * separate `.wasm` files, so the runtime needs only preview2-shim and can compile each core module once.
 * jco 1.11.2 is chosen over 1.35 for its ~40x cheaper calls and instantiation (bench/runtime/README-jco.md).
 */
export async function transpileComponent(
  componentBytes: Uint8Array,
  outDir: string,
): Promise<{ files: string[] }> {
  const result = await transpile(componentBytes, {
    name: GLUE_NAME,
    instantiation: "async",
    // 0 keeps every core module in its own file instead of inlining small ones as base64.
    base64Cutoff: 0,
    // The glue is loaded by the worker pool, never type-checked: skip the .d.ts files.
    typescript: false,
  } as Parameters<typeof transpile>[1]);
  const files = Object.keys(result.files).sort();
  await mkdir(outDir, { recursive: true });
  for (const name of files) {
    const target = join(outDir, name);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, result.files[name]);
  }
  return { files };
}
