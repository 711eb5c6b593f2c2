import { describe, expect, it } from "vitest";
import type { FilterTree } from "../../src/dql/ast.ts";
import {
  conditionVariables,
  DqlSyntaxError,
  parseCondition,
  parseFilterExpression,
} from "../../src/dql/parser.ts";

function conditionError(text: string): string {
  try {
    parseCondition(text);
  } catch (error) {
    expect(error).toBeInstanceOf(DqlSyntaxError);
    return (error as Error).message;
  }
  throw new Error(`expected an error for: ${text}`);
}

describe("upsert conditions", () => {
  it("parses a len() comparison", () => {
    expect(parseCondition("@if(eq(len(v), 0))")).toEqual({
      kind: "FilterFunction",
      func: {
        kind: "FunctionCall",
        name: "eq",
        attr: { kind: "LenVarAttr", varName: "v", loc: { line: 1, column: 7 } },
        args: [{ kind: "LiteralArg", value: "0", quoted: false, loc: { line: 1, column: 15 } }],
        loc: { line: 1, column: 4 },
      },
    });
  });

  it("combines comparisons with and, or and not in any case", () => {
    const tree = parseCondition("@if(eq(len(v), 1) AND (gt(len(w), 0) or NOT lt(len(u), 3)))") as FilterTree;
    expect(tree.kind).toBe("FilterAnd");
    if (tree.kind !== "FilterAnd") return;
    expect(tree.operands[1]).toMatchObject({
      kind: "FilterOr",
      operands: [{ kind: "FilterFunction" }, { kind: "FilterNot" }],
    });
    for (const name of ["le", "ge", "lt", "gt"]) {
      expect(parseCondition(`@if(${name}(len(v), 2))`)).toMatchObject({
        func: { name, attr: { kind: "LenVarAttr" } },
      });
    }
  });

  it("accepts @filter conditions, filter functions and spaces before the parenthesis", () => {
    expect(parseCondition('@filter(eq(name, "x"))')).toMatchObject({
      func: { name: "eq", attr: { predicate: "name" } },
    });
    expect(parseCondition("  @if ( NOT eq(len(v), 0) )  ")).toMatchObject({ kind: "FilterNot" });
    expect(parseCondition("@if(uid(v))")).toMatchObject({
      func: { name: "uid", uids: { uids: [], vars: ["v"] } },
    });
  });

  it("treats an empty condition as none", () => {
    expect(parseCondition("")).toBeUndefined();
    expect(parseCondition("   ")).toBeUndefined();
    expect(parseCondition("@if()")).toBeUndefined();
  });

  it("requires the condition to start with @if( or @filter(", () => {
    const message = "invalid cond value: must start with @if( or @filter(";
    expect(conditionError("eq(len(v), 0)")).toBe(message);
    expect(conditionError("@iff(eq(len(v), 0))")).toBe(message);
    expect(conditionError("@if eq(len(v), 0)")).toBe(message);
    expect(conditionError("@cascade(eq(len(v), 0))")).toBe(message);
  });

  it("requires balanced parentheses and nothing after them", () => {
    const message = "invalid cond value: unbalanced parentheses";
    expect(conditionError("@if(eq(len(v), 0)")).toBe(message);
    expect(conditionError("@if(eq(len(v), 0))) { q(func: uid(1)) { uid } }")).toBe(message);
    expect(conditionError("@if(eq(len(v), 0)) @filter(has(x))")).toBe(message);
    expect(parseCondition('@if(eq(name, "a)b"))')).toMatchObject({ func: { args: [{ value: "a)b" }] } });
  });

  it("rejects len() in the wrong place", () => {
    expect(conditionError("@if(eq(1, len(v)))")).toMatch(
      /incorrect order, the first argument should be len function$/,
    );
    expect(conditionError("@if(has(len(v)))")).toMatch(
      /len function only allowed inside inequality function$/,
    );
  });

  it("parses a bare filter expression", () => {
    expect(parseFilterExpression('eq(name, "x") and has(age)')).toMatchObject({
      kind: "FilterAnd",
      operands: [{ func: { name: "eq" } }, { func: { name: "has" } }],
    });
  });

  it("lists the variables a condition reads", () => {
    expect(
      conditionVariables(parseCondition("@if(eq(len(v), 0) and not (gt(len(w), 1) or uid(v, u)))")),
    ).toEqual(["v", "w", "u"]);
    expect(conditionVariables(undefined)).toEqual([]);
  });
});
