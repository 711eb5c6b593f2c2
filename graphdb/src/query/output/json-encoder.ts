/**
 * The `data` object of a query result as Dgraph's fastJson encoder writes it, built directly as text
 * (Dgraph's outputnode.go preTraverse): one array per block, keys in selection order, values
 * Go-formatted; nodes whose selection yields nothing are dropped; `count(uid)` is its own element.
 *
 * A node reached from several parents at one level is written under each of them, as Dgraph does, so
 * the text can grow with the number of paths rather than of nodes (a ring of diamonds under @recurse
 * doubles it at every level). Such a level remembers each node's text and reuses it: V8 concatenates
 * strings without copying them, so building stays proportional to the distinct nodes, and since a
 * string's length is known without flattening it, the text is measured as it grows (`budget.written`)
 * and an oversized result is refused in milliseconds, before it fills the heap.
 */
import { DgraphError } from "../../core/errors.ts";
import type { UidList, ValuePosting } from "../../core/graph-reader.ts";
import type { TypedValue } from "../../core/scalar.ts";
import { indexOfUid } from "../../posting/uid-algebra.ts";
import type { Steps } from "../exec-context.ts";
import { facetFieldsJson, selectFacets } from "../facets.ts";
import { isAllLangs } from "../lang-select.ts";
import { collectEntries, entriesJson, normalizeEntries } from "../normalize.ts";
import type { QueryBudget } from "../query-budget.ts";
import type { GroupResult, SubGraph } from "../subgraph.ts";
import {
  checkPwdFieldName,
  countFieldName,
  countUidElements,
  internalFieldName,
  newReflexStack,
  type ReflexStack,
  valueFieldName,
} from "./field-names.ts";
import { goKey, uidJson } from "./go-format.ts";
import { valueJson } from "./value-json.ts";

/** Encodes the fields of one node; "" when the node has none (it is then dropped). */
export function encodeFields(
  sg: SubGraph,
  uid: number,
  reflex: ReflexStack | undefined,
  budget: QueryBudget,
): string {
  if (sg.ignoreReflex && reflex !== undefined) {
    if (reflex.has(uid)) return "";
    reflex.uids.push(uid);
  }
  budget.tick();
  let out = "";
  let hasUid = false;
  const children = sg.children;
  let lastSrc: UidList | undefined;
  let idx = -1;
  for (let c = 0; c < children.length; c++) {
    const pc = children[c];
    const kind = pc.kind;
    if (kind === "countUid") continue;
    if (kind === "valueVar" || kind === "aggregate" || kind === "math") {
      if (pc.normalize && pc.alias === undefined) continue;
      const v = pc.uidToVal?.get(uid);
      if (v === undefined) continue;
      const j = valueJson(v);
      if (j === undefined) continue;
      const field = `${goKey(internalFieldName(pc))}:${j}`;
      out += out === "" ? field : `,${field}`;
      continue;
    }
    if (pc.src !== lastSrc) {
      lastSrc = pc.src;
      idx = indexOfUid(pc.src, uid);
    }
    if (idx < 0) continue;
    let part: string;
    if (pc.groupBy !== undefined) {
      const groups = groupsJson(pc.groupResults?.[idx]);
      if (groups === "") continue;
      part = `${goKey(pc.fieldName())}:[${groups}]`;
      out += out === "" ? part : `,${part}`;
      continue;
    }
    if (pc.ignoreResult) continue;
    switch (kind) {
      case "uid": {
        if ((pc.alias ?? "uid") === "uid") hasUid = true;
        part = `${(pc.jsonKey ??= goKey(pc.alias ?? "uid"))}:${uidJson(uid)}`;
        break;
      }
      case "count":
        if (pc.counts === undefined || (pc.normalize && pc.alias === undefined)) continue;
        part = `${goKey(countFieldName(pc))}:${pc.counts[idx]}`;
        break;
      case "checkpwd":
        part = `${goKey(checkPwdFieldName(pc))}:${pc.checks !== undefined && pc.checks[idx] === 2}`;
        break;
      default:
        part = pc.isUidPredicate ? edgeField(pc, idx, reflex, budget) : valueField(pc, idx);
        if (part === "") continue;
    }
    out += out === "" ? part : `,${part}`;
  }
  if (sg.ignoreReflex && reflex !== undefined) reflex.uids.pop();
  if (sg.debug && out !== "" && !hasUid) out += `,"uid":${uidJson(uid)}`;
  return out;
}

/** Whether `countUidElements` writes anything for this level. */
function hasCountUidOutput(sg: SubGraph): boolean {
  for (const c of sg.children)
    if (c.kind === "countUid" && (c.alias !== undefined || !c.normalize)) return true;
  return false;
}

