import { describe, expect, it } from "vitest";
import {
  goParseBool,
  goParseFloat,
  goParseInt,
  goParseSafeInt,
  goParseUint,
  goQuote,
  goUnquoteBody,
  numErrorText,
  quickUint,
} from "../../src/types/strconv.ts";

describe("goQuote", () => {
  it("quotes exactly as Go's strconv.Quote by default", () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote("\x07\x01\x7f\u00ad\n")).toBe('"\\a\\x01\\x7f\\u00ad\\n"');
    expect(goQuote("é😀")).toBe('"é😀"');
  });

  it("keeps the JSON styles the DQL, mutation and query-parameter texts use", () => {
    expect(goQuote("\x01\n", "json")).toBe('"\\u0001\\n"');
    expect(goQuote("\x01\n", "json-x")).toBe('"\\x01\\n"');
    expect(goQuote("abc", "json")).toBe(goQuote("abc"));
  });
});

describe("Go number parsing", () => {
  it("accepts exactly Go's ParseBool spellings", () => {
    for (const t of ["1", "t", "T", "TRUE", "true", "True"]) expect(goParseBool(t)).toBe(true);
    for (const f of ["0", "f", "F", "FALSE", "false", "False"]) expect(goParseBool(f)).toBe(false);
    expect(goParseBool("yes")).toBe("syntax");
    expect(numErrorText("ParseBool", "yes", "syntax")).toBe(
      'strconv.ParseBool: parsing "yes": invalid syntax',
    );
  });

  it("parses uint64 with base auto-detection", () => {
    expect(goParseUint("42")).toBe(42n);
    expect(goParseUint("0x2a")).toBe(42n);
    expect(goParseUint("0X2A")).toBe(42n);
    expect(goParseUint("052")).toBe(42n);
    expect(goParseUint("0o52")).toBe(42n);
    expect(goParseUint("0b101010")).toBe(42n);
    expect(goParseUint("1_000")).toBe(1000n);
    expect(goParseUint("0")).toBe(0n);
    expect(goParseUint("18446744073709551615")).toBe(18446744073709551615n);
    expect(goParseUint("-1")).toBe("syntax");
    expect(goParseUint("0x")).toBe("syntax");
    expect(goParseUint("1__0")).toBe("syntax");
    expect(goParseUint("18446744073709551616")).toBe("range");
    expect(numErrorText("ParseUint", "18446744073709551616", "range")).toBe(
      'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    );
  });

  it("reads base 10 without prefixes or separators", () => {
    expect(goParseUint("010", 10)).toBe(10n);
    expect(goParseUint("0x1", 10)).toBe("syntax");
    expect(goParseUint("1_0", 10)).toBe("syntax");
    expect(goParseInt("-12", 10)).toBe(-12n);
  });

  it("checks int ranges by bit size", () => {
    expect(goParseInt("-9223372036854775808")).toBe(-(2n ** 63n));
    expect(goParseInt("9223372036854775808")).toBe("range");
    expect(goParseInt("2147483647", 0, 32)).toBe(2147483647n);
    expect(goParseInt("2147483648", 0, 32)).toBe("range");
    expect(goParseInt("-2147483648", 0, 32)).toBe(-2147483648n);
    expect(goParseInt("99999999999x", 0, 32)).toBe("range"); // Go stops at the overflowing digit
    expect(goParseSafeInt("9007199254740991")).toBe(9007199254740991);
    expect(goParseSafeInt("9007199254740992")).toBe("range");
  });

  it("parses Go floats", () => {
    expect(goParseFloat("1.5")).toBe(1.5);
    expect(goParseFloat(".5e1")).toBe(5);
    expect(goParseFloat("1_000.5")).toBe(1000.5);
    expect(goParseFloat("0x1.8p3")).toBe(12);
    expect(goParseFloat("-Inf")).toBe(Number.NEGATIVE_INFINITY);
    expect(goParseFloat("NaN")).toBeNaN();
    expect(goParseFloat("-nan")).toBe("syntax");
    expect(goParseFloat("1e400")).toBe("range");
    expect(goParseFloat("0x10")).toBe("syntax");
  });

  it("has a fast path for plain uids", () => {
    expect(quickUint("123")).toBe(123);
    expect(quickUint("0x1f")).toBe(31);
    expect(quickUint("010")).toBeUndefined();
  });
});

describe("goUnquoteBody", () => {
  it("resolves Go escapes and rejects what Go rejects", () => {
    expect(goUnquoteBody("a\\tb\\x41\\101\\u00e9\\U0001F600")).toBe("a\tbAAé😀");
    expect(goUnquoteBody("\\'")).toBeNull();
    expect(goUnquoteBody("\\")).toBeNull();
  });
});
