import { describe, expect, it } from "vitest";
import { lexDql } from "../../src/dql/lexer.ts";
import { DqlSyntaxError, parseDql } from "../../src/dql/parser.ts";

function lexError(text: string): string {
  try {
    parseDql(text);
  } catch (error) {
    expect(error).toBeInstanceOf(DqlSyntaxError);
    return (error as Error).message;
  }
  throw new Error(`expected a lexer error for: ${text}`);
}

/** Dgraph quotes the whole input in lexer errors. */
function lexing(text: string, line: number, column: number, message: string): string {
  return `while lexing ${text} at line ${line} column ${column}: ${message}`;
}

describe("lexer", () => {
  it("emits tokens with Dgraph's positions", () => {
    const tokens = lexDql('{\n  q(func: eq(name@en, "a b")) { ~friend }\n}');
    expect(tokens.map((t) => [t.kind, t.value, t.line, t.column])).toEqual([
      ["LeftCurl", "{", 1, 0],
      ["Name", "q", 2, 2],
      ["LeftRound", "(", 2, 3],
      ["Name", "func", 2, 4],
      ["Colon", ":", 2, 8],
      ["Name", "eq", 2, 10],
      ["LeftRound", "(", 2, 12],
      ["Name", "name", 2, 13],
      ["At", "@", 2, 17],
      ["Name", "en", 2, 18],
      ["Comma", ",", 2, 20],
      ["Name", '"a b"', 2, 22],
      ["RightRound", ")", 2, 27],
      ["RightRound", ")", 2, 28],
      ["LeftCurl", "{", 2, 30],
      ["Name", "~friend", 2, 32],
      ["RightCurl", "}", 2, 40],
      ["RightCurl", "}", 3, 0],
      ["EOF", "", 3, 1],
    ]);
  });

  it("lexes IRIs without their brackets", () => {
    const tokens = lexDql("{ q(func: has(<http://x.org/name>)) { <~rel> } }");
    expect(tokens.filter((t) => t.kind === "Name").map((t) => t.value)).toEqual([
      "q",
      "func",
      "has",
      "http://x.org/name",
      "~rel",
    ]);
  });

  it("lexes regular expressions only where an argument starts", () => {
    const tokens = lexDql("{ q(func: regexp(name, /a\\/b/i)) { x: math(a / b) } }");
    expect(tokens.filter((t) => t.kind === "Regex").map((t) => t.value)).toEqual(["/a\\/b/i"]);
    expect(tokens.filter((t) => t.kind === "MathOp").map((t) => t.value)).toEqual(["/"]);
  });

  it("lexes comparison operators inside arguments", () => {
    const tokens = lexDql("{ q(func: uid(1)) { x: math(a <= b != c == d >= e > f) } }");
    expect(tokens.filter((t) => t.kind === "MathOp").map((t) => t.value)).toEqual([
      "<=",
      "!=",
      "==",
      ">=",
      ">",
    ]);
  });

  it("rejects unexpected characters in a selection set", () => {
    const text = "{ q(func: uid(1)) { name % } }";
    expect(lexError(text)).toBe(lexing(text, 1, 25, "Unrecognized character in lexText: U+0025 '%'"));
  });

  it("rejects unexpected characters inside arguments", () => {
    const text = "{ q(func: uid(1 & 2)) { uid } }";
    expect(lexError(text)).toBe(lexing(text, 1, 16, "Unrecognized character inside a func: U+0026 '&'"));
  });

  it("reports unclosed blocks and brackets at the end of input", () => {
    const a = "{ q(func: uid(1)) { name }";
    expect(lexError(a)).toBe(lexing(a, 1, 26, "Unclosed action"));
    const b = "{ q(func: uid(1) { name } }";
    expect(lexError(b)).toBe(lexing(b, 1, 27, "Unclosed Brackets"));
  });

  it("rejects empty arguments and consecutive commas", () => {
    const a = "{ q(func: uid(1,)) { uid } }";
    expect(lexError(a)).toBe(lexing(a, 1, 16, "Empty Argument"));
    const b = "{ q(func: uid(1,,2)) { uid } }";
    expect(lexError(b)).toBe(lexing(b, 1, 16, "Consecutive commas not allowed."));
  });

  it("rejects unterminated strings and bad escapes", () => {
    const a = '{ q(func: eq(name, "abc)) { uid } }';
    expect(lexError(a)).toBe(lexing(a, 1, 19, "Unexpected end of input."));
    const b = '{ q(func: eq(name, "a\\qb")) { uid } }';
    expect(lexError(b)).toBe(lexing(b, 1, 19, "Not a valid escape char: 'q'"));
  });

  it("rejects unterminated regular expressions", () => {
    const text = "{ q(func: regexp(name, /abc)) { uid } }";
    expect(lexError(text)).toBe(lexing(text, 1, 23, "Unclosed regexp"));
  });

  it("rejects unknown operation types and stray closing braces", () => {
    expect(lexError("foo { }")).toBe(lexing("foo { }", 1, 0, "Invalid operation type: foo"));
    expect(lexError("}")).toBe(lexing("}", 1, 0, "Too many right curl"));
  });

  it("rejects a block that does not start with a name", () => {
    expect(lexError("{")).toBe(lexing("{", 1, 1, "Invalid DQL"));
    expect(lexError('{ "q" }')).toBe(
      lexing('{ "q" }', 1, 2, "Unexpected character while lexing DQL: U+0022 '\"'"),
    );
  });

  it("rejects bad directive characters", () => {
    const text = "{ q(func: uid(1)) @%x { uid } }";
    expect(lexError(text)).toBe(lexing(text, 1, 19, "Unrecognized character in lexDirective: U+0025 '%'"));
  });

  it("rejects unterminated IRIs", () => {
    const text = "{ q(func: has(<abc d>)) { uid } }";
    expect(lexError(text)).toBe(lexing(text, 1, 18, "Unexpected character ' ' while parsing IRI"));
  });

  it("counts every \\r and \\n as a line break and columns in bytes", () => {
    const text = '{\r\n q(func: eq(name, "é")) { na%me } }';
    expect(lexError(text)).toBe(lexing(text, 3, 29, "Unrecognized character in lexText: U+0025 '%'"));
  });

  it("lexes schema blocks", () => {
    const tokens = lexDql("schema(pred: [name, <age>]) { type }");
    expect(tokens.map((t) => t.kind)).toEqual([
      "OpType",
      "LeftRound",
      "Name",
      "Colon",
      "LeftSquare",
      "Name",
      "Comma",
      "Name",
      "RightSquare",
      "RightRound",
      "LeftCurl",
      "Name",
      "RightCurl",
      "EOF",
    ]);
    const bad = "schema { $x }";
    expect(lexError(bad)).toBe(lexing(bad, 1, 9, "Unrecognized character inside schema: U+0024 '$'"));
  });
});
