import { readFile } from "node:fs/promises";
import { componentEmbed, componentNew, preview1AdapterReactorPath } from "@bytecodealliance/jco";
import binaryen from "binaryen";
import { type CoreImport, findInData, readCoreModuleFacts } from "./go-core-module.ts";

/**
 * Makes the core module `go build` writes (GOOS=wasip1, -buildmode=c-shared) a component with jco's own
 * embed and new (no wasm-tools binary) and the WASI preview1 reactor adapter jco ships:
 * 1. checks the module imports only WASI preview1 and the platform's host interface;
 * 2. merges the duplicate imports Go's linker emits (the runtime and package syscall both import
 *    `fd_write` and friends), which wit-component refuses (binaryen's duplicate-import-elimination);
 * 3. gives the adapter memory of its own: it allocates its stack and state (128 KiB) on its first call,
 *    through `cabi_realloc_adapter` if the module exports one, else `cabi_realloc` or memory.grow. Go's
 *    runtime makes that first call (a clock read) before its allocator exists, and it claims all memory
 *    above its data as heap. So the build adds a `cabi_realloc_adapter` that hands out the SDK's
 *    adapterArena, an array of Go data no Go code touches, found by the 16 bytes that start it;
 * 4. embeds the app world (its WIT text) and runs `component new` with the adapter.
 */

const PREVIEW1 = "wasi_snapshot_preview1";
const HOST_MODULE = "trellis:app/host@0.1.0";
/** The start of the SDK's adapterArena (runtime/sdk/go/wasmabi/adapter_arena.go) and its size. */
const ARENA_MAGIC = new TextEncoder().encode("trellis:adapter!");
const ARENA_BYTES = 256 * 1024;

export class GoComponentError extends Error {
  override name = "GoComponentError";
}

let adapter: Promise<Uint8Array> | undefined;

function reactorAdapter(): Promise<Uint8Array> {
  adapter ??= readFile(preview1AdapterReactorPath()).then((b) => new Uint8Array(b));
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
  const arenas = findInData(facts, ARENA_MAGIC);
  if (arenas.length !== 1) {
    throw new GoComponentError(
      arenas.length === 0
        ? "the module has no adapter arena: it must import the Trellis Go SDK (github.com/trellis-dev/trellis/runtime/sdk/go), which trellis_exports_gen.go does; was it built by `trellis build`?"
        : `the marker of the adapter arena appears ${arenas.length} times in the module's data; rename the data that repeats "trellis:adapter!"`,
    );
  }
  const prepared = prepareForAdapter(core, arenas[0]! + ARENA_MAGIC.length, arenas[0]! + ARENA_BYTES);
  const embedded = await componentEmbed({ binary: prepared, witSource, world: "app" });
  return componentNew(embedded, [[PREVIEW1, await reactorAdapter()]]);
}

/** Merges duplicate imports and adds `cabi_realloc_adapter`, a bump allocator over [start, end). */
function prepareForAdapter(core: Uint8Array, start: number, end: number): Uint8Array {
  const module = binaryen.readBinary(core);
  try {
    module.setFeatures(binaryen.Features.All);
    module.runPasses(["duplicate-import-elimination"]);
    const { i32 } = binaryen;
    const next = "trellis_adapter_next";
    module.addGlobal(next, i32, true, module.i32.const(start));
    // (old_ptr, old_size, align, new_size) -> ptr; the adapter only ever allocates, once per block.
    const param = (i: number) => module.local.get(i, i32);
    const aligned = module.i32.and(
      module.i32.sub(module.i32.add(module.global.get(next, i32), param(2)), module.i32.const(1)),
      module.i32.sub(module.i32.const(0), param(2)),
    );
    const body = module.block(
      null,
      [
        module.if(module.i32.ne(param(0), module.i32.const(0)), module.unreachable()),
        module.local.set(4, aligned),
        module.if(
          module.i32.gt_u(module.i32.add(module.local.get(4, i32), param(3)), module.i32.const(end)),
          module.unreachable(),
        ),
        module.global.set(next, module.i32.add(module.local.get(4, i32), param(3))),
        module.return(module.local.get(4, i32)),
      ],
      i32,
    );
    module.addFunction(
      "trellis_cabi_realloc_adapter",
      binaryen.createType([i32, i32, i32, i32]),
      i32,
      [i32],
      body,
    );
    module.addFunctionExport("trellis_cabi_realloc_adapter", "cabi_realloc_adapter");
    if (!module.validate())
      throw new GoComponentError("the module does not validate after preparing it for the adapter");
    return module.emitBinary();
  } finally {
    module.dispose();
  }
}

function describeImport(i: CoreImport): string {
  return `${i.module}#${i.name} (${i.kind})`;
}