/** A uid edge: child objects (non-empty ones), then the level's `count(uid)` elements. */
function edgeField(pc: SubGraph, idx: number, reflex: ReflexStack | undefined, budget: QueryBudget): string {
  const row = pc.rows[idx];
  if (row === undefined || row.length === 0) return "";
  let items = "";
  let n = 0;
  // Nodes written more than once are written once and remembered (see the file comment); a node's text
  // depends on its ancestors only under @ignorereflex.
  const memo =
    !pc.normalize && !pc.ignoreReflex && pc.nodesRepeat() ? (pc.encodedNodes ??= new Map()) : undefined;
  for (let i = 0; i < row.length; i++) {
    const child = row[i];
    if (pc.normalize) {
      for (const flat of normalizeEntries(collectEntries(pc, child, reflex, budget), budget)) {
        const obj = `{${entriesJson(flat)}}`;
        items += n++ === 0 ? obj : `,${obj}`;
        budget.written(items.length);
      }
      continue;
    }
    let body: string;
    if (memo === undefined) {
      body = encodeFields(pc, child, reflex, budget);
    } else {
      const seen = memo.get(child);
      if (seen === undefined) {
        body = encodeFields(pc, child, reflex, budget);
        memo.set(child, body);
      } else {
        body = seen;
      }
    }
    if (body === "" && !pc.keepEmptyNodes) continue;
    if (pc.facets !== undefined) {
      body += facetFieldsJson(pc.edgeFacets?.get(pc.src[idx])?.get(child), pc.facets, pc.fieldName());
    }
    items += `${n++ === 0 ? "" : ","}{${body}}`;
    budget.written(items.length);
  }
  pc.countUidOutput ??= hasCountUidOutput(pc);
  if (pc.countUidOutput) {
    const counts = countUidElements(pc, row.length);
    items += n === 0 ? counts : `,${counts}`;
    n += 2;
  }
  if (n === 0) return "";
  const key = (pc.jsonKey ??= goKey(pc.fieldName()));
  if (n === 1 && !pc.list && !pc.normalize) return `${key}:${items}`;
  return `${key}:[${items}]`;
}

/** A scalar field: one value, or an array for list predicates; `@*` gives one key per language. */
function valueField(pc: SubGraph, idx: number): string {
  const vals = pc.values[idx];
  if (vals === undefined || vals.length === 0) return "";
  const type = pc.schemaType;
  const facets = pc.facets !== undefined ? valueFacetsJson(pc, vals) : "";
  if (pc.expandAll || isAllLangs(pc.langs)) return joinParts(facets, allLangsField(pc, vals, type));
  if (pc.normalize && pc.alias === undefined) return facets;
  const key = (pc.jsonKey ??= goKey(valueFieldName(pc)));
  const asList = pc.list && pc.langs.length === 0;
  if (vals.length === 1 && !asList) {
    const j = valueJson(vals[0].value, type);
    return joinParts(facets, j === undefined ? "" : `${key}:${j}`);
  }
  let items = "";
  let n = 0;
  for (let i = 0; i < vals.length; i++) {
    const j = valueJson(vals[i].value, type);
    if (j === undefined) continue;
    items += n++ === 0 ? j : `,${j}`;
  }
  if (n === 0) return facets;
  return joinParts(facets, n === 1 && !asList ? `${key}:${items}` : `${key}:[${items}]`);
}

function joinParts(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return `${a},${b}`;
}

/**
 * Facets of values, output before the value: `"name|k":v` for a single value, and for list values one
 * object per facet key indexed by value position (`"tags|k":{"0":v0,"2":v2}`).
 */
function valueFacetsJson(pc: SubGraph, vals: readonly ValuePosting[]): string {
  const d = pc.facets!;
  const field = valueFieldName(pc);
  if (!pc.list) {
    let out = "";
    for (const v of vals) out += facetFieldsJson(v.facets, d, field);
    return out.slice(1);
  }
  const groups = new Map<string, string>();
  for (let i = 0; i < vals.length; i++) {
    for (const f of selectFacets(vals[i].facets, d, field)) {
      const j = valueJson(f.value);
      if (j === undefined) continue;
      const prev = groups.get(f.name);
      groups.set(f.name, `${prev === undefined ? "" : `${prev},`}"${i}":${j}`);
    }
  }
  let out = "";
  for (const [name, body] of groups) out += `${out === "" ? "" : ","}${goKey(name)}:{${body}}`;
  return out;
}

