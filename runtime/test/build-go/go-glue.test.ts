import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  findWorldPackageDir,
  parseGoBindingNames,
  readGoBindingNames,
} from "../../src/build/go-bindings-names.ts";
import { goModulePath } from "../../src/build/go-builder.ts";
import { renderGoGlue } from "../../src/build/go-glue.ts";
import { type GoSignatures, goSignaturesToModel } from "../../src/build/go-signatures.ts";
import { debianGoBin } from "./debian-go.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFile(path.join(here, "fixtures", name), "utf8");

async function load() {
  const sigs = JSON.parse(await fixture("app-sigs.json")) as GoSignatures;
  const { model } = goSignaturesToModel(sigs);
  const names = parseGoBindingNames(await fixture("app.exports.go.txt"), await fixture("app.wit.go.txt"));
  return { model, names };
}

describe("parseGoBindingNames", () => {
  it("reads export fields and record field names from wit-bindgen-go output", async () => {
    const { names } = await load();
    expect([...names.exports]).toEqual([
      ["say-hello", "SayHello"],
      ["get-person", "GetPerson"],
      ["add-people", "AddPeople"],
      ["ping", "Ping"],
    ]);
    expect(names.records.get("address")).toEqual({
      goName: "Address",
      fields: new Map([
        ["street", "Street"],
        ["type", "Type"],
      ]),
    });
    expect([...names.records.get("person")!.fields.values()]).toEqual([
      "FirstName",
      "ID",
      "Age",
      "Tags",
      "Address",
      "Scores",
    ]);
  });
});

describe("locating the generated world package", () => {
  it("finds <world>.exports.go under the bindings dir and reads the module path from go.mod", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "trellis-bindings-"));
    try {
      const worldDir = path.join(dir, "internal", "gen", "trellis", "app", "app");
      await mkdir(path.join(dir, "internal", "gen", "wasi", "cli", "v0.2.0", "run"), { recursive: true });
      await mkdir(worldDir, { recursive: true });
      await writeFile(path.join(worldDir, "app.exports.go"), await fixture("app.exports.go.txt"));
      await writeFile(path.join(worldDir, "app.wit.go"), await fixture("app.wit.go.txt"));
      expect(await findWorldPackageDir(path.join(dir, "internal", "gen"), "app")).toBe(worldDir);
      expect(await findWorldPackageDir(path.join(dir, "internal", "gen"), "other")).toBeUndefined();
      expect((await readGoBindingNames(worldDir, "app")).exports.get("ping")).toBe("Ping");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(goModulePath("module example.com/my-app\n\ngo 1.24\n")).toBe("example.com/my-app");
    expect(goModulePath('// c\nmodule "example.com/q"\n')).toBe("example.com/q");
    expect(goModulePath("go 1.24\n")).toBeUndefined();
  });
});

describe("renderGoGlue", () => {
  it("adapts each export, converting between the app's Go types and the generated ones", async () => {
    const { model, names } = await load();
    const glue = renderGoGlue(model, {
      worldImport: "example.com/hello/internal/gen/trellis/app/app",
      names,
    });
    expect(glue).toContain('trellisgen "example.com/hello/internal/gen/trellis/app/app"');
    expect(glue).toContain("\ttrellisgen.Exports.GetPerson = trellisExportGetPerson\n");
    // int parameter from s32, *Person result to option<person>, error to the err side.
    expect(glue).toContain(
      "func trellisExportGetPerson[R trelliscm.AnyResult[S, trelliscm.Option[trellisgen.Person], string], S any](p0 int32) R {\n" +
        "\tvalue, err := GetPerson(int(p0))\n" +
        "\tif err != nil {\n" +
        "\t\treturn trelliscm.Err[R, S, trelliscm.Option[trellisgen.Person], string](err.Error())\n" +
        "\t}\n" +
        "\treturn trelliscm.OK[R, S, trelliscm.Option[trellisgen.Person], string](trellisToOption(value, func(v Person) trellisgen.Person { return trellisToWitPerson(v) }))\n" +
        "}\n",
    );
    // Lists of records convert element-wise; []byte is the same memory as list<u8>.
    expect(glue).toContain(
      "\terr := AddPeople(trellisFromList(p0, func(v trellisgen.Person) Person { return trellisFromWitPerson(v) }), p1.Slice())\n",
    );
    expect(glue).toContain("\tPing()\n\treturn trelliscm.OK[R, S, struct{}, string](struct{}{})\n");
    // Record fields use the generated names (ID, not Id) and convert int/uint widths.
    expect(glue).toContain("\t\tID: v.ID,\n\t\tAge: uint32(v.Age),\n\t\tTags: trelliscm.ToList(v.Tags),\n");
    expect(glue).toContain("\t\tScores: trellisToList(v.Scores, func(v int) int32 { return int32(v) }),\n");
    expect(glue).toContain("\t\tAge: uint(v.Age),\n");
    expect(glue).not.toContain("func main()");
  });

  it("adds func main when the app has none, and refuses bindings that do not match the world", async () => {
    const { model, names } = await load();
    const glue = renderGoGlue({ ...model, hasMain: false }, { worldImport: "x/app", names });
    expect(glue.trimEnd().endsWith("func main() {}")).toBe(true);
    names.exports.delete("ping");
    expect(() => renderGoGlue(model, { worldImport: "x/app", names })).toThrow(
      "export ping is missing from the generated bindings",
    );
  });

  it("produces Go that parses (gofmt)", async () => {
    const gofmt = path.join(debianGoBin(), "gofmt");
    const { model, names } = await load();
    const dir = await mkdtemp(path.join(os.tmpdir(), "trellis-glue-"));
    try {
      const file = path.join(dir, "trellis_exports_gen.go");
      await writeFile(file, renderGoGlue(model, { worldImport: "example.com/hello/gen/app", names }));
      // -e reports every syntax error; formatting differences alone are not failures here.
      execFileSync(gofmt, ["-e", file], { stdio: ["ignore", "ignore", "pipe"] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
