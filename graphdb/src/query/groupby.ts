/**
 * `@groupby(p1, p2)` (Dgraph's query/groupby.go): a level's nodes are grouped by the values (or uid
 * targets) of the grouping predicates, per parent row; each group carries its keys, `count(uid)` and
 * `min/max/sum/avg(pred)` aggregates. Groups are ordered by size, then by key. A variable on an
 * aggregate is keyed by the group's uid when grouping by one uid predicate, else by member uid.
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import { intersect, sortedUids } from "../posting/uid-algebra.ts";
import { containsUid, indexOfUid } from "../posting/uid-list.ts";
import { Aggregator } from "./aggregation.ts";
import type { GroupPair, GroupResult, SubGraph } from "./subgraph.ts";
import { lessTyped } from "./value-compare.ts";
import type { VarStore } from "./var-store.ts";

/** Distinct values of one grouping predicate, each with the member uids. */
interface Dedup {
  attr: string;
  elements: Map<string, { key: TypedValue; uids: number[] }>;
}

function keyString(v: TypedValue): string {
  return v.type === "uid"
    ? `u${v.value}`
    : `${v.type}:${typeof v.value === "object" ? JSON.stringify(v.value) : v.value}`;
}

function addValue(groups: Dedup[], attr: string, value: TypedValue, uid: number): void {
  let cur = groups.find((g) => g.attr === attr);
  if (cur === undefined) {
    cur = { attr, elements: new Map() };
    groups.push(cur);
  }
  const k = keyString(value);
  let el = cur.elements.get(k);
  if (el === undefined) {
    el = { key: value, uids: [] };
    cur.elements.set(k, el);
  }
  el.uids.push(uid);
}

/** Dedup entries of the grouping children for the member uids in `row` (all when undefined). */
function dedupFor(sg: SubGraph, row: UidList | undefined): Dedup[] {
  const groups: Dedup[] = [];
  for (const child of sg.children) {
    if (!child.ignoreResult) continue;
    const attr = child.alias ?? child.attr;
    const src = child.src;
    if (child.isUidPredicate) {
      for (let i = 0; i < child.rows.length; i++) {
        if (row !== undefined && !containsUid(row, src[i])) continue;
        for (const t of child.rows[i]) addValue(groups, attr, { type: "uid", value: t }, src[i]);
      }
    } else {
      for (let i = 0; i < child.values.length; i++) {
        const vals = child.values[i];
        if (vals.length === 0 || (row !== undefined && !containsUid(row, src[i]))) continue;
        addValue(groups, attr, vals[0].value, src[i]);
      }
    }
  }
  return groups;
}

/** Every non-empty combination of one value per grouping predicate (Dgraph's formGroups). */
function formGroups(groups: Dedup[]): GroupResult[] {
  const out: GroupResult[] = [];
  if (groups.length === 0) return out;
  const walk = (level: number, cur: UidList, keys: GroupPair[]) => {
    if (level === groups.length) {
      out.push({ keys: [...keys], aggregates: [], uids: cur });
      return;
    }
    for (const el of groups[level].elements.values()) {
      const members = sortedUids(el.uids);
      const next = level === 0 ? members : intersect(cur, members);
      if (next.length === 0) continue;
      keys.push({ attr: groups[level].attr, key: el.key });
      walk(level + 1, next, keys);
      keys.pop();
    }
  };
  walk(0, new Float64Array(0), []);
  return out;
}

/** Output key of a group aggregate. */
function aggregateName(child: SubGraph): string {
  if (child.alias !== undefined) return child.alias;
  return child.kind === "countUid" ? "count" : `${child.aggFn}(${child.attr})`;
}

function aggregate(grp: GroupResult, child: SubGraph): void {
  if (child.kind === "countUid") {
    grp.aggregates.push({ attr: aggregateName(child), key: { type: "int", value: grp.uids.length } });
    return;
  }
  if (child.kind === "count") throw new DgraphError("Only uid predicate is allowed in count within groupby");
  if (child.kind !== "aggregate") return;
  const ag = new Aggregator(child.aggFn!);
  for (const uid of grp.uids) {
    const idx = indexOfUid(child.src, uid);
    if (idx < 0) continue;
    const vals = child.values[idx];
    if (vals === undefined || vals.length === 0) continue;
    ag.apply(vals[0].value);
  }
  const v = ag.value();
  if (v !== undefined) grp.aggregates.push({ attr: aggregateName(child), key: v });
}

function compareKeys(a: TypedValue, b: TypedValue): number {
  if (lessTyped(a, b) === true) return -1;
  if (lessTyped(b, a) === true) return 1;
  return 0;
}

/** Dgraph's groupLess. */
function groupOrder(a: GroupResult, b: GroupResult): number {
  if (a.uids.length !== b.uids.length) return a.uids.length - b.uids.length;
  if (a.keys.length !== b.keys.length) return a.keys.length - b.keys.length;
  if (a.aggregates.length !== b.aggregates.length) return a.aggregates.length - b.aggregates.length;
  for (let i = 0; i < a.keys.length; i++) {
    const c = compareKeys(a.keys[i].key, b.keys[i].key);
    if (c !== 0) return c;
  }
  for (let i = 0; i < a.aggregates.length; i++) {
    const c = compareKeys(a.aggregates[i].key, b.aggregates[i].key);
    if (c !== 0) return c;
  }
  return 0;
}

function groupsFor(sg: SubGraph, row: UidList | undefined): GroupResult[] {
  const groups = formGroups(dedupFor(sg, row));
  for (const child of sg.children) {
    if (child.ignoreResult) continue;
    for (const grp of groups) aggregate(grp, child);
  }
  return groups.sort(groupOrder);
}

/** Groups every row of a `@groupby` level and records the variables of its aggregates. */
export function processGroupBy(store: VarStore, sg: SubGraph, path: readonly SubGraph[]): void {
  sg.groupResults = sg.rows.map((row) => groupsFor(sg, row));
  if (!sg.children.some((c) => c.asVar !== undefined)) return;
  let pathNode: SubGraph | undefined;
  for (const c of sg.children) {
    if (!c.ignoreResult) continue;
    if (c.isUidPredicate) pathNode = c;
    else if (sg.kind !== "root")
      throw new DgraphError("Vars can be assigned only at root when grouped by Value");
  }
  const all = formGroups(dedupFor(sg, undefined));
  for (const child of sg.children) {
    if (child.ignoreResult) continue;
    for (const grp of all) aggregate(grp, child);
    if (child.asVar === undefined) continue;
    const vals = new Map<number, TypedValue>();
    for (const grp of all) {
      // Dgraph takes the group's last aggregate so far: this child's, when it produced one.
      const agg = grp.aggregates[grp.aggregates.length - 1];
      if (grp.keys.length === 0 || agg === undefined) continue;
      if (grp.keys.length === 1 && grp.keys[0].key.type === "uid")
        vals.set(grp.keys[0].key.value as number, agg.key);
      else for (const uid of grp.uids) vals.set(uid, agg.key);
    }
    store.set(child.asVar, {
      uids: undefined,
      vals,
      constant: undefined,
      path: pathNode === undefined ? [...path] : [...path, pathNode],
    });
  }
}
