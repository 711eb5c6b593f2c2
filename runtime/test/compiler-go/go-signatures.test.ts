import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  extractGoSignatures,
  type GoSignatures,
  goNameToKebab,
  goSignaturesToModel,
} from "../../src/compiler/go/go-signatures.ts";
import { goBinDir } from "./go-bin.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const sdkDir = path.resolve(here, "../../sdk/go");
const loadFixture = async (): Promise<GoSignatures> =>
  JSON.parse(await readFile(path.join(here, "fixtures/app-sigs.json"), "utf8")) as GoSignatures;

const fn = (
  name: string,
  params: [string, string][],
  results: string[],
): GoSignatures["functions"][number] => ({
  name,
  pos: "main.go:3:6",
  params: params.map(([n, t]) => ({ name: n, type: parseType(t) })),
  results: results.map(parseType),
});
/** Enough of Go's type syntax for the cases below. */
function parseType(text: string): GoSignatures["functions"][number]["results"][number] {
  if (text.startsWith("*")) return { kind: "pointer", elem: parseType(text.slice(1)), text };
  if (text.startsWith("[]")) return { kind: "slice", elem: parseType(text.slice(2)), text };
  if (text.startsWith("map[")) return { kind: "map", text };
  if (text.startsWith("chan ")) return { kind: "chan", text };
  if (text.startsWith("func(")) return { kind: "func", text };
  if (text === "interface{}") return { kind: "interface", text };
  if (text.includes(".")) {
    const [pkg, name] = text.split(".");
    return { kind: "qualified", package: pkg, name, text };
  }
  return { kind: "ident", name: text, text };
}
const sigsOf = (functions: GoSignatures["functions"], types: GoSignatures["types"] = []): GoSignatures => ({
  package: "main",
  hasMain: true,
  functions,
  types,
  errors: [],
});

describe("goNameToKebab", () => {
  it("splits Go names at word and initialism boundaries", () => {
    expect(goNameToKebab("SayHello")).toBe("say-hello");
    expect(goNameToKebab("GetURLPath")).toBe("get-url-path");
    expect(goNameToKebab("UserID")).toBe("user-id");
    expect(goNameToKebab("ID")).toBe("id");
    expect(goNameToKebab("HTTP2Server")).toBe("http2-server");
    expect(goNameToKebab("Line2")).toBe("line2");
    expect(goNameToKebab("snake_case_Name")).toBe("snake-case-name");
  });
});

