import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type { ScalarType, TypedValue } from "../../src/core/scalar.ts";
import { convertFunctionArg, convertValue } from "../../src/types/convert.ts";

const text = (value: string): TypedValue => ({ type: "default", value });

function conversionError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DgraphError);
    return (e as Error).message;
  }
  throw new Error("expected a conversion error");
}

describe("convertValue from untyped text", () => {
  it('reads numbers, as the bank test\'s `"110"` default value into int does', () => {
    expect(convertValue(text("110"), "int")).toEqual({ type: "int", value: 110 });
    expect(convertValue(text("-7"), "int")).toEqual({ type: "int", value: -7 });
    expect(convertValue(text("2.5"), "float")).toEqual({ type: "float", value: 2.5 });
    expect(convertValue(text("1e6"), "float")).toEqual({ type: "float", value: 1e6 });
  });

  it("fails with Go strconv texts", () => {
    expect(conversionError(() => convertValue(text("abc"), "int"))).toBe(
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(conversionError(() => convertValue(text("1.5"), "int"))).toBe(
      'strconv.ParseInt: parsing "1.5": invalid syntax',
    );
    expect(conversionError(() => convertValue(text("99999999999999999999"), "int"))).toBe(
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expect(conversionError(() => convertValue(text("x1"), "float"))).toBe(
      'strconv.ParseFloat: parsing "x1": invalid syntax',
    );
    expect(conversionError(() => convertValue(text("1e400"), "float"))).toBe(
      'strconv.ParseFloat: parsing "1e400": value out of range',
    );
    expect(conversionError(() => convertValue(text("yes"), "bool"))).toBe(
      'strconv.ParseBool: parsing "yes": invalid syntax',
    );
  });

  it("names the predicate when it is given", () => {
    expect(conversionError(() => convertValue(text("abc"), "int", "age"))).toBe(
      'Input for predicate "age" of type int: strconv.ParseInt: parsing "abc": invalid syntax',
    );
  });

  it("accepts Go's boolean spellings", () => {
    for (const t of ["1", "t", "T", "TRUE", "true", "True"])
      expect(convertValue(text(t), "bool").value).toBe(true);
    for (const f of ["0", "f", "F", "FALSE", "false", "False"])
      expect(convertValue(text(f), "bool").value).toBe(false);
  });

  it("parses datetimes into Dgraph's normalised form", () => {
    expect(convertValue(text("1982-06-25"), "datetime")).toEqual({
      type: "datetime",
      value: "1982-06-25T00:00:00Z",
    });
    expect(convertValue(text("2006-01-02T15:04:05+05:30"), "datetime").value).toBe(
      "2006-01-02T15:04:05+05:30",
    );
    expect(conversionError(() => convertValue(text("yesterday"), "datetime"))).toMatch(
      /parsing time "yesterday"/,
    );
  });

  it("parses GeoJSON text, with single quotes allowed", () => {
    expect(convertValue(text("{'type':'Point','coordinates':[-122.4,37.8]}"), "geo")).toEqual({
      type: "geo",
      value: { type: "Point", coordinates: [-122.4, 37.8] },
    });
    expect(() => convertValue(text("{'type':'Circle'}"), "geo")).toThrow(DgraphError);
  });

  it("refuses passwords shorter than six characters and leaves hashing to hashPassword", () => {
    expect(conversionError(() => convertValue(text("abc"), "password"))).toBe(
      "Password too short, i.e. should have at least 6 chars",
    );
    expect(convertValue(text("secret1"), "password")).toEqual({ type: "password", value: "secret1" });
  });

  it("keeps text as string", () => {
    expect(convertValue(text("110"), "string")).toEqual({ type: "string", value: "110" });
  });

  it("cannot make a uid out of text", () => {
    expect(conversionError(() => convertValue(text("0x1"), "uid"))).toBe(
      "Cannot convert default to type uid",
    );
  });
});

describe("convertValue between typed values", () => {
  const cases: [TypedValue, ScalarType, TypedValue][] = [
    [{ type: "int", value: 3 }, "float", { type: "float", value: 3 }],
    [{ type: "float", value: 3.9 }, "int", { type: "int", value: 3 }],
    [{ type: "float", value: -3.9 }, "int", { type: "int", value: -3 }],
    [{ type: "int", value: 0 }, "bool", { type: "bool", value: false }],
    [{ type: "int", value: 2 }, "bool", { type: "bool", value: true }],
    [{ type: "bool", value: true }, "int", { type: "int", value: 1 }],
    [{ type: "bool", value: false }, "float", { type: "float", value: 0 }],
    [{ type: "bool", value: true }, "string", { type: "string", value: "true" }],
    [{ type: "int", value: 42 }, "string", { type: "string", value: "42" }],
    [{ type: "float", value: 1.5 }, "string", { type: "string", value: "1.5" }],
    [{ type: "int", value: 0 }, "datetime", { type: "datetime", value: "1970-01-01T00:00:00Z" }],
    [{ type: "float", value: 1.5 }, "datetime", { type: "datetime", value: "1970-01-01T00:00:01.5Z" }],
    [{ type: "datetime", value: "1970-01-01T00:01:00Z" }, "int", { type: "int", value: 60 }],
    [{ type: "datetime", value: "1970-01-01T00:00:01.25Z" }, "float", { type: "float", value: 1.25 }],
    [
      { type: "datetime", value: "2006-01-02T15:04:05Z" },
      "string",
      { type: "string", value: "2006-01-02T15:04:05Z" },
    ],
  ];
  for (const [from, to, expected] of cases) {
    it(`converts ${from.type} ${JSON.stringify(from.value)} to ${to}`, () => {
      expect(convertValue(from, to)).toEqual(expected);
    });
  }

  it("formats floats as text with Go's %G shortest form", () => {
    expect(convertValue({ type: "float", value: 1e6 }, "string").value).toBe("1E+06");
    expect(convertValue({ type: "float", value: 123456 }, "string").value).toBe("123456");
  });

  it("rejects floats outside int64", () => {
    expect(conversionError(() => convertValue({ type: "float", value: 1e19 }, "int"))).toBe(
      "Float out of int64 range",
    );
  });

  it("refuses conversions Dgraph has no rule for", () => {
    expect(conversionError(() => convertValue({ type: "bool", value: true }, "datetime"))).toBe(
      "Cannot convert bool to type datetime",
    );
    expect(conversionError(() => convertValue({ type: "int", value: 1 }, "geo"))).toBe(
      "Cannot convert int to type geo",
    );
    expect(conversionError(() => convertValue({ type: "int", value: 1 }, "password"))).toBe(
      "Cannot convert int to type password",
    );
  });

  it("stores a typed value as-is on a default predicate", () => {
    expect(convertValue({ type: "int", value: 5 }, "default")).toEqual({ type: "int", value: 5 });
    expect(convertValue(text("5"), "default")).toEqual({ type: "default", value: "5" });
  });

  it("validates geo objects from JSON mutations", () => {
    const geo = { type: "Point", coordinates: [1, 2] };
    expect(convertValue({ type: "geo", value: geo }, "geo")).toEqual({ type: "geo", value: geo });
    expect(() =>
      convertValue({ type: "geo", value: { type: "Point", coordinates: ["a", 2] } }, "geo"),
    ).toThrow(DgraphError);
  });
});

describe("convertFunctionArg", () => {
  it('converts eq(age, "20") arguments to the predicate\'s type', () => {
    expect(convertFunctionArg("20", "int", "age")).toEqual({ type: "int", value: 20 });
    expect(convertFunctionArg("true", "bool")).toEqual({ type: "bool", value: true });
    expect(convertFunctionArg("2000", "datetime")).toEqual({
      type: "datetime",
      value: "2000-01-01T00:00:00Z",
    });
    expect(convertFunctionArg("Alice", "string")).toEqual({ type: "string", value: "Alice" });
  });

  it("reports unconvertible arguments", () => {
    expect(() => convertFunctionArg("abc", "int", "age")).toThrow(
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(() => convertFunctionArg("0x1", "uid", "friend")).toThrow(
      "Attribute friend is not valid scalar type",
    );
  });

  it("passes checkpwd candidates through, however short", () => {
    expect(convertFunctionArg("abc", "password")).toEqual({ type: "password", value: "abc" });
  });
});
