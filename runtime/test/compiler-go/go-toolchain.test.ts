import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGoApp } from "../../src/compiler/go/go-builder.ts";
import {
  checkGoToolchain,
  GoToolchainError,
  parseGoVersion,
  parseTinyGoVersion,
} from "../../src/compiler/go/go-toolchain.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "trellis-gotool-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A PATH holding only `go`/`tinygo`/`wasm-tools` scripts that print the given versions. */
async function fakePath(
  name: string,
  tools: { go?: string; tinygo?: string; wasmTools?: string },
): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir);
  const script = async (file: string, body: string) => {
    await writeFile(path.join(dir, file), `#!/bin/sh\n${body}\n`);
    await chmod(path.join(dir, file), 0o755);
  };
  if (tools.go) await script("go", `echo "${tools.go}"`);
  if (tools.tinygo) {
    await script("tinygo", `if [ "$1" = env ]; then echo /opt/tinygo; else echo "${tools.tinygo}"; fi`);
  }
  if (tools.wasmTools) await script("wasm-tools", `echo "${tools.wasmTools}"`);
  return dir;
}

const TINYGO_038 = "tinygo version 0.38.0 linux/amd64 (using go version go1.24.5 and LLVM version 19.1.2)";

describe("version parsing", () => {
  it("reads three- and two-part Go versions and TinyGo versions", () => {
    expect(parseGoVersion("go version go1.24.5 linux/amd64")).toEqual([1, 24, 5]);
    expect(parseGoVersion("go version go1.24 darwin/arm64")).toEqual([1, 24, 0]);
    expect(parseGoVersion("go version devel")).toBeUndefined();
    expect(parseTinyGoVersion(TINYGO_038)).toEqual([0, 38, 0]);
  });
});

describe("checkGoToolchain", () => {
  it("builds with TinyGo when it is on PATH with Go 1.19–1.24 and wasm-tools, and finds TINYGOROOT", async () => {
    const tc = await checkGoToolchain({
      path: await fakePath("tinygo", {
        go: "go version go1.24.5 linux/amd64",
        tinygo: TINYGO_038,
        wasmTools: "wasm-tools 1.235.0",
      }),
    });
    expect(tc).toEqual({
      compiler: "tinygo",
      go: "1.24.5",
      tinygo: "0.38.0",
      wasmTools: "1.235.0",
      tinygoRoot: "/opt/tinygo",
      problems: [],
    });
  });

  it("builds with Go >= 1.24 when TinyGo is not on PATH, needing nothing else", async () => {
    const tc = await checkGoToolchain({
      path: await fakePath("go", { go: "go version go1.26.8 linux/amd64" }),
    });
    expect(tc).toEqual({ compiler: "go", go: "1.26.8", problems: [] });
  });

  it("refuses Go older than 1.24 and no Go at all, with the fix", async () => {
    const old = await checkGoToolchain({
      path: await fakePath("old", { go: "go version go1.23.4 linux/amd64" }),
    });
    expect(old.compiler).toBeUndefined();
    expect(old.problems).toEqual([
      "Go 1.23.4 is too old: building with Go needs 1.24 or newer (//go:wasmexport); install Go 1.24 or newer from https://go.dev/dl/ and put its bin directory on PATH",
    ]);
    const none = await checkGoToolchain({ path: await fakePath("none", {}) });
    expect(none.problems).toEqual([expect.stringMatching(/^Go is not on PATH: install Go 1\.24 or newer/)]);
  });

  it("lists every TinyGo problem at once, each naming the way out with Go", async () => {
    const tc = await checkGoToolchain({
      path: await fakePath("tinygo-bad", {
        go: "go version go1.26.1 linux/amd64",
        tinygo: "tinygo version 0.37.0 linux/amd64",
      }),
    });
    expect(tc.compiler).toBeUndefined();
    expect(tc.problems).toEqual([
      expect.stringMatching(
        /^TinyGo 0\.37\.0 found, but the build needs TinyGo 0\.38\.x; .*TRELLIS_GO_COMPILER=go$/,
      ),
      expect.stringMatching(
        /^Go 1\.26\.1 does not work with TinyGo 0\.38: TinyGo 0\.38 needs Go 1\.19–1\.24/,
      ),
      expect.stringMatching(/^wasm-tools is not on PATH: .*TRELLIS_GO_COMPILER=go$/),
    ]);
  });

  it("uses Go when told to, with TinyGo on PATH (option or TRELLIS_GO_COMPILER)", async () => {
    const PATH = await fakePath("both", { go: "go version go1.26.8 linux/amd64", tinygo: TINYGO_038 });
    expect((await checkGoToolchain({ path: PATH, compiler: "go" })).compiler).toBe("go");
    const before = process.env.TRELLIS_GO_COMPILER;
    process.env.TRELLIS_GO_COMPILER = "go";
    try {
      expect((await checkGoToolchain({ path: PATH })).compiler).toBe("go");
      process.env.TRELLIS_GO_COMPILER = "gcc";
      await expect(checkGoToolchain({ path: PATH })).rejects.toThrow(/unknown Go compiler "gcc"/);
    } finally {
      if (before === undefined) delete process.env.TRELLIS_GO_COMPILER;
      else process.env.TRELLIS_GO_COMPILER = before;
    }
  });
});

describe("buildGoApp", () => {
  it("stops before touching the app when the toolchain is incomplete", async () => {
    const PATH = await fakePath("build", { go: "go version go1.22.0 linux/amd64" });
    const appDir = path.join(root, "app");
    const err = await buildGoApp(appDir, { outDir: path.join(appDir, "build"), path: PATH }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GoToolchainError);
    expect((err as Error).message).toMatch(/^the Go build cannot run:\n {2}- Go 1\.22\.0 is too old/);
  });
});
