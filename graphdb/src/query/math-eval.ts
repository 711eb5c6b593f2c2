/**
 * `math(...)` over value variables (Dgraph's query/math.go and aggregator.ApplyVal): every operand is
 * either a per-uid map or a constant; arithmetic runs in float64 (ints are converted), a uid missing on
 * one side counts as 0, comparisons give bools, `cond` picks per uid.
 */
import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { MathExpr } from "../dql/ast.ts";
import { parseDateTime } from "../types/datetime.ts";
import { equalTyped, lessTyped } from "./value-compare.ts";

/** A math operand or result: a per-uid map, or a constant (exactly one is set). */
export interface MathValue {
  vals: Map<number, TypedValue> | undefined;
  constant: TypedValue | undefined;
}

/** Resolves a variable of the expression (already brought to the math node's level). */
export type MathVarResolver = (name: string) => MathValue | undefined;

const ZERO: TypedValue = { type: "int", value: 0 };

function constant(v: TypedValue): MathValue {
  return { vals: undefined, constant: v };
}

/** Evaluates a math expression. */
export function evalMath(expr: MathExpr, resolve: MathVarResolver): MathValue {
  switch (expr.kind) {
    case "MathNumber":
      return constant(expr.isInt ? { type: "int", value: expr.value } : { type: "float", value: expr.value });
    case "MathVarRef": {
      const v = resolve(expr.varName);
      if (v === undefined || (v.vals === undefined && v.constant === undefined)) {
        throw new DgraphError(`Variable ${expr.varName} not yet populated or missing.`);
      }
      return v;
    }
    case "MathUnary":
      return unary(expr.op === "-" ? "u-" : "!", evalMath(expr.operand, resolve));
    case "MathBinary": {
      const l = evalMath(expr.left, resolve);
      const r = evalMath(expr.right, resolve);
      switch (expr.op) {
        case "<":
        case ">":
        case "<=":
        case ">=":
        case "==":
        case "!=":
          return binaryBoolean(expr.op, l, r);
        default:
          return binary(expr.op, l, r);
      }
    }
    case "MathCall": {
      const args = expr.args.map((a) => evalMath(a, resolve));
      const want = (n: number) => {
        if (args.length !== n) {
          throw new DgraphError(`Function ${expr.fn} expects ${n} argument. But got: ${args.length}`);
        }
      };
      switch (expr.fn) {
        case "ln":
        case "exp":
        case "sqrt":
        case "floor":
        case "ceil":
        case "since":
          want(1);
          return unary(expr.fn, args[0]);
        case "min":
        case "max":
        case "logbase":
        case "pow":
          want(2);
          return binary(expr.fn, args[0], args[1]);
        case "cond":
          want(3);
          return ternary(args[0], args[1], args[2]);
        case "dot":
          throw new DgraphError("math function dot is not supported yet");
      }
    }
  }
}

interface Num {
  /** The value after ApplyVal's conversion (ints become floats). */
  v: TypedValue;
  isNum: boolean;
  f: number;
}

function toNum(v: TypedValue | undefined): Num {
  const x = v ?? ZERO;
  if (x.type === "int" || x.type === "float") {
    const f = x.value as number;
    return { v: { type: "float", value: f }, isNum: true, f };
  }
  return { v: x, isNum: false, f: 0 };
}

function clamp(v: TypedValue): TypedValue {
  if (v.type !== "float") return v;
  const f = v.value as number;
  if (f === Number.POSITIVE_INFINITY) return { type: "float", value: Number.MAX_VALUE };
  if (f === Number.NEGATIVE_INFINITY) return { type: "float", value: -Number.MAX_VALUE };
  if (Number.isNaN(f)) return { type: "float", value: 0 };
  return v;
}

function wrongType(fn: string): DgraphError {
  return new DgraphError(`Wrong type encountered for func ${JSON.stringify(fn)}`);
}

function applyUnary(fn: string, raw: TypedValue | undefined): TypedValue {
  const n = toNum(raw);
  const float = (f: number): TypedValue => clamp({ type: "float", value: f });
  switch (fn) {
    case "ln":
      if (!n.isNum) throw wrongType(fn);
      return float(Math.log(n.f));
    case "exp":
      if (!n.isNum) throw wrongType(fn);
      return float(Math.exp(n.f));
    case "u-":
      if (!n.isNum) throw wrongType(fn);
      return float(-n.f);
    case "sqrt":
      if (!n.isNum) throw wrongType(fn);
      return float(Math.sqrt(n.f));
    case "floor":
      if (!n.isNum) throw wrongType(fn);
      return float(Math.floor(n.f));
    case "ceil":
      if (!n.isNum) throw wrongType(fn);
      return float(Math.ceil(n.f));
    case "since": {
      const d = raw?.type === "datetime" ? parseDateTime(raw.value as string) : null;
      if (d === null) throw wrongType(fn);
      return float((Date.now() - d.epochMs) / 1000);
    }
    case "!":
      if (raw?.type !== "bool") throw wrongType(fn);
      return { type: "bool", value: !(raw.value as boolean) };
    default:
      throw new DgraphError(`Unhandled Math operator: ${fn}`);
  }
}

