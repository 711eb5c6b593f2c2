/**
 * Scalar text of the JSON encoder, byte for byte as Dgraph (Go) writes it.
 */
import { describe, expect, it } from "vitest";
import { goFloat, goKey, goQuote, uidHex } from "../../src/query/output/go-format.ts";
import { valueJson } from "../../src/query/output/value-json.ts";
import { engineGraph } from "./engine-graph.ts";
import { text } from "./executor-run.ts";

describe("encoder: Go string escaping", () => {
  it("escapes <, > and & as HTML-safe unicode escapes", () => {
    expect(goQuote("<a & b>")).toBe('"\\u003ca \\u0026 b\\u003e"');
  });

  it("escapes quotes, backslashes and control characters like Dgraph's stringJsonMarshal", () => {
    expect(goQuote('say "hi" \\ ok')).toBe('"say \\"hi\\" \\\\ ok"');
    expect(goQuote("a\nb\rc\td")).toBe('"a\\nb\\rc\\td"');
    expect(goQuote("\b\f\u0001\u001f")).toBe('"\\u0008\\u000c\\u0001\\u001f"');
  });

  it("escapes U+2028 and U+2029 and leaves other characters alone", () => {
    expect(goQuote("a\u2028b\u2029c")).toBe('"a\\u2028b\\u2029c"');
    expect(goQuote("é中\u{1F600}\u007f")).toBe('"é中\u{1F600}\u007f"');
  });

  it("replaces lone surrogates (invalid UTF-8 in Go) by U+FFFD", () => {
    expect(goQuote("a\ud800b")).toBe('"a\\ufffdb"');
    expect(goQuote("\udc00")).toBe('"\\ufffd"');
  });

  it("writes keys raw, only made safe for JSON syntax", () => {
    expect(goKey("name@en")).toBe('"name@en"');
    expect(goKey("a<b")).toBe('"a<b"');
    expect(goKey('q"')).toBe('"q\\""');
  });
});

describe("encoder: Go %f floats", () => {
  it("writes six decimals", () => {
    expect(goFloat(1.5)).toBe("1.500000");
    expect(goFloat(0.1)).toBe("0.100000");
    expect(goFloat(1e6)).toBe("1000000.000000");
    expect(goFloat(-2.25)).toBe("-2.250000");
    expect(goFloat(1e-7)).toBe("0.000000");
    expect(goFloat(123456789.12345679)).toBe("123456789.123457");
  });

  it("writes huge values with all their digits", () => {
    expect(goFloat(1e21)).toBe("1000000000000000000000.000000");
    expect(goFloat(Number.MAX_VALUE).startsWith("17976931348623157")).toBe(true);
  });

  it("keeps the sign of negative zero", () => {
    expect(goFloat(-0)).toBe("-0.000000");
  });

  it("rounds exact ties to even like Go", () => {
    expect(goFloat(1 / 128)).toBe("0.007812");
    expect(goFloat(3 / 128)).toBe("0.023438");
    expect(goFloat(-1 / 128)).toBe("-0.007812");
  });
});

describe("encoder: values", () => {
  it("formats each type", () => {
    expect(valueJson({ type: "int", value: -7 })).toBe("-7");
    expect(valueJson({ type: "float", value: 2 })).toBe("2.000000");
    expect(valueJson({ type: "float", value: Number.NaN })).toBeUndefined();
    expect(valueJson({ type: "bool", value: false })).toBe("false");
    expect(valueJson({ type: "datetime", value: "2006-01-02T15:04:05.5+05:30" })).toBe(
      '"2006-01-02T15:04:05.5+05:30"',
    );
    expect(valueJson({ type: "datetime", value: "0001-01-01T00:00:00Z" })).toBe('""');
    expect(valueJson({ type: "geo", value: { type: "Point", coordinates: [1.5, -2] } })).toBe(
      '{"type":"Point","coordinates":[1.5,-2]}',
    );
    expect(valueJson({ type: "password", value: "x" })).toBeUndefined();
    expect(uidHex(255)).toBe("0xff");
  });

  it("prints values of a default predicate as strings", () => {
    expect(valueJson({ type: "int", value: 110 }, "default")).toBe('"110"');
  });

  it("writes whole results with the same rules", async () => {
    const { reader: g } = await engineGraph("s: string .\nf: float .", [
      { s: 1, p: "s", value: "<b>&\u2028" },
      { s: 1, p: "f", value: 1e6 },
    ]);
    expect(text(g, "{ q(func: uid(1)) { s f } }")).toBe(
      '{"q":[{"s":"\\u003cb\\u003e\\u0026\\u2028","f":1000000.000000}]}',
    );
  });
});
