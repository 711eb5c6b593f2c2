import { DgraphError } from "../core/errors.ts";
import type { ConditionAST, FunctionCall } from "../dql/ast.ts";

/**
 * Evaluates an upsert `@if(...)` condition against the upsert query's uid variables. Conditions compare
 * `len(v)` with a number (`eq/lt/le/gt/ge`), combined with and/or/not, as Dgraph supports.
 */
export function evaluateCondition(cond: ConditionAST, uidVarLength: (name: string) => number): boolean {
  switch (cond.kind) {
    case "FilterAnd":
      return cond.operands.every((c) => evaluateCondition(c, uidVarLength));
    case "FilterOr":
      return cond.operands.some((c) => evaluateCondition(c, uidVarLength));
    case "FilterNot":
      return !evaluateCondition(cond.operand, uidVarLength);
    case "FilterFunction":
      return evaluateFunction(cond.func, uidVarLength);
  }
}

function evaluateFunction(f: FunctionCall, uidVarLength: (name: string) => number): boolean {
  if (f.attr?.kind !== "LenVarAttr") {
    throw new DgraphError(`Only len() of a variable can be compared in an @if condition, got: ${f.name}`);
  }
  const arg = f.args[0];
  const n = arg?.kind === "LiteralArg" ? Number(arg.value) : Number.NaN;
  if (!Number.isInteger(n))
    throw new DgraphError(`Expected an int in the @if condition of ${f.name}(len(...))`);
  const len = uidVarLength(f.attr.varName);
  switch (f.name) {
    case "eq":
      return len === n;
    case "lt":
      return len < n;
    case "le":
      return len <= n;
    case "gt":
      return len > n;
    case "ge":
      return len >= n;
    default:
      throw new DgraphError(`Function ${f.name} is not supported in an @if condition`);
  }
}
