/**
 * `@normalize` (Dgraph's encoder normalize): only aliased fields are kept (plus `uid`), nested nodes are
 * flattened into their parent, one flat object per combination of children (cross product), keys
 * sorted by name. A cross product is bounded by Dgraph's normalize-node limit (per merge, as Dgraph
 * counts); what the flattening holds is charged to the query's response budget.
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList } from "../core/graph-reader.ts";
import { indexOfUid } from "../posting/uid-list.ts";
import { compareUtf8 } from "../types/value-compare.ts";
import { selectFacets } from "./facets.ts";
import { isAllLangs } from "./lang-select.ts";
import {
  checkPwdFieldName,
  countFieldName,
  internalFieldName,
  type ReflexStack,
  valueFieldName,
} from "./output/field-names.ts";
import { goKey, uidJson } from "./output/go-format.ts";
import { valueJson } from "./output/value-json.ts";
import type { QueryBudget } from "./query-budget.ts";
import type { Entry, SubGraph } from "./subgraph.ts";

/**
 * Bytes charged for holding a flattened object and each of its entries (references: the text is charged
 * when written). Objects count even when empty: the normalize-node limit counts entries only, as Dgraph's,
 * and a level of unaliased edges flattens into empty objects, twice as many per level of a ring of diamonds.
 */
const OBJECT_BYTES = 32;
const ENTRY_BYTES = 8;

function pushObjects(out: Entry[], key: string, objects: Entry[][]): void {
  if (objects.length === 0) return;
  const last = out[out.length - 1];
  if (last !== undefined && last.objects !== undefined && last.key === key) last.objects.push(...objects);
  else out.push({ key, objects });
}

/** The fields of a node inside a normalized subtree, nested edges already flattened. */
export function collectEntries(
  sg: SubGraph,
  uid: number,
  reflex: ReflexStack | undefined,
  budget: QueryBudget,
): Entry[] {
  budget.tick();
  if (sg.ignoreReflex && reflex !== undefined) {
    if (reflex.has(uid)) return [];
    reflex.uids.push(uid);
  }
  const out: Entry[] = [];
  let hasUid = false;
  let lastSrc: UidList | undefined;
  let idx = -1;
  for (const pc of sg.children) {
    const kind = pc.kind;
    if (kind === "countUid") continue;
    if (kind === "valueVar" || kind === "aggregate" || kind === "math") {
      if (pc.alias === undefined) continue;
      const v = pc.uidToVal?.get(uid);
      const j = v === undefined ? undefined : valueJson(v);
      if (j !== undefined) out.push({ key: internalFieldName(pc), json: j });
      continue;
    }
    if (pc.src !== lastSrc) {
      lastSrc = pc.src;
      idx = indexOfUid(pc.src, uid);
    }
    if (idx < 0 || pc.ignoreResult || pc.groupBy !== undefined) continue;
    switch (kind) {
      case "uid": {
        const key = pc.alias ?? "uid";
        if (key === "uid") hasUid = true;
        out.push({ key, json: uidJson(uid) });
        break;
      }
      case "count":
        if (pc.counts !== undefined && pc.alias !== undefined)
          out.push({ key: countFieldName(pc), json: String(pc.counts[idx]) });
        break;
      case "checkpwd":
        out.push({
          key: checkPwdFieldName(pc),
          json: String(pc.checks !== undefined && pc.checks[idx] === 2),
        });
        break;
      default:
        if (pc.isUidPredicate) collectEdge(out, pc, idx, reflex, budget);
        else collectValues(out, pc, idx);
    }
  }
  if (sg.ignoreReflex && reflex !== undefined) reflex.uids.pop();
  if (sg.debug && out.length > 0 && !hasUid) out.push({ key: "uid", json: uidJson(uid) });
  return out;
}

