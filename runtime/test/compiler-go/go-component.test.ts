/**
 * What the Go build refuses before making a component, with modules compiled for real by the local Go:
 * a module that is not a Trellis app (no SDK, so no adapter arena) and one importing functions no
 * component of an app can be given.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentizeGoCore, GoComponentError } from "../../src/compiler/go/go-component.ts";

const WIT =
  "package trellis:app@0.1.0;\n\ninterface host {}\n\nworld app {\n  export add: func(a: s32, b: s32) -> s32;\n}\n";

describe("componentizeGoCore refuses modules it cannot make an app component of", () => {
  let dir: string;
  const build = async (name: string, source: string): Promise<Uint8Array> => {
    const app = join(dir, name);
    await mkdir(app, { recursive: true });
    await writeFile(join(app, "go.mod"), `module ${name}\n\ngo 1.24\n`);
    await writeFile(join(app, "main.go"), source);
    const out = join(app, "core.wasm");
    await promisify(execFile)("go", ["build", "-buildmode=c-shared", "-o", out, "."], {
      cwd: app,
      env: { ...process.env, GOOS: "wasip1", GOARCH: "wasm" },
    });
    return new Uint8Array(await readFile(out));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-go-component-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names the SDK when the module has no adapter arena (not built against it)", async () => {
    const core = await build(
      "plain",
      "package main\n\n//go:wasmexport add\nfunc add(a, b int32) int32 { return a + b }\n\nfunc main() {}\n",
    );
    const err = await componentizeGoCore(core, WIT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GoComponentError);
    expect((err as Error).message).toMatch(/no adapter arena: it must import the Trellis Go SDK/);
  }, 60_000);

  it("lists imports outside WASI preview1 and the host interface", async () => {
    const core = await build(
      "foreign",
      "package main\n\n//go:wasmimport env steal\nfunc steal() int32\n\n//go:wasmexport add\nfunc add(a, b int32) int32 { return a + b + steal() }\n\nfunc main() {}\n",
    );
    await expect(componentizeGoCore(core, WIT)).rejects.toThrow(
      "the module imports env#steal (func), which an app cannot use: only WASI preview1 and trellis:app/host@0.1.0 (the SDK's packages) are available",
    );
  }, 60_000);
});