describe("goSignaturesToModel", () => {
  it("maps a realistic app to a world with records, options, lists and result<T, string>", async () => {
    const { model, problems, warnings } = goSignaturesToModel(await loadFixture());
    expect(problems).toEqual([]);
    expect(warnings).toEqual(["people.go:15:2: unexported field note of Person is not part of the API"]);
    const { world } = model;
    expect(world.functions.map((f) => f.name)).toEqual(["say-hello", "get-person", "add-people", "ping"]);
    expect(world.functions[0]).toEqual({
      name: "say-hello",
      params: [{ name: "name", type: { kind: "prim", name: "string" } }],
      result: { kind: "result", ok: { kind: "prim", name: "string" }, err: { kind: "prim", name: "string" } },
      docs: "SayHello greets someone.",
    });
    expect(world.functions[1]!.params).toEqual([{ name: "user-id", type: { kind: "prim", name: "s32" } }]);
    expect(world.functions[1]!.result).toEqual({
      kind: "result",
      ok: { kind: "option", of: { kind: "ref", name: "person" } },
      err: { kind: "prim", name: "string" },
    });
    expect(world.functions[2]!.params.map((p) => p.type)).toEqual([
      { kind: "list", of: { kind: "ref", name: "person" } },
      { kind: "list", of: { kind: "prim", name: "u8" } },
    ]);
    expect(world.functions[2]!.result).toEqual({ kind: "result", err: { kind: "prim", name: "string" } });
    expect(world.functions[3]!.result).toEqual({ kind: "result", err: { kind: "prim", name: "string" } });
    // Records in dependency order; only reachable ones; Color (not a struct, unused) is not in the world.
    expect([...world.types.keys()]).toEqual(["address", "person"]);
    expect(world.types.get("person")).toEqual({
      kind: "record",
      name: "person",
      docs: "Person is someone we know.",
      fields: [
        { name: "first-name", type: { kind: "prim", name: "string" } },
        { name: "id", type: { kind: "prim", name: "s64" } },
        { name: "age", type: { kind: "prim", name: "u32" } },
        { name: "tags", type: { kind: "list", of: { kind: "prim", name: "string" } } },
        { name: "address", type: { kind: "option", of: { kind: "ref", name: "address" } } },
        { name: "scores", type: { kind: "list", of: { kind: "prim", name: "s32" } } },
      ],
    });
    expect(model.exports[1]).toMatchObject({
      goName: "GetPerson",
      witName: "get-person",
      returnsError: true,
    });
    expect(model.exports[3]).toMatchObject({ goName: "Ping", result: undefined, returnsError: false });
    expect(model.records.map((r) => r.goName)).toEqual(["Address", "Person"]);
  });

  it("reports a struct's problem once, however many functions use it", () => {
    const thing = {
      name: "Thing",
      pos: "main.go:10:6",
      kind: "struct" as const,
      fields: [
        { name: "Base", type: parseType("Base"), pos: "main.go:11:2", exported: true, embedded: true },
        { name: "note", type: parseType("string"), pos: "main.go:12:2", exported: false },
      ],
    };
    const { problems } = goSignaturesToModel(
      sigsOf(
        [fn("GetThing", [], ["Thing"]), fn("PutThing", [["t", "Thing"]], []), fn("Things", [], ["[]Thing"])],
        [thing],
      ),
    );
    expect(problems).toEqual(["main.go:11:2: embedded field Base in struct Thing is not supported"]);
  });

  it("reports every unsupported type with file:line:col and where it is used", () => {
    const { problems } = goSignaturesToModel(
      sigsOf(
        [
          fn("GetThing", [["x", "map[string]int"]], ["string"]),
          fn("Listen", [["c", "chan int"]], []),
          fn("Call", [["f", "func()"]], []),
          fn("Any", [["v", "interface{}"]], []),
          fn("Link", [], ["url.URL"]),
          fn("Pair", [], ["string", "int"]),
          fn("Shade", [["c", "Color"]], []),
          fn("Unknown", [["t", "Thing"]], []),
        ],
        [{ name: "Color", pos: "main.go:1:6", kind: "other", fields: [], under: parseType("string") }],
      ),
    );
    expect(problems).toEqual([
      "main.go:3:6: unsupported type map[string]int in parameter x of GetThing (use a slice of structs)",
      "main.go:3:6: unsupported type chan int in parameter c of Listen",
      "main.go:3:6: unsupported type func() in parameter f of Call",
      "main.go:3:6: unsupported type interface{} in parameter v of Any",
      "main.go:3:6: unsupported type url.URL in result of Link (only types of package main, and time.Time)",
      "main.go:3:6: Pair returns 2 values; return one value (a struct for several) and optionally a trailing error",
      "main.go:3:6: unsupported type Color in parameter c of Shade (named type Color is not a struct; use its underlying type)",
      "main.go:3:6: unsupported type Thing in parameter t of Unknown",
    ]);
  });

  it('maps time.Time to the timestamp record, names fields by their json tags and skips `json:"-"`', () => {
    const event: GoSignatures["types"][number] = {
      name: "Event",
      pos: "main.go:1:6",
      kind: "struct",
      doc: "Event happened.",
      fields: [
        { name: "At", type: parseType("time.Time"), pos: "main.go:2:2", exported: true, doc: "When." },
        {
          name: "Title",
          type: parseType("string"),
          pos: "main.go:3:2",
          exported: true,
          json: "headline,omitempty",
        },
        { name: "Internal", type: parseType("string"), pos: "main.go:4:2", exported: true, json: "-" },
        { name: "Ends", type: parseType("*time.Time"), pos: "main.go:5:2", exported: true },
      ],
    };
    const { model, problems } = goSignaturesToModel(
      sigsOf([fn("ListEvents", [["since", "time.Time"]], ["[]Event", "error"])], [event]),
    );
    expect(problems).toEqual([]);
    expect(model.world.types.get("timestamp")).toMatchObject({
      kind: "record",
      fields: [
        { name: "seconds", type: { kind: "prim", name: "s64" } },
        { name: "nanoseconds", type: { kind: "prim", name: "u32" } },
      ],
    });
    expect(model.world.types.get("event")).toEqual({
      kind: "record",
      name: "event",
      docs: "Event happened.",
      fields: [
        { name: "at", type: { kind: "ref", name: "timestamp" }, docs: "When." },
        { name: "headline", type: { kind: "prim", name: "string" } },
        { name: "ends", type: { kind: "option", of: { kind: "ref", name: "timestamp" } } },
      ],
    });
    expect(model.world.functions[0]?.params).toEqual([
      { name: "since", type: { kind: "ref", name: "timestamp" } },
    ]);
  });

  it("refuses two fields with one API name and a struct named like the Timestamp scalar", () => {
    const dup: GoSignatures["types"][number] = {
      name: "Dup",
      pos: "main.go:1:6",
      kind: "struct",
      fields: [
        { name: "Name", type: parseType("string"), pos: "main.go:2:2", exported: true },
        { name: "Other", type: parseType("string"), pos: "main.go:3:2", exported: true, json: "name" },
      ],
    };
    const ts: GoSignatures["types"][number] = {
      name: "Timestamp",
      pos: "main.go:5:6",
      kind: "struct",
      fields: [],
    };
    const { problems } = goSignaturesToModel(
      sigsOf([fn("GetDup", [], ["Dup"]), fn("GetTs", [], ["Timestamp"])], [dup, ts]),
    );
    expect(problems).toEqual([
      "main.go:3:2: fields Name and Other of Dup both become the field name",
      "main.go:5:6: type Timestamp clashes with the GraphQL scalar Timestamp (time.Time); rename it",
    ]);
  });

  it("rejects recursive structs and clashing export names", () => {
    const node: GoSignatures["types"][number] = {
      name: "Node",
      pos: "main.go:1:6",
      kind: "struct",
      fields: [{ name: "Next", type: parseType("*Node"), pos: "main.go:2:2", exported: true }],
    };
    const { problems } = goSignaturesToModel(
      sigsOf([fn("Walk", [["n", "Node"]], []), fn("GetID", [], []), fn("Get_ID", [], [])], [node]),
    );
    expect(problems).toEqual([
      "main.go:2:2: recursive type Node in field Next of Node (WIT records cannot contain themselves)",
      "main.go:3:6: Get_ID and GetID both become the export get-id",
    ]);
  });

  it("says so when a package exports nothing", () => {
    expect(goSignaturesToModel(sigsOf([])).problems).toEqual([
      "no exported functions found in package main (export a function by capitalizing its name)",
    ]);
  });
});