function allLangsField(
  pc: SubGraph,
  vals: readonly { value: TypedValue; lang: string }[],
  type: SubGraph["schemaType"],
): string {
  const base = valueFieldName(pc);
  // Untagged values first in Dgraph's posting order? Tagged values sort before the untagged one there.
  const groups = new Map<string, { list: boolean; items: string[] }>();
  for (const v of vals) {
    const j = valueJson(v.value, type);
    if (j === undefined) continue;
    const key = v.lang === "" ? base : `${base}@${v.lang}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { list: pc.list && v.lang === "", items: [] };
      groups.set(key, g);
    }
    g.items.push(j);
  }
  let out = "";
  for (const [key, g] of groups) {
    const text = g.items.length === 1 && !g.list ? g.items[0] : `[${g.items.join(",")}]`;
    out += `${out === "" ? "" : ","}${goKey(key)}:${text}`;
  }
  return out;
}

/** The elements of an empty block (`total() { sum(val(x)) }`): one object per aggregate. */
function aggregationElements(sg: SubGraph): string {
  let out = "";
  for (const child of sg.children) {
    const v = child.uidToVal?.get(0);
    if (v === undefined && child.kind !== "valueVar" && child.kind !== "aggregate") {
      throw new DgraphError("Only aggregated variables allowed within empty block.");
    }
    if (child.normalize && child.alias === undefined) continue;
    const j = v === undefined ? "null" : (valueJson(v) ?? "null");
    out += `${out === "" ? "" : ","}{${goKey(internalFieldName(child))}:${j}}`;
  }
  return out;
}

/** `{"@groupby":[{keys..., aggregates...}, ...]}`, or "" without groups (Dgraph then writes nothing). */
function groupsJson(groups: readonly GroupResult[] | undefined): string {
  if (groups === undefined || groups.length === 0) return "";
  let out = "";
  for (const g of groups) {
    let body = "";
    for (const p of [...g.keys, ...g.aggregates]) {
      const j = valueJson(p.key);
      if (j !== undefined) body += `${body === "" ? "" : ","}${goKey(p.attr)}:${j}`;
    }
    out += `${out === "" ? "" : ","}{${body}}`;
  }
  return `{"@groupby":[${out}]}`;
}

/** Root nodes written between two looks at the time slice. */
const ROOTS_PER_STEP = 64;

/**
 * One block's array elements; undefined when the block writes no key at all (empty @groupby). Pauses
 * between root nodes when the query's time slice is used.
 */
function* blockElements(sg: SubGraph, budget: QueryBudget): Steps<string | undefined> {
  if (sg.isEmptyBlock) return aggregationElements(sg);
  if (sg.groupBy !== undefined) {
    const groups = groupsJson(sg.groupResults?.[0]);
    return groups === "" ? undefined : groups;
  }
  const row = sg.rows[0];
  if (row === undefined) return "";
  let out = countUidElements(sg, sg.dest.length);
  // The text of the slices before this one, each made flat as its slice ends: a large answer is then a
  // few flat pieces joined in one copy, rather than one string of a million parts that the first reader
  // of its bytes would have to flatten, holding the thread.
  const done: string[] = [];
  let doneLength = 0;
  const reflex = sg.ignoreReflex ? newReflexStack() : undefined;
  const dest = sg.dest;
  const sameAsDest = row === dest;
  for (let i = 0; i < row.length; i++) {
    if (i % ROOTS_PER_STEP === ROOTS_PER_STEP - 1 && budget.sliceUsed()) {
      if (out.length >= FLAT_PIECE_MIN) {
        done.push(flatten(out));
        doneLength += out.length;
        out = "";
      }
      yield;
    }
    const uid = row[i];
    if (!sameAsDest && indexOfUid(dest, uid) < 0) continue;
    const first = out === "" && doneLength === 0;
    if (sg.normalize) {
      for (const flat of normalizeEntries(collectEntries(sg, uid, reflex, budget), budget)) {
        const obj = `{${entriesJson(flat)}}`;
        out += out === "" && doneLength === 0 ? obj : `,${obj}`;
        budget.written(doneLength + out.length);
      }
      continue;
    }
    const body = encodeFields(sg, uid, reflex, budget);
    if (body === "" && !sg.keepEmptyNodes) continue;
    out += first ? `{${body}}` : `,{${body}}`;
    budget.written(doneLength + out.length);
  }
  if (done.length === 0) return out;
  done.push(out);
  return done.join("");
}

/** Pieces of a block's text shorter than this are left to grow (joining many small ones costs more). */
const FLAT_PIECE_MIN = 64 * 1024;

/**
 * The same text, made flat now: V8 keeps concatenated strings as trees of their parts and flattens one
 * when it is first read by index. Done as each slice of a large answer ends, the cost is spread out.
 */
function flatten(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * The `data` object: `{"q":[...],...}` for the non-var blocks in query order; `{}` when there are none.
 * Fails with Dgraph's "estimated response size" error once the text would pass the budget.
 */
export function* encodeJson(blocks: readonly SubGraph[], budget: QueryBudget): Steps<string> {
  let out = "";
  for (const sg of blocks) {
    if (sg.isVarBlock) continue;
    const elements = yield* blockElements(sg, budget);
    if (elements === undefined) continue;
    out += `${out === "" ? "" : ","}${goKey(sg.blockName)}:[${elements}]`;
    budget.written(out.length);
  }
  return `{${out}}`;
}
