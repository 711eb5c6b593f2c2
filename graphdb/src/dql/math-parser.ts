/**
 * `math(...)` expressions with Dgraph's operator precedences (`dql/math.go`): unary minus binds
 * tightest, then `* /`, `dot`, `%`, `-`, `+`, then comparisons `< > <= >= == !=`. Function forms
 * `min max logbase pow ln exp sqrt floor ceil since cond dot`. Names that parse as numbers are constants,
 * other names are value variables; `$x` query variables become constants.
 */
import { goParseFloat, goParseInt, numErrorText } from "../types/strconv.ts";
import type { MathBinaryOp, MathExpr, MathFunctionName } from "./ast.ts";
import type { Token } from "./lexer.ts";
import type { ParseContext } from "./parse-context.ts";
import { describeToken, plainError } from "./token-stream.ts";

const BINARY_PRECEDENCE: Record<string, number> = {
  "/": 50,
  "*": 50,
  dot: 49,
  "%": 48,
  "-": 47,
  "+": 46,
  "<": 10,
  ">": 9,
  "<=": 8,
  ">=": 7,
  "==": 6,
  "!=": 5,
};

const FUNCTION_ARITY: Record<MathFunctionName, number> = {
  exp: 1,
  ln: 1,
  sqrt: 1,
  floor: 1,
  ceil: 1,
  since: 1,
  min: 2,
  max: 2,
  pow: 2,
  logbase: 2,
  dot: 2,
  cond: 3,
};

function isMathFunction(name: string): name is MathFunctionName {
  return Object.hasOwn(FUNCTION_ARITY, name);
}

/** A number constant per Dgraph: base-10 int64, else a Go float, else undefined (a variable name). */
function numberConstant(text: string): MathExpr | undefined {
  if (/^[+-]?[0-9]+$/.test(text)) {
    const i = goParseInt(text);
    if (typeof i === "bigint") return { kind: "MathNumber", value: Number(i), text, isInt: true };
  }
  const f = goParseFloat(text);
  if (typeof f === "number") return { kind: "MathNumber", value: f, text, isInt: false };
  return undefined;
}

class MathParser {
  constructor(private readonly ctx: ParseContext) {}

  private next(): Token {
    this.ctx.ts.next();
    return this.ctx.ts.item;
  }

  private expect(kind: "RightRound" | "Comma", operands: number): void {
    const token = this.next();
    if (token.kind !== kind) {
      if (token.kind === "RightRound" || token.kind === "Comma" || token.kind === "EOF") {
        throw plainError(`Invalid Math expression. Expected ${operands} operands`);
      }
      throw plainError(`Unexpected item while parsing math expression: ${describeToken(token)}`);
    }
  }

  expression(minPrecedence: number): MathExpr {
    let left = this.operand();
    for (;;) {
      const token = this.ctx.ts.peek();
      if (token === undefined) return left;
      const op = this.binaryOperator(token);
      if (op === undefined) return left;
      const precedence = BINARY_PRECEDENCE[op];
      if (precedence < minPrecedence) return left;
      this.ctx.ts.next();
      const right = this.expression(precedence + 1);
      if ((op === "/" || op === "%") && right.kind === "MathNumber" && right.value === 0) {
        throw plainError("Division by zero.");
      }
      left =
        op === "dot"
          ? { kind: "MathCall", fn: "dot", args: [left, right] }
          : { kind: "MathBinary", op: op as MathBinaryOp, left, right };
    }
  }

  private binaryOperator(token: Token): string | undefined {
    if (token.kind === "MathOp")
      return Object.hasOwn(BINARY_PRECEDENCE, token.value) ? token.value : undefined;
    if (token.kind === "Name" && token.value.toLowerCase() === "dot" && !this.followedByParen()) return "dot";
    return undefined;
  }

  private followedByParen(): boolean {
    const t = this.ctx.ts.peek(2);
    return t !== undefined && t.kind === "LeftRound";
  }

