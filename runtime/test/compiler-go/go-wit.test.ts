import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { componentEmbed, componentNew, componentWit } from "@bytecodealliance/jco";
import { describe, expect, it } from "vitest";
import { type GoSignatures, goSignaturesToModel } from "../../src/compiler/go/go-signatures.ts";
import { renderGoWorld, writeGoWitDir } from "../../src/compiler/go/go-wit.ts";
import { readAppWorld } from "../../src/wit/wit-parser.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const hostWitPath = path.resolve(here, "../../wit/host.wit");

async function world() {
  const sigs = JSON.parse(await readFile(path.join(here, "fixtures/app-sigs.json"), "utf8")) as GoSignatures;
  return goSignaturesToModel(sigs).model.world;
}

describe("renderGoWorld", () => {
  it("renders records, docs and result-wrapped exports, and includes the host and WASI 0.2.0 imports", async () => {
    const text = renderGoWorld(await world());
    expect(text).toContain("package trellis:app@0.1.0;\n");
    expect(text).toContain("world app {\n  include imports;\n  include wasi:cli/imports@0.2.0;\n");
    expect(text).toContain("  record address {\n    street: string,\n    %type: string,\n  }\n");
    expect(text).toContain("  /// Person is someone we know.\n  record person {\n    first-name: string,\n");
    expect(text).toContain("    address: option<address>,\n");
    expect(text).toContain(
      "  /// SayHello greets someone.\n  export say-hello: func(name: string) -> result<string, string>;\n",
    );
    expect(text).toContain("  export get-person: func(user-id: s32) -> result<option<person>, string>;\n");
    expect(text).toContain(
      "  export add-people: func(people: list<person>, raw: list<u8>) -> result<_, string>;\n",
    );
    expect(text).toContain("  export ping: func() -> result<_, string>;\n");
  });

  it("is valid WIT that wit-component accepts with the platform's host.wit", async () => {
    // Without WASI (no WASI WIT ships with jco 1.11.2); everything else is the text the Go build uses.
    const source = `${await readFile(hostWitPath, "utf8")}\n${renderGoWorld(await world(), { includeWasi: false, packageLine: false })}`;
    const core = await componentEmbed({ dummy: true, witSource: source, world: "app" });
    const component = await componentNew(core, undefined);
    const printed = await componentWit(component);
    expect(printed).toContain("import trellis:app/host@0.1.0;");
    expect(printed).toContain("export get-person: func(user-id: s32) -> result<option<person>, string>;");
    expect(printed).toMatch(/record person \{\s+first-name: string,\s+id: s64,\s+age: u32,/);
    // The runtime reads the API back from the component: it must be exactly the world the build derived.
    const readBack = await readAppWorld(component);
    const expected = await world();
    expect(readBack.functions).toEqual(expected.functions.map(({ docs: _docs, ...f }) => f));
    expect([...readBack.types.values()]).toEqual(
      [...expected.types.values()].map(({ docs: _docs, ...t }) => t),
    );
  });
});

describe("writeGoWitDir", () => {
  it("lays out app.wit, host.wit and TinyGo's WASI WIT as deps", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "trellis-gowit-"));
    try {
      // A stand-in for $(tinygo env TINYGOROOT)/lib/wasi-cli/wit with the same layout.
      const wasi = path.join(dir, "tinygo", "lib", "wasi-cli", "wit");
      await mkdir(path.join(wasi, "deps", "io"), { recursive: true });
      await writeFile(path.join(wasi, "imports.wit"), "package wasi:cli@0.2.0;\nworld imports {}\n");
      await writeFile(path.join(wasi, "deps", "io", "streams.wit"), "package wasi:io@0.2.0;\n");
      const witDir = path.join(dir, "build", "wit");
      await writeGoWitDir(witDir, await world(), { hostWitPath, wasiWitDir: wasi });
      expect((await readdir(witDir)).sort()).toEqual(["app.wit", "deps", "host.wit"]);
      expect((await readdir(path.join(witDir, "deps"))).sort()).toEqual(["cli", "io"]);
      expect(await readFile(path.join(witDir, "deps", "cli", "imports.wit"), "utf8")).toContain(
        "wasi:cli@0.2.0",
      );
      expect(await readdir(path.join(witDir, "deps", "io"))).toEqual(["streams.wit"]);
      expect(await readFile(path.join(witDir, "host.wit"), "utf8")).toBe(await readFile(hostWitPath, "utf8"));
      expect(await readFile(path.join(witDir, "app.wit"), "utf8")).toContain("export ping: func()");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
