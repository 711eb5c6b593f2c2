/**
 * Query variables (Dgraph's `varValue` and populateVarMap / populatePostAggregation): uid variables
 * (`v as friend`, `v as var(...)`, `v as uid`), value variables (`a as age`, `n as count(friend)`,
 * `m as math(...)`, `s as sum(val(a))`), the order in which blocks can run, and how a value variable
 * defined higher up is carried down to a deeper level (summing over the edges between).
 */
import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { QueryBlock } from "../dql/ast.ts";
import { unionAll } from "../posting/uid-algebra.ts";
import { aggregateLevel, aggregateWhole } from "./aggregation.ts";
import { cascadeDest, paginateAfterCascade, restrictRows } from "./cascade.ts";
import { processGroupBy } from "./groupby.ts";
import { evalMath, type MathValue } from "./math-eval.ts";
import type { SubGraph } from "./subgraph.ts";
import type { VarScope, VarStore, VarValue } from "./var-store.ts";

function emptyVar(path: readonly SubGraph[]): VarValue {
  return { uids: undefined, vals: undefined, constant: undefined, path };
}

/** True when every variable a block needs is defined by the block itself or already computed. */
export function canExecute(block: QueryBlock, store: VarStore): boolean {
  for (const v of block.needs) if (!store.has(v) && !block.defines.includes(v)) return false;
  return true;
}

/** Adds the node's own uid variable to the scope its children see. */
export function scopeWithOwnVar(sg: SubGraph, scope: VarScope): VarScope {
  if (sg.asVar === undefined || sg.children.length === 0) return scope;
  const next = new Map(scope);
  next.set(sg.asVar, { uids: sg.dest, vals: undefined, constant: undefined, path: [] });
  return next;
}

/**
 * After a block ran: cascade bottom-up, then record every variable it defines (Dgraph's
 * populateVarMap). `path` holds the ancestors of `sg`.
 */
export function populateVarMap(store: VarStore, sg: SubGraph, path: SubGraph[]): void {
  if ((sg.kind === "root" && sg.isEmptyBlock) || sg.groupBy !== undefined) return;
  path.push(sg);
  for (const child of sg.children) {
    populateVarMap(store, child, path);
    if (child.cascade.length === 0) continue;
    restrictRows(child);
    paginateAfterCascade(child);
  }
  path.pop();
  if (sg.cascade.length > 0) cascadeDest(sg);
  populateVar(store, sg, path);
  populateFacetVars(store, sg, path);
}

/**
 * `@facets(w as weight)`: a value variable keyed by the edge's target uid; the same target reached by
 * several edges sums the (int/float) facet values (Dgraph's populateFacetVars).
 */
function populateFacetVars(store: VarStore, sg: SubGraph, path: readonly SubGraph[]): void {
  const d = sg.facets;
  if (d === undefined) return;
  const named = d.keys.filter((k) => k.asVar !== undefined);
  if (named.length === 0) return;
  const at = [...path, sg];
  for (const k of named)
    store.set(k.asVar!, { uids: undefined, vals: new Map(), constant: undefined, path: at });
  const facets = sg.edgeFacets;
  if (facets === undefined) return;
  for (let i = 0; i < sg.rows.length; i++) {
    const m = facets.get(sg.src[i]);
    const row = sg.rows[i];
    for (let j = 0; j < row.length; j++) {
      const fs = m?.get(row[j]);
      if (fs === undefined) continue;
      for (const k of named) {
        const f = fs.find((x) => x.key === k.key);
        if (f === undefined) continue;
        const vals = store.get(k.asVar!)!.vals!;
        const v: TypedValue = { type: f.type, value: f.value };
        const prev = vals.get(row[j]);
        if (prev === undefined) {
          vals.set(row[j], v);
          continue;
        }
        if (v.type !== "int" && v.type !== "float") {
          throw new DgraphError("Repeated id with non int/float value for facet var encountered.");
        }
        if (prev.type === v.type)
          vals.set(row[j], { type: v.type, value: (prev.value as number) + (v.value as number) });
      }
    }
  }
}

function populateVar(store: VarStore, sg: SubGraph, path: readonly SubGraph[]): void {
  const name = sg.asVar;
  if (name === undefined) return;
  const at = [...path];
  if (sg.counts !== undefined) {
    const vals = new Map<number, TypedValue>();
    for (let i = 0; i < sg.src.length; i++) vals.set(sg.src[i], { type: "int", value: sg.counts[i] });
    store.set(name, { uids: undefined, vals, constant: undefined, path: at });
    return;
  }
  if (sg.kind === "countUid") {
    store.set(name, {
      uids: undefined,
      vals: undefined,
      constant: { type: "int", value: sg.src.length },
      path: at,
    });
    return;
  }
  if (sg.dest.length !== 0 || sg.kind === "uid") {
    const uids = sg.kind === "uid" ? sg.src : sg.dest;
    const prev = store.get(name);
    if (prev?.uids !== undefined) store.set(name, { ...prev, uids: unionAll([prev.uids, uids]) });
    else store.set(name, { uids, vals: new Map(), constant: undefined, path: at });
    return;
  }
  if (sg.values.length !== 0 && path.length !== 0) {
    const prev = store.get(name);
    const vals = prev?.vals ?? new Map<number, TypedValue>();
    for (let i = 0; i < sg.src.length; i++) {
      const row = sg.values[i];
      if (row.length > 1)
        throw new DgraphError("Value variables not supported for predicate with list type.");
      if (row.length === 1) vals.set(sg.src[i], row[0].value);
    }
    store.set(name, { uids: prev?.uids, vals, constant: undefined, path: prev?.path ?? at });
    return;
  }
  if (!store.has(name)) store.set(name, emptyVar(at));
}

