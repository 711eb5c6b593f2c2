/** Output keys of selections (Dgraph's fieldName / aggWithVarFieldName) and shared encoder helpers. */

import { isAllLangs } from "../lang-select.ts";
import type { SubGraph } from "../subgraph.ts";
import { goKey } from "./go-format.ts";

/** Output key of an internal node (Dgraph's aggWithVarFieldName). */
export function internalFieldName(sg: SubGraph): string {
  if (sg.alias !== undefined) return sg.alias;
  switch (sg.kind) {
    case "aggregate":
      return `${sg.aggFn}(val(${sg.varName}))`;
    case "valueVar":
      return `val(${sg.varName})`;
    default:
      return `val(${sg.asVar ?? ""})`;
  }
}

/** Key of a value field: `name@en:fr` unless aliased (`@*` keeps the bare name). */
export function valueFieldName(sg: SubGraph): string {
  const base = sg.fieldName();
  if (sg.alias === undefined && sg.langs.length > 0 && !isAllLangs(sg.langs))
    return `${base}@${sg.langs.join(":")}`;
  return base;
}

/** Key of `count(pred)`. */
export function countFieldName(sg: SubGraph): string {
  return sg.alias ?? `count(${sg.reverse ? "~" : ""}${sg.attr})`;
}

/** Key of `checkpwd(pred, ...)`. */
export function checkPwdFieldName(sg: SubGraph): string {
  return sg.alias ?? `checkpwd(${sg.attr})`;
}

/** The `{"count": n}` elements of a level's `count(uid)` children (`,`-separated objects). */
export function countUidElements(sg: SubGraph, count: number): string {
  let out = "";
  for (const c of sg.children) {
    if (c.kind !== "countUid" || (c.alias === undefined && c.normalize)) continue;
    out += `${out === "" ? "" : ","}{${goKey(c.alias ?? "count")}:${count}}`;
  }
  return out;
}

/** Ancestor uids of the node being encoded, for `@ignorereflex`. */
export class ReflexStack {
  readonly uids: number[] = [];
  has(uid: number): boolean {
    return this.uids.includes(uid);
  }
}

export function newReflexStack(): ReflexStack {
  return new ReflexStack();
}
