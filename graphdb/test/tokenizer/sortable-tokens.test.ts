import { describe, expect, it } from "vitest";
import type { ScalarType } from "../../src/core/scalar.ts";
import { getTokenizer } from "../../src/tokenizer/registry.ts";
import { compareTokens } from "../../src/tokenizer/token-bytes.ts";

function tokenOf(name: string, type: ScalarType, value: string | number | boolean): Uint8Array {
  const tokens = getTokenizer(name)!.tokens({ type, value });
  expect(tokens).toHaveLength(1);
  return tokens[0];
}

/** Asserts that the tokens of `values` (given in ascending value order) are in strictly ascending byte order. */
function expectAscending(name: string, type: ScalarType, values: (string | number)[]): void {
  const tokens = values.map((v) => tokenOf(name, type, v));
  for (let i = 1; i < tokens.length; i++) {
    expect(compareTokens(tokens[i - 1], tokens[i]), `${values[i - 1]} < ${values[i]}`).toBeLessThan(0);
  }
}

describe("sortable tokenizers", () => {
  it("order int tokens like the integers, negatives first", () => {
    expectAscending("int", "int", [
      Number.MIN_SAFE_INTEGER,
      -1_000_000,
      -256,
      -255,
      -1,
      0,
      1,
      255,
      256,
      1_000_000,
      Number.MAX_SAFE_INTEGER,
    ]);
  });

  it("encode int as the id plus 8 bytes big-endian with the sign bit flipped", () => {
    expect([...tokenOf("int", "int", 0)]).toEqual([0x06, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    expect([...tokenOf("int", "int", -1)]).toEqual([0x06, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it("order float tokens like the numbers, including negatives and fractions", () => {
    expectAscending("float", "float", [-1e300, -2.5, -1, -0.5, -1e-300, 0, 1e-300, 0.5, 1, 1.5, 2, 1e300]);
  });

  it("give -0 and +0 the same float token", () => {
    expect(compareTokens(tokenOf("float", "float", -0), tokenOf("float", "float", 0))).toBe(0);
  });

  it("order exact tokens by the strings' UTF-8 bytes", () => {
    expectAscending("exact", "string", ["", "A", "B", "a", "ab", "b", "é", "\uffff", "😀"]);
  });

  it("order datetime tokens by UTC calendar position", () => {
    for (const name of ["year", "month", "day", "hour"]) {
      expectAscending(name, "datetime", [
        "1899-12-31T23:00:00Z",
        "1900-01-01T00:00:00Z",
        "2006-01-02T15:04:05Z",
        "2021-11-30T00:00:00Z",
      ]);
    }
  });

  it("use u16 big-endian calendar fields of the UTC time (Dgraph's layout)", () => {
    // 2006-01-02T23:30:00-05:00 is 2006-01-03T04:30:00Z
    const value = "2006-01-02T23:30:00-05:00";
    expect([...tokenOf("year", "datetime", value)]).toEqual([0x04, 0x07, 0xd6]);
    expect([...tokenOf("month", "datetime", value)]).toEqual([0x41, 0x07, 0xd6, 0, 1]);
    expect([...tokenOf("day", "datetime", value)]).toEqual([0x42, 0x07, 0xd6, 0, 1, 0, 3]);
    expect([...tokenOf("hour", "datetime", value)]).toEqual([0x43, 0x07, 0xd6, 0, 1, 0, 3, 0, 4]);
  });

  it("put values of one year in one year token", () => {
    expect(
      compareTokens(
        tokenOf("year", "datetime", "2000-01-01T00:00:00Z"),
        tokenOf("year", "datetime", "2000-12-31T23:59:59Z"),
      ),
    ).toBe(0);
  });

  it("are flagged sortable, and at most these are", () => {
    for (const name of ["exact", "int", "float", "year", "month", "day", "hour", "bigfloat"]) {
      expect(getTokenizer(name)!.sortable, name).toBe(true);
    }
    for (const name of ["term", "fulltext", "trigram", "hash", "sha256", "bool", "geo", "ngram"]) {
      expect(getTokenizer(name)!.sortable, name).toBe(false);
    }
  });
});
