import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type { TypedValue } from "../../src/core/scalar.ts";
import { compareUtf8, compareValues } from "../../src/types/value-compare.ts";

function sorted(values: TypedValue[]): unknown[] {
  return [...values].sort(compareValues).map((v) => v.value);
}

describe("compareValues", () => {
  it("orders strings by UTF-8 bytes (Go string order)", () => {
    const strings = ["b", "a", "B", "é", "ab", "", "\uffff", "😀"];
    const byBytes = [...strings].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(sorted(strings.map((value) => ({ type: "string", value })))).toEqual(byBytes);
  });

  it("puts supplementary characters after U+E000–U+FFFF, unlike UTF-16 order", () => {
    expect(compareUtf8("😀", "\uffff")).toBeGreaterThan(0);
    expect("😀" < "\uffff").toBe(true); // the UTF-16 order this avoids
  });

  it("orders numbers numerically, mixing int and float", () => {
    expect(
      sorted([
        { type: "int", value: 10 },
        { type: "float", value: 9.5 },
        { type: "int", value: -2 },
        { type: "float", value: 10.25 },
      ]),
    ).toEqual([-2, 9.5, 10, 10.25]);
  });

  it("orders datetimes by instant whatever their offsets", () => {
    expect(
      sorted([
        { type: "datetime", value: "2006-01-02T10:00:00Z" },
        { type: "datetime", value: "2006-01-02T15:04:05+05:30" }, // 09:34:05Z
        { type: "datetime", value: "2006-01-02T10:00:00.000000001Z" },
      ]),
    ).toEqual(["2006-01-02T15:04:05+05:30", "2006-01-02T10:00:00Z", "2006-01-02T10:00:00.000000001Z"]);
  });

  it("orders false before true", () => {
    expect(compareValues({ type: "bool", value: false }, { type: "bool", value: true })).toBeLessThan(0);
  });

  it("refuses to order geo values", () => {
    const g: TypedValue = { type: "geo", value: { type: "Point", coordinates: [0, 0] } };
    expect(() => compareValues(g, g)).toThrow(DgraphError);
  });
});