describe("trellis-sigs (run with the Go toolchain)", () => {
  let goBin: string;
  beforeAll(() => {
    goBin = goBinDir();
  });

  it("prints the exported receiver-less functions and structs of package main", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "trellis-sigs-"));
    try {
      await writeFile(
        path.join(dir, "main.go"),
        [
          "package main",
          "",
          'import "errors"',
          "",
          "// Person is someone.",
          "type Person struct {",
          "\tName string",
          "\tTags []string",
          "\tsecret string",
          "}",
          "",
          "// GetPerson finds a person.",
          "func GetPerson(id string, limit *int) (*Person, error) { return nil, errors.New(id) }",
          "",
          "func (p Person) Hidden() {}",
          "func helper()            {}",
          "func main()              {}",
          "",
        ].join("\n"),
      );
      await writeFile(path.join(dir, "trellis_exports_gen.go"), "package main\n\nfunc Generated() {}\n");
      const env = { ...process.env, PATH: `${goBin}:${process.env.PATH}`, GOFLAGS: "", GOTOOLCHAIN: "local" };
      const sigs = await extractGoSignatures(dir, sdkDir, env);
      expect(sigs.hasMain).toBe(true);
      expect(sigs.errors).toEqual([]);
      expect(sigs.functions.map((f) => [f.name, f.pos, f.doc])).toEqual([
        ["GetPerson", "main.go:13:6", "GetPerson finds a person."],
      ]);
      const { model, problems } = goSignaturesToModel(sigs);
      expect(problems).toEqual([]);
      expect(model.world.functions[0]!.params.map((p) => p.type)).toEqual([
        { kind: "prim", name: "string" },
        { kind: "option", of: { kind: "prim", name: "s32" } },
      ]);
      expect(model.world.types.get("person")).toMatchObject({
        fields: [{ name: "name" }, { name: "tags" }],
      });
      expect(execFileSync(path.join(goBin, "gofmt"), ["-l", path.join(sdkDir, "cmd")]).toString()).toBe("");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("maps the Go app template's functions to a world without problems", async () => {
    const env = { ...process.env, PATH: `${goBin}:${process.env.PATH}`, GOFLAGS: "", GOTOOLCHAIN: "local" };
    const sigs = await extractGoSignatures(path.resolve(here, "../../../app-template/go"), sdkDir, env);
    const { model, problems } = goSignaturesToModel(sigs);
    expect(problems).toEqual([]);
    // The same API as the TypeScript template.
    expect(model.world.functions.map((f) => f.name)).toEqual([
      "say-hello",
      "get-quote",
      "get-table-count",
      "list-people",
      "add-person",
      "generate-text",
    ]);
    expect([...model.world.types.keys()]).toEqual(["quote", "person"]);
  }, 60_000);
});