function collectEdge(
  out: Entry[],
  pc: SubGraph,
  idx: number,
  reflex: ReflexStack | undefined,
  budget: QueryBudget,
): void {
  const row = pc.rows[idx];
  if (row === undefined || row.length === 0) return;
  const key = pc.fieldName();
  const objects: Entry[][] = [];
  // A node reached from several parents is collected once (its entries depend on its ancestors only
  // under @ignorereflex): the walk stays proportional to the distinct nodes, as in json-encoder.ts.
  const memo = !pc.ignoreReflex && pc.nodesRepeat() ? (pc.collectedNodes ??= new Map()) : undefined;
  for (let i = 0; i < row.length; i++) {
    const child = row[i];
    let entries = memo?.get(child);
    if (entries === undefined) {
      entries = collectEntries(pc, child, reflex, budget);
      memo?.set(child, entries);
    }
    if (entries.length === 0) continue;
    if (pc.facets !== undefined) {
      const own = [...entries];
      for (const f of selectFacets(pc.edgeFacets?.get(pc.src[idx])?.get(child), pc.facets, key)) {
        const j = valueJson(f.value);
        if (j !== undefined) own.push({ key: f.name, json: j });
      }
      entries = own;
    }
    for (const flat of normalizeEntries(entries, budget)) objects.push(flat);
  }
  for (const c of pc.children) {
    if (c.kind === "countUid" && c.alias !== undefined)
      objects.push([{ key: c.alias, json: String(row.length) }]);
  }
  pushObjects(out, key, objects);
}

function collectValues(out: Entry[], pc: SubGraph, idx: number): void {
  const vals = pc.values[idx];
  if (vals === undefined || vals.length === 0) return;
  const type = pc.schemaType;
  if (pc.facets !== undefined && !pc.list) {
    for (const v of vals) {
      for (const f of selectFacets(v.facets, pc.facets, valueFieldName(pc))) {
        const j = valueJson(f.value);
        if (j !== undefined) out.push({ key: f.name, json: j });
      }
    }
  }
  if (pc.expandAll || isAllLangs(pc.langs)) {
    const base = valueFieldName(pc);
    for (const v of vals) {
      const j = valueJson(v.value, type);
      if (j !== undefined) out.push({ key: v.lang === "" ? base : `${base}@${v.lang}`, json: j });
    }
    return;
  }
  if (pc.alias === undefined) return;
  const key = valueFieldName(pc);
  const asList = pc.list && pc.langs.length === 0;
  const items: string[] = [];
  for (const v of vals) {
    const j = valueJson(v.value, type);
    if (j !== undefined) items.push(j);
  }
  if (items.length === 0) return;
  out.push({ key, json: items.length === 1 && !asList ? items[0] : `[${items.join(",")}]` });
}

/**
 * Flattens one node: its scalars crossed with every group of nested objects; keys sorted. Each merge
 * (one group crossed with the objects so far) may produce at most `normalizeNodes` entries, Dgraph's
 * normalize-node limit.
 */
export function normalizeEntries(entries: readonly Entry[], budget: QueryBudget): Entry[][] {
  let hasObjects = false;
  for (const e of entries) if (e.objects !== undefined) hasObjects = true;
  let parents: (readonly Entry[])[];
  if (!hasObjects) {
    parents = [entries];
    budget.addResponseBytes(OBJECT_BYTES + entries.length * ENTRY_BYTES);
  } else {
    parents = [entries.filter((e) => e.objects === undefined)];
    const limit = budget.limits.normalizeNodes;
    for (const e of entries) {
      if (e.objects === undefined) continue;
      const merged: Entry[][] = [];
      let count = 0;
      for (const pa of parents) {
        for (const ca of e.objects) {
          count += pa.length + ca.length;
          if (count > limit) {
            throw new DgraphError("Couldn't evaluate @normalize directive - too many results");
          }
          merged.push([...pa, ...ca]);
          budget.addResponseBytes(OBJECT_BYTES + (pa.length + ca.length) * ENTRY_BYTES);
        }
      }
      budget.tick(count + merged.length);
      parents = merged;
    }
  }
  return parents.map(tidy);
}

/** Sorts a flat object's keys (stable) and keeps a single `uid`. */
function tidy(flat: readonly Entry[]): Entry[] {
  const sorted = flat.length > 1 ? [...flat].sort((a, b) => compareUtf8(a.key, b.key)) : flat;
  let seenUid = false;
  return sorted.filter((e) => {
    if (e.key !== "uid") return true;
    if (seenUid) return false;
    seenUid = true;
    return true;
  });
}

/** `"k":v,...` of a flat object. */
export function entriesJson(flat: readonly Entry[]): string {
  let out = "";
  for (const e of flat) out += `${out === "" ? "" : ","}${goKey(e.key)}:${e.json ?? "null"}`;
  return out;
}
