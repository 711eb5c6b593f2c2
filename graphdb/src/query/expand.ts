/**
 * `expand(_all_)` / `expand(Type, ...)` (Dgraph's expandSubgraph): once a level's uids are known, each
 * expand selection becomes one predicate selection per field of the relevant types (the types of the
 * level's nodes for `_all_`), every language of values included. With a filter only uid predicates
 * are expanded.
 */
import { DgraphError } from "../core/errors.ts";
import type { ExecContext } from "./exec-context.ts";
import { copyChildren, SubGraph } from "./subgraph.ts";

/** Type names held by the nodes (their `dgraph.type` values). */
function nodeTypes(ctx: ExecContext, sg: SubGraph): string[] {
  if (sg.dest.length === 0 || ctx.reader.schema.predicate("dgraph.type") === undefined) return [];
  const seen = new Set<string>();
  for (const row of ctx.reader.valuesMany("dgraph.type", sg.dest)) {
    for (const v of row) seen.add(String(v.value.value));
  }
  return [...seen];
}

function predicatesOfTypes(ctx: ExecContext, types: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const name of types) {
    const t = ctx.reader.schema.type(name);
    if (t === undefined) continue;
    for (const f of t.fields) {
      if (seen.has(f)) continue;
      seen.add(f);
      out.push(f);
    }
  }
  return out;
}

/** Dgraph's isSimilar: an explicit sibling selection the expansion would repeat. */
function repeats(sibling: SubGraph, temp: SubGraph): boolean {
  if (sibling.kind !== "predicate" || sibling.attr !== temp.attr || sibling.reverse !== temp.reverse)
    return false;
  if (sibling.langs.length !== temp.langs.length) return false;
  for (let i = 0; i < sibling.langs.length; i++) if (sibling.langs[i] !== temp.langs[i]) return false;
  if (sibling.filter !== undefined) return temp.filter !== undefined;
  return true;
}

/** Replaces the expand selections of a level by the predicates they stand for. */
export function expandChildren(ctx: ExecContext, sg: SubGraph): void {
  let any = false;
  for (const c of sg.children) if (c.kind === "expand") any = true;
  if (!any) return;
  const out: SubGraph[] = [];
  for (const child of sg.children) {
    if (child.kind !== "expand") {
      out.push(child);
      continue;
    }
    const target = child.expandTarget!;
    let preds: string[];
    switch (target.kind) {
      case "ExpandAll":
        preds = predicatesOfTypes(ctx, nodeTypes(ctx, sg));
        break;
      case "ExpandTypes":
        preds = predicatesOfTypes(ctx, target.types);
        break;
      case "ExpandValueVar":
        throw new DgraphError("expand(val(x)) is not supported yet");
    }
    if (child.filter !== undefined) {
      preds = preds.filter((p) => p.startsWith("~") || ctx.reader.schema.predicate(p)?.type === "uid");
    }
    for (const pred of preds) {
      const temp = new SubGraph("predicate");
      temp.reverse = pred.startsWith("~");
      temp.attr = temp.reverse ? pred.slice(1) : pred;
      temp.first = child.first;
      temp.offset = child.offset;
      temp.after = child.after;
      temp.order = child.order;
      temp.filter = child.filter;
      temp.cascade = child.cascade;
      temp.cascadeFirst = child.cascadeFirst;
      temp.cascadeOffset = child.cascadeOffset;
      temp.normalize = child.normalize;
      temp.ignoreReflex = child.ignoreReflex;
      temp.debug = child.debug;
      temp.source = child.source;
      temp.expandAll = true;
      temp.facets = { all: true, keys: [], orders: [] };
      for (const sibling of sg.children) {
        if (repeats(sibling, temp)) {
          throw new DgraphError(`Repeated subgraph: [${sibling.attr}] while using expand()`);
        }
      }
      if (child.source !== undefined) copyChildren(temp, child.source.selections);
      out.push(temp);
    }
  }
  sg.children = out;
}
