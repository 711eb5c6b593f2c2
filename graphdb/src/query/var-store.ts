/**
 * Query variables as blocks define and read them (Dgraph's varMap): uid variables, value variables and
 * constants, with the path of the node that defined each. Computing them is `variables.ts`'s work; this
 * file is only their shape and their lookup, which every executor step reads.
 */
import type { UidList } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import { sortedUids, unionAll } from "../posting/uid-algebra.ts";
import type { SubGraph } from "./subgraph.ts";

export interface VarValue {
  /** Uid variable: its uids (sorted). */
  uids: UidList | undefined;
  /** Value variable: value per uid. */
  vals: Map<number, TypedValue> | undefined;
  /** `c as count(uid)`: a single number, used as a constant in math. */
  constant: TypedValue | undefined;
  /** Ancestors of the defining node, root first (Dgraph's path). */
  path: readonly SubGraph[];
}

export type VarStore = Map<string, VarValue>;

/** Variables visible to a level from its own block's ancestors (Dgraph's ParentVars). */
export type VarScope = ReadonlyMap<string, VarValue>;

export const EMPTY_SCOPE: VarScope = new Map();

/** Uids of variables (uid vars; value vars give their keys), merged. */
export function uidsOfVars(names: readonly string[], scope: VarScope, store: VarStore): UidList {
  const lists: UidList[] = [];
  for (const name of names) {
    const v = scope.get(name) ?? store.get(name);
    if (v === undefined) continue;
    if (v.uids !== undefined) lists.push(v.uids);
    else if (v.vals !== undefined && v.vals.size > 0) lists.push(sortedUids([...v.vals.keys()]));
  }
  return unionAll(lists);
}
