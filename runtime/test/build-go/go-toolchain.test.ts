import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGoApp } from "../../src/build/go-builder.ts";
import {
  checkGoToolchain,
  GoToolchainError,
  parseGoVersion,
  parseTinyGoVersion,
} from "../../src/build/go-toolchain.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "trellis-gotool-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A PATH holding fake `go`/`tinygo`/`wasm-tools` scripts that print the given versions. */
async function fakePath(
  name: string,
  tools: { go?: string; tinygo?: string; wasmTools?: string },
): Promise<string> {
  const dir = path.join(root, name);
  await import("node:fs/promises").then((fs) => fs.mkdir(dir));
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

describe("version parsing", () => {
  it("reads three- and two-part Go versions and TinyGo versions", () => {
    expect(parseGoVersion("go version go1.24.5 linux/amd64")).toEqual([1, 24, 5]);
    expect(parseGoVersion("go version go1.24 darwin/arm64")).toEqual([1, 24, 0]);
    expect(parseGoVersion("go version devel")).toBeUndefined();
    expect(
      parseTinyGoVersion(
        "tinygo version 0.38.0 linux/amd64 (using go version go1.24.5 and LLVM version 19.1.2)",
      ),
    ).toEqual([0, 38, 0]);
  });
});

describe("checkGoToolchain", () => {
  it("accepts Go 1.24, TinyGo 0.38 and wasm-tools, and finds TINYGOROOT", async () => {
    const PATH = await fakePath("good", {
      go: "go version go1.24.5 linux/amd64",
      tinygo: "tinygo version 0.38.0 linux/amd64 (using go version go1.24.5 and LLVM version 19.1.2)",
      wasmTools: "wasm-tools 1.235.0",
    });
    const tc = await checkGoToolchain({ path: PATH });
    expect(tc).toEqual({
      go: "1.24.5",
      tinygo: "0.38.0",
      wasmTools: "1.235.0",
      tinygoRoot: "/opt/tinygo",
      problems: [],
    });
  });

  it("lists everything missing at once, with install hints", async () => {
    const tc = await checkGoToolchain({ path: await fakePath("empty", {}) });
    expect(tc.problems).toHaveLength(3);
    expect(tc.problems[0]).toMatch(/^Go is not on PATH: install Go 1\.24\.x from https:\/\/go\.dev\/dl\//);
    expect(tc.problems[1]).toMatch(/^TinyGo is not on PATH: install TinyGo 0\.38\.0/);
    expect(tc.problems[2]).toMatch(/^wasm-tools is not on PATH/);
  });

  it("rejects Go older than 1.23 and a wrong TinyGo version", async () => {
    const tc = await checkGoToolchain({
      path: await fakePath("old", {
        go: "go version go1.22 linux/amd64",
        tinygo: "tinygo version 0.37.0 linux/amd64",
        wasmTools: "wasm-tools 1.235.0",
      }),
    });
    expect(tc.problems).toEqual([
      expect.stringMatching(/^Go 1\.22\.0 is too old: the build needs Go 1\.23 or newer/),
      expect.stringMatching(/^TinyGo 0\.37\.0 found, but the build needs TinyGo 0\.38\.x/),
    ]);
  });

  it("explains that TinyGo 0.38 accepts Go 1.19–1.24 when Go is 1.25+", async () => {
    const tc = await checkGoToolchain({
      path: await fakePath("new", {
        go: "go version go1.25.1 linux/amd64",
        tinygo: "tinygo version 0.38.0 linux/amd64",
        wasmTools: "wasm-tools 1.235.0",
      }),
    });
    expect(tc.problems).toEqual([
      expect.stringContaining("Go 1.25.1 is too new for TinyGo 0.38: TinyGo 0.38 accepts Go 1.19–1.24"),
    ]);
  });
});

describe("buildGoApp", () => {
  it("stops before touching the app when the toolchain is incomplete", async () => {
    const PATH = await fakePath("build", { go: "go version go1.24.5 linux/amd64" });
    const appDir = path.join(root, "app");
    const err = await buildGoApp(appDir, { outDir: path.join(appDir, "build"), path: PATH }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GoToolchainError);
    expect((err as GoToolchainError).problems.map((p) => p.split(":")[0])).toEqual([
      "TinyGo is not on PATH",
      "wasm-tools is not on PATH",
    ]);
    expect((err as Error).message).toMatch(/^the Go build cannot run:\n {2}- TinyGo is not on PATH/);
  });
});
