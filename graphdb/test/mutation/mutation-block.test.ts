import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import { parseMutationBlock } from "../../src/mutation/mutation-block.ts";

function errorOf(text: string): string {
  try {
    parseMutationBlock(text);
  } catch (e) {
    expect(e).toBeInstanceOf(DgraphError);
    return (e as Error).message;
  }
  throw new Error(`expected an error for ${text}`);
}

describe("parseMutationBlock: plain blocks", () => {
  it("returns the set and delete texts of a mutation block", () => {
    const block = parseMutationBlock(`{
      set { _:a <name> "Alice" . }
      delete { <0x1> <name> * . }
    }`);
    expect(block).toEqual({
      mutations: [{ setNquads: ` _:a <name> "Alice" . `, delNquads: " <0x1> <name> * . " }],
    });
  });

  it("accepts either block alone, comments and an empty set", () => {
    expect(parseMutationBlock(`# comment\n{ set {} }`)).toEqual({ mutations: [{ setNquads: "" }] });
    expect(parseMutationBlock(`{ delete { <0x1> * * . } # gone\n }`)).toEqual({
      mutations: [{ delNquads: " <0x1> * * . " }],
    });
  });

  it("keeps braces inside quoted values", () => {
    expect(parseMutationBlock(`{ set { _:a <json> "{\\"a\\": 1}" . } }`).mutations[0].setNquads).toBe(
      ` _:a <json> "{\\"a\\": 1}" . `,
    );
  });

  it("rejects del, schema and dropall blocks with Dgraph's texts", () => {
    expect(errorOf(`{ del { <0x1> <a> * . } }`)).toBe("line 1 column 2: Invalid mutation operation.");
    expect(errorOf(`{ schema { name: string . } }`)).toMatch(
      /: Altering schema not supported through http client\.$/,
    );
    expect(errorOf(`{ dropall { } }`)).toMatch(/: Dropall not supported through http client\.$/);
  });

  it("rejects unclosed blocks and stray braces", () => {
    expect(errorOf(`{ set { _:a <p> "x" . }`)).toContain("Unclosed mutation action");
    expect(errorOf(`{ set { _:a <p> "x" . `)).toContain("Unclosed mutation text");
    expect(errorOf(`{ set { { } }`)).toContain("Invalid character '{' inside mutation text");
    expect(errorOf(`{ set { } } }`)).toContain("Too many right curl");
    expect(errorOf(`{ set { } } {`)).toContain("Unexpected { after the end of the block");
    expect(errorOf(``)).toContain("Invalid mutation");
    expect(errorOf(`set { }`)).toContain("Invalid block: [set]");
  });

  it("reports a lexer error that follows a parse error, as Dgraph lexes first", () => {
    expect(errorOf(`{ del { } set { "unclosed } }`)).toContain("Unclosed mutation value");
  });
});

describe("parseMutationBlock: upsert", () => {
  const upsert = `upsert {
    query { q(func: eq(email, "a@b.c")) { v as uid  n as name } }
    mutation @if(eq(len(v), 0)) { set { _:new <email> "a@b.c" . } }
    mutation @if(gt(len(v), 0)) { set { uid(v) <name> "X" . } delete { uid(v) <old> * . } }
    mutation { set { _:log <at> "now" . } }
    fragment f { name }
  }`;

  it("returns the query, and each mutation with its condition", () => {
    expect(parseMutationBlock(upsert)).toEqual({
      query: ` { q(func: eq(email, "a@b.c")) { v as uid  n as name } }fragment f { name }`,
      mutations: [
        { cond: "@if(eq(len(v), 0))", setNquads: ` _:new <email> "a@b.c" . ` },
        { cond: "@if(gt(len(v), 0))", setNquads: ` uid(v) <name> "X" . `, delNquads: " uid(v) <old> * . " },
        { setNquads: ` _:log <at> "now" . ` },
      ],
    });
  });

  it("requires exactly one query and at least one mutation", () => {
    expect(errorOf(`upsert { mutation { set { _:a <p> "x" . } } }`)).toMatch(
      /^line \d+ column \d+: Query op not found in upsert block$/,
    );
    expect(errorOf(`upsert { query { q(func: uid(1)) { uid } } }`)).toMatch(/: Empty mutation block$/);
    expect(errorOf(`upsert { }`)).toMatch(/: Empty mutation block$/);
    expect(errorOf(`upsert { query { a } query { b } mutation { set { } } }`)).toMatch(
      /: Multiple query ops inside upsert block$/,
    );
  });

  it("accepts only @if conditions and balanced brackets", () => {
    expect(errorOf(`upsert { query { } mutation @filter(x) { set { } } }`)).toContain(
      "Expected @if, found [@filter]",
    );
    expect(errorOf(`upsert { query { } mutation @if(eq(len(v), 0) { set { } } }`)).toContain(
      "Matching brackets not found",
    );
    expect(errorOf(`upsert { query { q(func: uid(1)) { uid } }`)).toContain("Unclosed upsert block");
    expect(errorOf(`upsert { set { } }`)).toContain("Invalid operation type: set");
  });

  it("rejects del inside an upsert mutation", () => {
    expect(errorOf(`upsert { query { } mutation { del { } } }`)).toMatch(/: Invalid mutation operation\.$/);
  });
});