function unary(fn: string, a: MathValue): MathValue {
  if (a.constant !== undefined) return constant(applyUnary(fn, a.constant));
  const out = new Map<number, TypedValue>();
  for (const [k, v] of a.vals!) out.set(k, applyUnary(fn, v));
  return { vals: out, constant: undefined };
}

function applyBinary(fn: string, left: TypedValue | undefined, right: TypedValue | undefined): TypedValue {
  const a = toNum(left);
  const b = toNum(right);
  const both = a.isNum && b.isNum;
  const float = (f: number): TypedValue => clamp({ type: "float", value: f });
  switch (fn) {
    case "+":
      if (!both) throw wrongType(fn);
      return float(a.f + b.f);
    case "-":
      if (!both) throw wrongType(fn);
      return float(a.f - b.f);
    case "*":
      if (!both) throw wrongType(fn);
      return float(a.f * b.f);
    case "/":
      if (!both) throw wrongType(fn);
      if (b.f === 0) throw new DgraphError("Division by zero");
      return float(a.f / b.f);
    case "%":
      if (!both) throw wrongType(fn);
      if (b.f === 0) throw new DgraphError("Division by zero");
      return float(a.f % b.f);
    case "pow":
      if (!both) throw wrongType(fn);
      return float(a.f ** b.f);
    case "logbase":
      if (b.f === 1) return clamp(a.v);
      if (!both) throw wrongType(fn);
      return float(Math.log(a.f) / Math.log(b.f));
    case "min":
      return clamp(lessTyped(a.v, b.v) === false ? b.v : a.v);
    case "max":
      return clamp(lessTyped(a.v, b.v) === true ? b.v : a.v);
    default:
      throw new DgraphError(`Unhandled Math operator: ${fn}`);
  }
}

function binary(fn: string, l: MathValue, r: MathValue): MathValue {
  if (l.vals === undefined && r.vals === undefined) {
    return constant(applyBinary(fn, l.constant, r.constant));
  }
  const out = new Map<number, TypedValue>();
  const lv = (k: number) => l.constant ?? l.vals?.get(k);
  const rv = (k: number) => r.constant ?? r.vals?.get(k);
  if (r.vals !== undefined) for (const k of r.vals.keys()) out.set(k, applyBinary(fn, lv(k), rv(k)));
  if (l.vals !== undefined) {
    for (const k of l.vals.keys()) if (!out.has(k)) out.set(k, applyBinary(fn, lv(k), rv(k)));
  }
  return { vals: out, constant: undefined };
}

/** Dgraph's compareValues: same-typed comparison, an int promoted to float when types differ. */
function compare(op: string, a0: TypedValue, b0: TypedValue): boolean {
  let a = a0;
  let b = b0;
  if (a.type !== b.type) {
    if (a.type === "int") a = { type: "float", value: a.value };
    else if (b.type === "int") b = { type: "float", value: b.value };
  }
  const less = lessTyped(a, b);
  const more = lessTyped(b, a);
  const equal = equalTyped(a, b);
  if (less === undefined || more === undefined || equal === undefined) {
    throw new DgraphError("Wrong values in comparison function.");
  }
  switch (op) {
    case "<":
      return less;
    case ">":
      return more;
    case "<=":
      return less || equal;
    case ">=":
      return more || equal;
    case "==":
      return equal;
    default:
      return !equal;
  }
}

function binaryBoolean(op: string, l: MathValue, r: MathValue): MathValue {
  const out = new Map<number, TypedValue>();
  // Only the left side's uids are compared (Dgraph iterates the first operand's map).
  if (l.vals === undefined) return { vals: out, constant: undefined };
  for (const [k, v] of l.vals) {
    const other = r.constant ?? r.vals?.get(k) ?? ZERO;
    out.set(k, { type: "bool", value: compare(op, v, other) });
  }
  return { vals: out, constant: undefined };
}

function ternary(cond: MathValue, a: MathValue, b: MathValue): MathValue {
  if (cond.vals === undefined) throw new DgraphError("Expected a value variable in cond but missing.");
  const out = new Map<number, TypedValue>();
  for (const [k, c] of cond.vals) {
    if (c.type !== "bool") throw new DgraphError("First variable of conditional function not a bool value");
    const pick = c.value ? (a.constant ?? a.vals?.get(k)) : (b.constant ?? b.vals?.get(k));
    if (pick !== undefined) out.set(k, pick);
  }
  return { vals: out, constant: undefined };
}