  private operand(): MathExpr {
    const ts = this.ctx.ts;
    const token = this.next();
    switch (token.kind) {
      case "MathOp":
        if (token.value === "-") return { kind: "MathUnary", op: "-", operand: this.operand() };
        throw plainError("Invalid Math expression. Expected 2 operands");
      case "LeftRound": {
        if (ts.peekIs("RightRound")) throw plainError("Empty () not allowed in math block.");
        const inner = this.expression(0);
        this.expect("RightRound", 2);
        return inner;
      }
      case "Dollar":
        return this.queryVariable();
      case "Name": {
        if (ts.peekIs("LeftRound")) return this.call(token);
        return numberConstant(token.value) ?? { kind: "MathVarRef", varName: token.value };
      }
      case "RightRound":
      case "Comma":
      case "EOF":
        throw plainError("Invalid Math expression. Expected 2 operands");
      default:
        throw plainError(`Unexpected item while parsing math expression: ${describeToken(token)}`);
    }
  }

  private call(nameToken: Token): MathExpr {
    const fn = nameToken.value.toLowerCase();
    if (!isMathFunction(fn)) throw plainError(`Unknown math function: ${nameToken.value}`);
    this.next(); // "("
    if (this.ctx.ts.peekIs("RightRound")) throw plainError("Empty () not allowed in math block.");
    const arity = FUNCTION_ARITY[fn];
    const args: MathExpr[] = [this.expression(0)];
    while (this.ctx.ts.peekIs("Comma")) {
      this.ctx.ts.next();
      args.push(this.expression(0));
    }
    this.expect("RightRound", arity);
    if (args.length !== arity) throw plainError(`Invalid Math expression. Expected ${arity} operands`);
    return { kind: "MathCall", fn, args };
  }

  /** `$x`: the names after `$` form the variable name; its value becomes a constant. */
  private queryVariable(): MathExpr {
    const ts = this.ctx.ts;
    let name = "$";
    while (ts.peekIs("Name")) {
      ts.next();
      name += ts.item.value;
    }
    if (name === "$") throw ts.errorNext("Expected variable name after $");
    const type = this.ctx.vars.typeOf(name);
    if (type === undefined) throw plainError("Variable not found in math");
    const value = this.ctx.vars.rawValueOf(name);
    if (value === "") throw plainError("No value found");
    const base = type.endsWith("!") ? type.slice(0, -1) : type;
    if (base === "int") {
      const r = goParseInt(value);
      if (typeof r === "string") {
        throw plainError(`Expected an int but got ${value}: ${numErrorText("ParseInt", value, r, "json")}`);
      }
      return { kind: "MathNumber", value: Number(r), text: value, isInt: true };
    }
    if (base === "float") {
      const r = goParseFloat(value);
      if (typeof r === "string") {
        throw plainError(
          `Expected a float but got ${value}: ${numErrorText("ParseFloat", value, r, "json")}`,
        );
      }
      return { kind: "MathNumber", value: r, text: value, isInt: false };
    }
    throw plainError(`Type ${JSON.stringify(base)} not supported`);
  }
}

/**
 * Parses `( expr )` after the `math` keyword (the stream is on `math`). Returns the tree and the
 * expression's source text.
 */
export function parseMath(ctx: ParseContext): { expr: MathExpr; text: string } {
  const ts = ctx.ts;
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") throw plainError("Expected ( after math");
  if (ts.peekIs("RightRound")) throw plainError("Empty () not allowed in math block.");
  const parser = new MathParser(ctx);
  const expr = parser.expression(0);
  ts.next();
  const close = ts.item;
  if (close.kind === "Comma") throw plainError("Comma encountered in math() at unexpected place.");
  if (close.kind !== "RightRound") {
    throw plainError(`Unexpected item while parsing math expression: ${describeToken(close)}`);
  }
  return { expr, text: ctx.input.slice(open.end, close.start).trim() };
}
