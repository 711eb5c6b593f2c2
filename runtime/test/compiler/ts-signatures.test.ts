import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractSignatures } from "../../src/compiler/ts-signatures.ts";
import { generateAppWit } from "../../src/compiler/wit-world-generator.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/ts-apps/app/${name}`, import.meta.url));
const SDK = fileURLToPath(new URL("../../sdk/ts/src/index.ts", import.meta.url));

describe("extractSignatures", () => {
  const kitchen = extractSignatures(fixture("kitchen-sink"), SDK);
  const world = generateAppWit(kitchen.shapes, "trellis:app-kitchen-sink").world;
  const fn = (name: string) => world.functions.find((f) => f.name === name);
  const prim = (name: string) => ({ kind: "prim", name });
  const ok = (type: object) => ({ kind: "result", ok: type, err: prim("string") });

  it("accepts every supported kind without errors", () => {
    expect(kitchen.errors).toEqual([]);
  });

  it("maps scalars, SDK numeric aliases, bigint, void and inferred primitive returns", () => {
    expect(fn("say-hello")).toEqual({
      name: "say-hello",
      params: [{ name: "name", type: prim("string") }],
      result: ok(prim("string")),
      docs: "Greets someone.",
    });
    expect(fn("add")?.params.map((p) => p.type)).toEqual([prim("s32"), prim("s32")]);
    expect(fn("half")?.result).toEqual(ok(prim("f64")));
    expect(fn("negate")?.result).toEqual(ok(prim("bool")));
    expect(fn("bump")?.result).toEqual(ok(prim("s64")));
    expect(fn("twice")?.params[0]?.type).toEqual(prim("u32"));
    expect(fn("inferred")?.result).toEqual(ok(prim("f64")));
    expect(fn("nothing")?.result).toEqual({ kind: "result", err: prim("string") });
  });

  it("maps T | null, T | undefined and optional parameters to option, arrays to list", () => {
    expect(fn("get-person")?.result).toEqual(ok({ kind: "option", of: { kind: "ref", name: "person" } }));
    expect(fn("maybe")?.params[0]?.type).toEqual({ kind: "option", of: prim("string") });
    expect(fn("list-names")?.params).toEqual([
      { name: "people", type: { kind: "list", of: { kind: "ref", name: "person" } } },
      { name: "limit", type: { kind: "option", of: prim("s32") } },
    ]);
    expect(fn("list-names")?.result).toEqual(ok({ kind: "list", of: prim("string") }));
  });

  it("maps interfaces and object aliases to records, literal unions and string enums to enums", () => {
    expect(world.types.get("person")).toEqual({
      kind: "record",
      name: "person",
      docs: "Someone the app knows.",
      fields: [
        { name: "first-name", type: prim("string") },
        { name: "age", type: prim("u8") },
        { name: "email", type: { kind: "option", of: prim("string") } },
        { name: "tags", type: { kind: "list", of: prim("string") } },
        { name: "address", type: { kind: "option", of: { kind: "ref", name: "address" } } },
        { name: "mood", type: { kind: "ref", name: "mood" } },
        { name: "status", type: { kind: "ref", name: "status" } },
        { name: "score", type: prim("f32") },
        { name: "big", type: prim("s64") },
        { name: "count", type: prim("u64") },
        { name: "pair", type: { kind: "tuple", of: [prim("string"), prim("s32")] } },
      ],
    });
    expect(world.types.get("address")).toMatchObject({
      kind: "record",
      fields: [{ name: "street" }, { name: "city" }],
    });
    expect(world.types.get("mood")).toEqual({
      kind: "enum",
      name: "mood",
      cases: ["happy", "dark-blue", "so-so"],
    });
    expect(world.types.get("status")).toEqual({ kind: "enum", name: "status", cases: ["active", "on-hold"] });
    // Inherited members come first; `type` is a WIT keyword (escaped as %type in the WIT text).
    expect(world.types.get("pet")).toMatchObject({
      fields: [{ name: "name" }, { name: "species" }, { name: "type" }],
    });
  });

  it("exports _-prefixed functions as hidden-*, re-exports under their exported name, and skips non-functions", () => {
    const names = world.functions.map((f) => f.name);
    expect(names).toContain("hidden-internal");
    expect(names).toContain("loud");
    expect(names).not.toContain("not-a-function");
    expect(kitchen.warnings).toEqual([
      "src/index.ts:130:14: export notAFunction is not a function; it is not part of the API",
    ]);
  });

  it("reports every unsupported type with file:line:col, in source order", () => {
    const { errors } = extractSignatures(fixture("unsupported"), SDK);
    expect(errors).toEqual([
      "src/index.ts:2:18: recursive type Tree is not supported",
      "src/index.ts:9:3: unsupported member greet(): string; in WithMethod",
      "src/index.ts:19:3: enum Level must have string values to become a WIT enum",
      "src/index.ts:23:29: unsupported type any in anything parameter a",
      "src/index.ts:23:37: unsupported type unknown in anything parameter b",
      "src/index.ts:25:26: unsupported type string | number in mixed parameter x",
      "src/index.ts:29:25: unsupported type Date in when parameter d (pass dates as ISO-8601 strings)",
      "src/index.ts:29:32: unsupported type Map<string, string> in when return type",
      "src/index.ts:33:32: unsupported type Promise<string> in later return type (async functions are not supported: host calls are synchronous)",
      "src/index.ts:37:27: unsupported type { a: string } in inline parameter o (declare an interface or a type alias for object types)",
      'src/index.ts:37:45: unsupported type "red" | "blue" in inline parameter c (declare a type alias for string-literal unions)',
      "src/index.ts:41:28: unsupported type Box<string> in generic parameter b",
      "src/index.ts:41:44: unsupported type Thing in generic parameter t (classes are not supported; use an interface)",
      "src/index.ts:43:29: unsupported type () => void in callback parameter f",
      "src/index.ts:45:17: untyped needs an explicit return type (inferred any)",
      "src/index.ts:45:25: parameter x of untyped needs a type annotation",
      "src/index.ts:49:1: function name init is reserved by the QuickJS component",
    ]);
  });

  it("reports a missing entry file", () => {
    const { errors } = extractSignatures(fixture("does-not-exist"), SDK);
    expect(errors).toEqual(["src/index.ts: not found (a TypeScript app's entry is src/index.ts)"]);
  });
});
