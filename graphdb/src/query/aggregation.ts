/**
 * `min/max/sum/avg(val(x))` (Dgraph's query/aggregator.go): over the whole variable in an empty block,
 * or per parent node over the children one level below, where the variable was defined.
 */
import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { AggregateFunctionName } from "../dql/ast.ts";
import type { SubGraph } from "./subgraph.ts";
import { lessTyped } from "./value-compare.ts";
import type { VarStore } from "./var-store.ts";

/** Dgraph's aggregator: ints sum as ints, floats as floats, a mixed pair is skipped; avg is a float. */
export class Aggregator {
  private result: TypedValue | undefined = undefined;
  private count = 0;

  constructor(private readonly fn: AggregateFunctionName) {}

  apply(v: TypedValue): void {
    const va = this.result;
    this.count++;
    if (va === undefined) {
      this.result = v;
      return;
    }
    switch (this.fn) {
      case "min": {
        const less = lessTyped(va, v);
        if (less === false) this.result = v;
        return;
      }
      case "max": {
        if (lessTyped(va, v) === true) this.result = v;
        return;
      }
      default:
        if ((va.type === "int" && v.type === "int") || (va.type === "float" && v.type === "float")) {
          this.result = { type: va.type, value: (va.value as number) + (v.value as number) };
        }
    }
  }

  /** The aggregate, or undefined when nothing was applied. Floats are clamped like Dgraph's. */
  value(): TypedValue | undefined {
    let r = this.result;
    if (r === undefined) return undefined;
    if (this.fn === "avg" && this.count > 0 && (r.type === "int" || r.type === "float")) {
      r = { type: "float", value: (r.value as number) / this.count };
    }
    if (r.type === "float") {
      const f = r.value as number;
      if (f === Number.POSITIVE_INFINITY) r = { type: "float", value: Number.MAX_VALUE };
      else if (f === Number.NEGATIVE_INFINITY) r = { type: "float", value: -Number.MAX_VALUE };
      else if (Number.isNaN(f)) r = { type: "float", value: 0 };
    }
    return r;
  }
}

/** Aggregates every value of a variable (empty blocks); the result sits under uid 0. */
export function aggregateWhole(
  fn: AggregateFunctionName,
  vals: Map<number, TypedValue> | undefined,
): Map<number, TypedValue> {
  const out = new Map<number, TypedValue>();
  if (vals === undefined) return out;
  const ag = new Aggregator(fn);
  for (const v of vals.values()) ag.apply(v);
  const r = ag.value();
  if (r !== undefined) out.set(0, r);
  return out;
}

/**
 * Dgraph's evalLevelAgg: `max(val(x))` at a node aggregates x over the node's children through the
 * sibling edge whose own children define x; the result is keyed by the node's uid.
 */
export function aggregateLevel(vars: VarStore, sg: SubGraph, parent: SubGraph): Map<number, TypedValue> {
  const name = sg.varName;
  let rel: SubGraph | undefined;
  for (const ch of parent.children) {
    if (ch === sg) continue;
    if (ch.facets?.keys.some((k) => k.asVar === name)) rel = ch;
    for (const cch of ch.children) if (cch.asVar === name) rel = ch;
  }
  if (rel === undefined) throw new DgraphError("Invalid variable aggregation. Check the levels.");
  const vals = vars.get(name)?.vals;
  const out = new Map<number, TypedValue>();
  if (vals === undefined) return out;
  for (let i = 0; i < rel.rows.length; i++) {
    const row = rel.rows[i];
    const ag = new Aggregator(sg.aggFn!);
    for (let j = 0; j < row.length; j++) {
      const v = vals.get(row[j]);
      if (v !== undefined) ag.apply(v);
    }
    const r = ag.value();
    if (r !== undefined) out.set(rel.src[i], r);
  }
  return out;
}
