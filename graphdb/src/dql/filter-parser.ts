/**
 * Boolean filter trees: `@filter(...)`, `@facets(eq(k, v) and ...)` and upsert `@if(...)`. Operators
 * `and`, `or`, `not` are case-insensitive with precedence not > and > or; parsed with Dgraph's
 * operator-precedence algorithm (so malformed input fails the same way) and flattened into n-ary nodes.
 */
import type { FilterTree } from "./ast.ts";
import { parseFunction, toFunctionCall } from "./function-parser.ts";
import type { ParseContext } from "./parse-context.ts";
import { describeToken, plainError } from "./token-stream.ts";

type Operator = "(" | "and" | "or" | "not";

const PRECEDENCE: Record<Operator, number> = { "(": 0, or: 1, and: 2, not: 3 };

/**
 * `left op right`, flattened. Nodes are fresh while parsing, so a same-kind left side is extended in
 * place: long `a or b or c ...` chains stay linear.
 */
function combine(op: "and" | "or", left: FilterTree, right: FilterTree): FilterTree {
  const kind = op === "and" ? "FilterAnd" : "FilterOr";
  let node: FilterTree;
  if (left.kind === kind) {
    node = left;
  } else {
    node = kind === "FilterAnd" ? { kind, operands: [left] } : { kind, operands: [left] };
  }
  const operands = (node as { operands: FilterTree[] }).operands;
  if (right.kind === kind) {
    for (const operand of right.operands) operands.push(operand);
  } else {
    operands.push(right);
  }
  return node;
}

function evalTop(ops: Operator[], values: FilterTree[]): void {
  const op = ops.pop();
  if (op === undefined || op === "(") throw plainError("Invalid filter statement");
  if (op === "not") {
    const operand = values.pop();
    if (operand === undefined) throw plainError("Invalid filter statement");
    values.push({ kind: "FilterNot", operand });
    return;
  }
  if (values.length < 2) throw plainError("Invalid filter statement");
  const right = values.pop()!;
  const left = values.pop()!;
  values.push(combine(op, left, right));
}

/**
 * Parses `( ... )` after a filter directive name (the stream is before the `(`). Returns undefined for an
 * empty filter `()`, which Dgraph ignores.
 */
export function parseFilter(ctx: ParseContext): FilterTree | undefined {
  const ts = ctx.ts;
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") throw ts.errorAt(open, "Expected ( after filter directive");
  const ops: Operator[] = ["("];
  const values: FilterTree[] = [];
  loop: while (ts.next()) {
    const token = ts.item;
    if (token.kind === "Name") {
      const lower = token.value.toLowerCase();
      if (lower === "and" || lower === "or" || lower === "not") {
        const precedence = PRECEDENCE[lower];
        while (ops.length > 0 && PRECEDENCE[ops[ops.length - 1]] >= precedence) evalTop(ops, values);
        ops.push(lower);
        continue;
      }
      ts.prev();
      const fn = parseFunction(ctx, false);
      values.push({ kind: "FilterFunction", func: toFunctionCall(ctx, fn, "filter") });
      continue;
    }
    switch (token.kind) {
      case "LeftRound":
        ops.push("(");
        continue;
      case "RightRound":
        while (ops.length > 0 && ops[ops.length - 1] !== "(") evalTop(ops, values);
        if (ops.pop() === undefined) throw ts.errorAt(token, "Invalid filter statement");
        if (ops.length === 0) break loop;
        continue;
      default:
        throw ts.errorAt(token, `Unexpected item while parsing @filter: ${describeToken(token)}`);
    }
  }
  if (ops.length > 0) throw ts.errorAt(open, "Unbalanced parentheses in @filter statement");
  if (values.length === 0) return undefined;
  if (values.length !== 1)
    throw ts.errorAt(open, `Expected one item in value stack, but got ${values.length}`);
  return values[0];
}

/** True when any function of the tree reads a variable (not allowed in facet filters). */
export function filterUsesVariables(tree: FilterTree): boolean {
  switch (tree.kind) {
    case "FilterFunction": {
      const f = tree.func;
      if (f.uids !== undefined && f.uids.vars.length > 0) return true;
      if (f.attr !== undefined && (f.attr.kind === "ValueVarAttr" || f.attr.kind === "LenVarAttr"))
        return true;
      return f.args.some((a) => a.kind === "ValueVarArg" || a.kind === "UidVarArg");
    }
    case "FilterAnd":
    case "FilterOr":
      return tree.operands.some(filterUsesVariables);
    case "FilterNot":
      return filterUsesVariables(tree.operand);
  }
}