/**
 * Carries a value variable from the level where it was defined down to `toPath` (the ancestors of the
 * node using it), summing along edges (Dgraph's transformTo).
 */
export function transformTo(
  from: VarValue,
  toPath: readonly SubGraph[],
): Map<number, TypedValue> | undefined {
  const vals = from.vals;
  if (toPath.length < from.path.length) return vals;
  let idx = 0;
  for (; idx < from.path.length; idx++) if (from.path[idx] !== toPath[idx]) return vals;
  if (vals === undefined || vals.size === 0) return vals;
  let cur = vals;
  for (; idx < toPath.length; idx++) {
    if (idx === 0) continue;
    const node = toPath[idx];
    const next = new Map<number, TypedValue>();
    for (let i = 0; i < node.rows.length; i++) {
      const v = cur.get(node.src[i]);
      if (v === undefined) continue;
      if (v.type !== "int" && v.type !== "float")
        throw new DgraphError("Encountered non int/float type for summing");
      const row = node.rows[i];
      for (let j = 0; j < row.length; j++) {
        const prev = next.get(row[j]);
        next.set(
          row[j],
          prev !== undefined && prev.type === v.type
            ? { type: v.type, value: (prev.value as number) + (v.value as number) }
            : v,
        );
      }
    }
    cur = next;
  }
  return cur;
}

/**
 * Computes aggregations, math and `val(x)` nodes once their block's variables exist (Dgraph's
 * populatePostAggregation / valueVarAggregation), bottom-up.
 */
export function populatePostAggregation(
  store: VarStore,
  sg: SubGraph,
  path: SubGraph[],
  parent: SubGraph | undefined,
): void {
  for (const child of sg.children) {
    path.push(sg);
    populatePostAggregation(store, child, path, sg);
    path.pop();
  }
  if (sg.groupBy !== undefined) {
    processGroupBy(store, sg, path);
    return;
  }
  if (parent === undefined || parent.groupBy !== undefined) return;
  switch (sg.kind) {
    case "aggregate": {
      const mp = parent.isEmptyBlock
        ? aggregateWhole(sg.aggFn!, store.get(sg.varName)?.vals)
        : aggregateLevel(store, sg, parent);
      if (sg.asVar !== undefined) {
        const it = store.get(sg.asVar) ?? emptyVar([...path]);
        store.set(sg.asVar, { ...it, vals: mp });
      }
      sg.uidToVal = mp;
      return;
    }
    case "math":
      evalMathNode(store, sg, path);
      return;
    case "valueVar":
      sg.uidToVal = store.get(sg.varName)?.vals ?? new Map();
      return;
    default:
      return;
  }
}

function evalMathNode(store: VarStore, sg: SubGraph, path: readonly SubGraph[]): void {
  const resolve = (name: string): MathValue | undefined => {
    const v = store.get(name);
    if (v === undefined) return undefined;
    const vals = transformTo(v, path);
    if (v.constant !== undefined && (vals === undefined || vals.size === 0)) {
      return { vals: undefined, constant: v.constant };
    }
    return vals === undefined ? undefined : { vals, constant: undefined };
  };
  const result = evalMath(sg.math!, resolve);
  let vals: Map<number, TypedValue>;
  if (result.vals !== undefined) {
    vals = result.vals;
    let hasInt = false;
    let hasFloat = false;
    for (const v of vals.values()) {
      if (v.type === "int") hasInt = true;
      else if (v.type === "float") hasFloat = true;
    }
    if (hasInt && hasFloat) {
      for (const [k, v] of vals) if (v.type === "int") vals.set(k, { type: "float", value: v.value });
    }
  } else {
    vals = new Map();
    for (let i = 0; i < sg.src.length; i++) vals.set(sg.src[i], result.constant!);
  }
  if (sg.asVar !== undefined) {
    const it = store.get(sg.asVar) ?? emptyVar([]);
    store.set(sg.asVar, { ...it, vals, path: [...path] });
  }
  sg.uidToVal = vals;
}

/** The variables of a finished query, as upserts consume them. */
export function exposeVars(store: VarStore): {
  uids: Map<string, Float64Array>;
  values: Map<string, Map<number, TypedValue>>;
} {
  const uids = new Map<string, Float64Array>();
  const values = new Map<string, Map<number, TypedValue>>();
  for (const [name, v] of store) {
    if (v.uids !== undefined) uids.set(name, v.uids);
    if (v.vals !== undefined && (v.uids === undefined || v.vals.size > 0)) values.set(name, v.vals);
  }
  return { uids, values };
}
