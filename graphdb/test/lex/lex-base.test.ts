import { describe, expect, it } from "vitest";
import { lexDql } from "../../src/dql/lexer.ts";
import { describeRune, goQuoteRune } from "../../src/lex/go-runes.ts";
import { scanIriBody } from "../../src/lex/iri.ts";
import { ByteColumns, whileLexing } from "../../src/lex/lex-position.ts";
import { lexSchema } from "../../src/schema/schema-lexer.ts";

describe("lexer base", () => {
  it("scans an IRI body up to its closing bracket, keeping \\u and \\U escapes", () => {
    const input = "<http://x/\\u00e9t\\U0001F600é>rest";
    expect(input.slice(1, scanIriBody(input, 1))).toBe("http://x/\\u00e9t\\U0001F600é");
  });

  it("stops an IRI at a space, a bracket or a bad escape", () => {
    expect(scanIriBody("<a b>", 1)).toBe(2);
    expect(scanIriBody("<a<b>", 1)).toBe(2);
    expect(scanIriBody("<a\\u12>", 1)).toBe(2);
  });

  it("counts UTF-8 byte columns incrementally, also when asked out of order", () => {
    const input = "é€😀x\nab";
    const columns = new ByteColumns(input);
    expect(columns.at(0, 1)).toBe(2);
    expect(columns.at(0, 2)).toBe(5);
    expect(columns.at(0, 4)).toBe(9);
    expect(columns.at(0, 1)).toBe(2);
    expect(columns.at(6, 7)).toBe(1);
  });

  it("prints runes as Go's %#U and %q do", () => {
    expect(describeRune('"', 0)).toBe("U+0022 '\"'");
    expect(describeRune("\u0001", 0)).toBe("U+0001");
    expect(goQuoteRune("\n", 0)).toBe("'\\n'");
  });

  it("gives the DQL and the schema lexer the same position text", () => {
    const query = "{ q(func: uid(1)) { <é> ^ } }";
    expect(() => lexDql(query)).toThrow(
      whileLexing(query, 1, 25, "Unrecognized character in lexText: U+005E '^'"),
    );
    expect(() => lexSchema("name: string @index(exact) .\né: <a b> .")).toThrow(/at line 2 column 0: /);
  });
});
