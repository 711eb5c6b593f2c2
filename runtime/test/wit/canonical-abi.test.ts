import { describe, expect, it } from "vitest";
import { CanonicalAbi } from "../../src/wit/canonical-abi.ts";
import type { WitType, WitTypeDef } from "../../src/wit/wit-types.ts";

const prim = (name: string) => ({ kind: "prim", name }) as WitType;
const types = new Map<string, WitTypeDef>([
  // { u8, u32, u16 }: padding after a and c, as in the spec's record layout.
  [
    "padded",
    {
      kind: "record",
      name: "padded",
      fields: [
        { name: "a", type: prim("u8") },
        { name: "b", type: prim("u32") },
        { name: "c", type: prim("u16") },
      ],
    },
  ],
  [
    "wide",
    {
      kind: "record",
      name: "wide",
      fields: [
        { name: "flag", type: prim("bool") },
        { name: "big", type: prim("u64") },
        { name: "name", type: prim("string") },
      ],
    },
  ],
  ["color", { kind: "enum", name: "color", cases: ["red", "green"] }],
]);
const abi = new CanonicalAbi(types);

describe("canonical ABI layout (sizes, alignments and offsets as the component model spec defines them)", () => {
  it("lays out primitives, strings and lists", () => {
    expect(abi.layout(prim("bool"))).toEqual({ size: 1, align: 1 });
    expect(abi.layout(prim("s16"))).toEqual({ size: 2, align: 2 });
    expect(abi.layout(prim("f32"))).toEqual({ size: 4, align: 4 });
    expect(abi.layout(prim("u64"))).toEqual({ size: 8, align: 8 });
    expect(abi.layout(prim("string"))).toEqual({ size: 8, align: 4 });
    expect(abi.layout({ kind: "list", of: prim("u64") })).toEqual({ size: 8, align: 4 });
  });

  it("pads record fields to their alignment and the record to its largest", () => {
    expect(abi.recordLayout(abi.fields({ kind: "ref", name: "padded" }))).toEqual({
      offsets: [0, 4, 8],
      layout: { size: 12, align: 4 },
    });
    expect(abi.recordLayout(abi.fields({ kind: "ref", name: "wide" }))).toEqual({
      offsets: [0, 8, 16],
      layout: { size: 24, align: 8 },
    });
    expect(abi.layout({ kind: "ref", name: "color" })).toEqual({ size: 1, align: 1 });
  });

  it("places an option's or result's payload after a one-byte discriminant, aligned to the payload", () => {
    const optF64: WitType = { kind: "option", of: prim("f64") };
    expect(abi.layout(optF64)).toEqual({ size: 16, align: 8 });
    expect(abi.payloadOffset(optF64)).toBe(8);
    const optU8: WitType = { kind: "option", of: prim("u8") };
    expect(abi.layout(optU8)).toEqual({ size: 2, align: 1 });
    expect(abi.payloadOffset(optU8)).toBe(1);
    const resultString: WitType = { kind: "result", ok: prim("string"), err: prim("string") };
    expect(abi.layout(resultString)).toEqual({ size: 12, align: 4 });
    expect(abi.payloadOffset(resultString)).toBe(4);
    const resultWide: WitType = { kind: "result", ok: { kind: "ref", name: "wide" }, err: prim("string") };
    expect(abi.layout(resultWide)).toEqual({ size: 32, align: 8 });
    expect(abi.payloadOffset(resultWide)).toBe(8);
    const resultNone: WitType = { kind: "result", err: prim("string") };
    expect(abi.layout(resultNone)).toEqual({ size: 12, align: 4 });
  });

  it("flattens values into core types, joining variant payloads position by position", () => {
    expect(abi.flatten(prim("string"))).toEqual(["i32", "i32"]);
    expect(abi.flatten({ kind: "ref", name: "wide" })).toEqual(["i32", "i64", "i32", "i32"]);
    expect(abi.flatten({ kind: "option", of: { kind: "ref", name: "padded" } })).toEqual([
      "i32",
      "i32",
      "i32",
      "i32",
    ]);
    // ok f32 and err u32 share a slot as i32; f32 against i64 widens to i64.
    expect(abi.flatten({ kind: "result", ok: prim("f32"), err: prim("u32") })).toEqual(["i32", "i32"]);
    expect(abi.flatten({ kind: "result", ok: prim("f32"), err: prim("s64") })).toEqual(["i32", "i64"]);
    expect(abi.flatten({ kind: "result", ok: prim("f64"), err: prim("f64") })).toEqual(["i32", "f64"]);
  });
});
