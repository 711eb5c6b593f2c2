/**
 * `@facets` on edges and values (Dgraph's facetsMatrix / attachFacets): which facets are output and
 * under which keys (`pred|key`, or an alias), facet filters `@facets(eq(k, v))`, facet ordering and
 * facet variables.
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import type { UidList } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { FacetOrder, FacetsDirective, FilterTree } from "../dql/ast.ts";
import { termStrings } from "../tokenizer/term.ts";
import { convertFunctionArg } from "../types/convert.ts";
import type { ExecContext } from "./exec-context.ts";
import { paginate } from "./ordering.ts";
import { goKey } from "./output/go-format.ts";
import { valueJson } from "./output/value-json.ts";
import type { EdgeFacets } from "./subgraph.ts";
import { compareTyped, compareVals } from "./value-compare.ts";

/** A facet as a typed value. */
export function facetValue(f: Facet): TypedValue {
  return { type: f.type, value: f.value };
}

/** The facets a directive asks for, sorted by key, with their output names. */
export function selectFacets(
  facets: readonly Facet[] | undefined,
  d: FacetsDirective,
  fieldName: string,
): { name: string; value: TypedValue }[] {
  if (facets === undefined || facets.length === 0) return [];
  const out: { key: string; name: string; value: TypedValue }[] = [];
  for (const f of facets) {
    if (d.all) {
      out.push({ key: f.key, name: `${fieldName}|${f.key}`, value: facetValue(f) });
      continue;
    }
    const want = d.keys.find((k) => k.key === f.key);
    if (want === undefined) continue;
    out.push({ key: f.key, name: want.alias ?? `${fieldName}|${f.key}`, value: facetValue(f) });
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out;
}

/** `,"pred|k":v...` for the facets of one edge or value ("" when none). */
export function facetFieldsJson(
  facets: readonly Facet[] | undefined,
  d: FacetsDirective,
  fieldName: string,
): string {
  let out = "";
  for (const f of selectFacets(facets, d, fieldName)) {
    const j = valueJson(f.value);
    if (j !== undefined) out += `,${goKey(f.name)}:${j}`;
  }
  return out;
}

/** Facets of every (parent, child) edge in the rows. */
export function loadEdgeFacets(
  ctx: ExecContext,
  attr: string,
  reverse: boolean,
  src: UidList,
  rows: readonly UidList[],
): EdgeFacets {
  const out: EdgeFacets = new Map();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row.length === 0) continue;
    const m = new Map<number, Facet[]>();
    for (let j = 0; j < row.length; j++) {
      const f = reverse
        ? ctx.reader.edgeFacets(attr, row[j], src[i])
        : ctx.reader.edgeFacets(attr, src[i], row[j]);
      if (f !== undefined && f.length > 0) m.set(row[j], f);
    }
    out.set(src[i], m);
  }
  return out;
}

/** Dgraph's applyFacetsTree: does an edge's facet set pass a `@facets(...)` filter? */
export function facetsPass(tree: FilterTree, facets: readonly Facet[] | undefined): boolean {
  switch (tree.kind) {
    case "FilterAnd":
      return tree.operands.every((t) => facetsPass(t, facets));
    case "FilterOr":
      return tree.operands.some((t) => facetsPass(t, facets));
    case "FilterNot":
      return !facetsPass(tree.operand, facets);
    case "FilterFunction": {
      const fn = tree.func;
      const attr = fn.attr;
      if (attr === undefined || attr.kind !== "PredicateAttr") {
        throw new DgraphError(`Fn ${fn.name} not supported in facets filtering.`);
      }
      const args = fn.args.filter((a) => a.kind === "LiteralArg");
      if (args.length !== 1)
        throw new DgraphError(`One argument expected in ${fn.name}, but got ${args.length}.`);
      const arg = args[0].kind === "LiteralArg" ? args[0].value : "";
      const f = facets?.find((x) => x.key === attr.predicate);
      if (f === undefined) return false;
      switch (fn.name) {
        case "eq":
        case "le":
        case "lt":
        case "ge":
        case "gt": {
          let v: TypedValue;
          try {
            v = convertFunctionArg(arg, f.type);
          } catch {
            return false;
          }
          return compareVals(fn.name, facetValue(f), v);
        }
        case "allofterms":
        case "anyofterms": {
          if (f.type !== "string") return false;
          const have = new Set(termStrings(String(f.value)));
          const want = termStrings(arg);
          return fn.name === "allofterms" ? want.every((w) => have.has(w)) : want.some((w) => have.has(w));
        }
        default:
          throw new DgraphError(`Fn ${fn.name} not supported in facets filtering.`);
      }
    }
  }
}

/** `@facets(orderasc: k, ...)`: rows sorted by edge facets (edges without one last), then paginated. */
export function orderRowsByFacet(
  rows: UidList[],
  src: UidList,
  facets: EdgeFacets,
  orders: readonly FacetOrder[],
  first: number,
  offset: number,
): UidList[] {
  return rows.map((row, i) => {
    const m = facets.get(src[i]);
    const keyed = Array.from(row, (uid) => {
      const fs = m?.get(uid);
      return { uid, fs: orders.map((o) => fs?.find((x) => x.key === o.key)) };
    });
    keyed.sort((a, b) => {
      for (let k = 0; k < orders.length; k++) {
        const x = a.fs[k];
        const y = b.fs[k];
        if (x === undefined) {
          if (y === undefined) continue;
          return 1;
        }
        if (y === undefined) return -1;
        const c = compareTyped(facetValue(x), facetValue(y));
        if (c !== 0) return orders[k].desc ? -c : c;
      }
      return a.uid - b.uid;
    });
    return paginate(
      Float64Array.from(keyed, (k) => k.uid),
      first,
      offset,
    );
  });
}
