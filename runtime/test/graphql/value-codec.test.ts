import { describe, expect, it } from "vitest";
import { parseBigIntInput, serializeBigInt } from "../../src/graphql/custom-scalars.ts";
import { GraphQLError } from "../../src/graphql/graphql-js.ts";
import { ValueCodec } from "../../src/graphql/value-codec.ts";
import type { WitType } from "../../src/wit/wit-types.ts";
import { fixtureWorld } from "./fixture-world.ts";

const codec = new ValueCodec(fixtureWorld.types);
const person: WitType = { kind: "ref", name: "person" };

describe("ValueCodec", () => {
  it("round-trips a nested record with options, lists, enums and a 64-bit id", () => {
    const input = {
      id: 9007199254740993n,
      firstName: "Ada",
      age: 36,
      nickname: null,
      tags: ["math", "engines"],
      favoriteColor: "DARK_GREEN",
      address: { street: "1 Analytical Way", city: "London" },
    };
    const wit = codec.toWit(person, input, "person");
    expect(wit).toEqual({
      id: 9007199254740993n,
      firstName: "Ada",
      age: 36,
      nickname: undefined,
      tags: ["math", "engines"],
      favoriteColor: "dark-green",
      address: { street: "1 Analytical Way", city: "London" },
    });
    expect(codec.toGraphQL(person, wit, "person")).toEqual(input);
  });

  it("maps a missing option to null and a present one through", () => {
    const t: WitType = { kind: "option", of: { kind: "list", of: { kind: "ref", name: "color" } } };
    expect(codec.toWit(t, undefined, "x")).toBeUndefined();
    expect(codec.toWit(t, ["RED", "BLUE"], "x")).toEqual(["red", "blue"]);
    expect(codec.toGraphQL(t, undefined, "x")).toBeNull();
    expect(codec.toGraphQL(t, ["dark-green"], "x")).toEqual(["DARK_GREEN"]);
  });

  it("converts tuples between item1..N objects and arrays", () => {
    const t: WitType = {
      kind: "tuple",
      of: [
        { kind: "prim", name: "string" },
        { kind: "option", of: { kind: "prim", name: "s32" } },
      ],
    };
    expect(codec.toWit(t, { item1: "a", item2: null }, "p")).toEqual(["a", undefined]);
    expect(codec.toGraphQL(t, ["a", 3], "p")).toEqual({ item1: "a", item2: 3 });
  });

  it("accepts 64-bit integers as numbers or strings and keeps precision beyond 2^53", () => {
    const s64: WitType = { kind: "prim", name: "s64" };
    const u64: WitType = { kind: "prim", name: "u64" };
    expect(codec.toWit(s64, "-9223372036854775808", "n")).toBe(-(2n ** 63n));
    expect(codec.toWit(u64, "18446744073709551615", "n")).toBe(2n ** 64n - 1n);
    expect(codec.toWit(s64, 42, "n")).toBe(42n);
    expect(() => codec.toWit(u64, -1, "n")).toThrow(/out of range/);
    expect(() => codec.toWit(s64, "9223372036854775808", "n")).toThrow(/out of range/);
    expect(() => codec.toWit(s64, 2 ** 60, "n")).toThrow(/as strings/);
    expect(serializeBigInt(9007199254740993n, "Int64")).toBe("9007199254740993");
    expect(serializeBigInt(9007199254740991n, "Int64")).toBe(9007199254740991);
    expect(serializeBigInt(-5n, "Int64")).toBe(-5);
    expect(parseBigIntInput(serializeBigInt(2n ** 64n - 1n, "UInt64"), "UInt64")).toBe(2n ** 64n - 1n);
  });

  it("checks the range of small integers and the length of chars", () => {
    const m = {
      count: 1,
      big: 2n,
      ratio: 0.5,
      precise: 0.25,
      small: -128,
      mid: 32767,
      int: -1,
      word: 65535,
      flag: true,
      initial: "é",
    };
    const measurements: WitType = { kind: "ref", name: "measurements" };
    expect(codec.toWit(measurements, m, "m")).toEqual(m);
    expect(() => codec.toWit(measurements, { ...m, small: 128 }, "m")).toThrow(
      /m\.small: expected an integer in -128\.\.127/,
    );
    expect(() => codec.toWit(measurements, { ...m, word: 65536 }, "m")).toThrow(/u16/);
    expect(() => codec.toWit(measurements, { ...m, initial: "ab" }, "m")).toThrow(/single character/);
  });

  it("rejects an unknown enum value and a malformed result with GraphQL errors", () => {
    const color: WitType = { kind: "ref", name: "color" };
    expect(() => codec.toWit(color, "PURPLE", "c")).toThrow(GraphQLError);
    expect(() => codec.toGraphQL(color, "purple", "c")).toThrow(/returned an invalid value at c/);
    expect(() => codec.toGraphQL(person, "not a record", "person")).toThrow(/expected a record/);
  });
});
