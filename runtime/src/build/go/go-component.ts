import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { componentEmbed, componentNew, parse } from "@bytecodealliance/jco";
import binaryen from "binaryen";
import { type CoreImport, readCoreModuleFacts } from "./go-core-module.ts";

/**
 * Makes the core module `go build` writes (GOOS=wasip1, -buildmode=c-shared) a component, with jco's own
 * embed and new (no wasm-tools binary):
 * 1. checks the module imports only WASI preview1 and the platform's host interface, and that its data
 *    lies above the adapter's scratch area (see runtime/adapters/wasip1-go.wat);
 * 2. merges the duplicate imports Go's linker emits (the runtime and package syscall both import
 *    `fd_write` and friends), which wit-component refuses, with binaryen's duplicate-import-elimination;
 * 3. embeds the app world (its WIT text) and runs `component new` with Trellis's preview1 adapter for Go,
 *    which implements preview1 on WASI 0.2 without allocating (jco's general-purpose adapter allocates
 *    on its first call, which Go makes before its own allocator exists).
 */

const ADAPTERS_DIR = fileURLToPath(new URL("../../../adapters/", import.meta.url));
const PREVIEW1 = "wasi_snapshot_preview1";
const HOST_MODULE = "trellis:app/host@0.1.0";
/** The adapter's scratch area ends here (Go's linker starts data at 12288 at the lowest). */
const ADAPTER_SCRATCH_END = 4096 + 256;

export class GoComponentError extends Error {
  override name = "GoComponentError";
}

let adapter: Promise<Uint8Array> | undefined;

/** The preview1 adapter for Go as a core module carrying its world (built once per process). */
export function goPreview1Adapter(): Promise<Uint8Array> {
  adapter ??= (async () => {
    const [wat, wit] = await Promise.all([
      readFile(path.join(ADAPTERS_DIR, "wasip1-go.wat"), "utf8"),
      readFile(path.join(ADAPTERS_DIR, "wasip1-go.wit"), "utf8"),
    ]);
    const core = await parse(wat);
    return componentEmbed({ binary: core, witSource: wit, world: "adapter" });
  })();
  return adapter;
}

/** `witSource` holds the `app` world and the host interface (go-wit.ts `goWitSource`). */
export async function componentizeGoCore(core: Uint8Array, witSource: string): Promise<Uint8Array> {
  const facts = readCoreModuleFacts(core);
  const foreign = facts.imports.filter(
    (i) => !(i.kind === "func" && (i.module === PREVIEW1 || i.module === HOST_MODULE)),
  );
  if (foreign.length > 0) {
    throw new GoComponentError(
      `the module imports ${foreign.map(describeImport).join(", ")}, which an app cannot use: only WASI preview1 and ${HOST_MODULE} (the SDK's packages) are available`,
    );
  }
  if (facts.dataStart !== undefined && facts.dataStart < ADAPTER_SCRATCH_END) {
    throw new GoComponentError(
      `the module's data starts at ${facts.dataStart}, inside the preview1 adapter's scratch area (4096..${ADAPTER_SCRATCH_END}); was it built by Go (GOOS=wasip1)?`,
    );
  }
  const unique = hasDuplicateImports(facts.imports) ? mergeDuplicateImports(core) : core;
  const embedded = await componentEmbed({ binary: unique, witSource, world: "app" });
  return componentNew(embedded, [[PREVIEW1, await goPreview1Adapter()]]);
}

function hasDuplicateImports(imports: CoreImport[]): boolean {
  const seen = new Set<string>();
  for (const i of imports) {
    const key = `${i.module}\0${i.name}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

function mergeDuplicateImports(core: Uint8Array): Uint8Array {
  const module = binaryen.readBinary(core);
  try {
    module.setFeatures(binaryen.Features.All);
    module.runPasses(["duplicate-import-elimination"]);
    return module.emitBinary();
  } finally {
    module.dispose();
  }
}

function describeImport(i: CoreImport): string {
  return `${i.module}#${i.name} (${i.kind})`;
}
