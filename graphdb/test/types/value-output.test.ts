import { describe, expect, it } from "vitest";
import { formatGoFloat } from "../../src/types/strconv.ts";
import { goJsonString, outputValue, valueToJson } from "../../src/types/value-output.ts";

describe("valueToJson", () => {
  it("writes ints as JSON integers and bools as literals", () => {
    expect(valueToJson({ type: "int", value: 10000 })).toBe("10000");
    expect(valueToJson({ type: "int", value: -3 })).toBe("-3");
    expect(valueToJson({ type: "bool", value: true })).toBe("true");
  });

  it("writes floats with Go's %f, as Dgraph's valToBytes does", () => {
    expect(valueToJson({ type: "float", value: 1.5 })).toBe("1.500000");
    expect(valueToJson({ type: "float", value: 1e6 })).toBe("1000000.000000");
    expect(valueToJson({ type: "float", value: -0.25 })).toBe("-0.250000");
    expect(valueToJson({ type: "float", value: 1e21 })).toBe("1000000000000000000000.000000");
  });

  it('writes untyped (default) values as strings (`"balance":"110"`)', () => {
    expect(valueToJson({ type: "default", value: "110" })).toBe('"110"');
  });

  it("escapes strings like Go's encoding/json (HTML characters included)", () => {
    expect(goJsonString('a<b>&"\\\n\t\u0001\u2028é😀')).toBe(
      '"a\\u003cb\\u003e\\u0026\\"\\\\\\n\\t\\u0001\\u2028é😀"',
    );
  });

  it("writes datetimes as their RFC 3339 text, and Go's zero time as an empty string", () => {
    expect(valueToJson({ type: "datetime", value: "1982-06-25T00:00:00Z" })).toBe('"1982-06-25T00:00:00Z"');
    expect(valueToJson({ type: "datetime", value: "0001-01-01T00:00:00Z" })).toBe('""');
  });

  it("writes geo values as GeoJSON objects", () => {
    const json = valueToJson({ type: "geo", value: { type: "Point", coordinates: [-122.4, 37.8] } });
    expect(JSON.parse(json!)).toEqual({ type: "Point", coordinates: [-122.4, 37.8] });
    expect(json!.startsWith('{"type":"Point","coordinates"')).toBe(true);
  });

  it("writes uids as lower-case hex strings", () => {
    expect(valueToJson({ type: "uid", value: 0x1f })).toBe('"0x1f"');
    expect(outputValue({ type: "uid", value: 255 })).toBe("0xff");
  });

  it("never writes passwords", () => {
    expect(valueToJson({ type: "password", value: "scrypt$x$y" })).toBeUndefined();
    expect(outputValue({ type: "password", value: "scrypt$x$y" })).toBeUndefined();
  });

  it("writes float32 vectors in their shortest float32 form", () => {
    expect(valueToJson({ type: "float32vector", value: [Math.fround(0.1), 1, -2.5] })).toBe("[0.1,1,-2.5]");
  });
});

describe("formatGoFloat", () => {
  it("matches Go's strconv.FormatFloat(f, 'g', -1, 64)", () => {
    expect(formatGoFloat(1e6, "g")).toBe("1e+06");
    expect(formatGoFloat(123456, "g")).toBe("123456");
    expect(formatGoFloat(1234567, "g")).toBe("1.234567e+06");
    expect(formatGoFloat(0.0001, "g")).toBe("0.0001");
    expect(formatGoFloat(0.00001, "g")).toBe("1e-05");
    expect(formatGoFloat(3, "g")).toBe("3");
    expect(formatGoFloat(1e100, "g")).toBe("1e+100");
  });

  it("matches Go's 'e' and 'f' shortest forms", () => {
    expect(formatGoFloat(1.5, "e")).toBe("1.5e+00");
    expect(formatGoFloat(1e21, "f")).toBe("1000000000000000000000");
    expect(formatGoFloat(1e-7, "f")).toBe("0.0000001");
  });
});
