/**
 * `@recurse(depth: n, loop: false)` (Dgraph's query/recurse.go): the block's selections are applied again
 * at every level reached through its uid predicates, up to `depth` levels (unbounded without a depth).
 *
 * Without `loop`, an edge (predicate, from, to) is followed at most once in the whole query, as Dgraph's
 * reachMap does: a node's edges are all taken the first time it is expanded, so a cycle ends after one
 * round and the work is O(nodes + edges). A node reached again at a later level is written there as a
 * leaf (its edges are taken); one reached from several parents at the same level is written, edges and
 * all, under each (json-encoder.ts keeps that from costing more than once). With `loop: true` edges are
 * followed again at every level until `depth`.
 * Either way the edges followed count towards the query-edge limit, checked as each predicate's rows are
 * filtered rather than once per level, so one wide level cannot run far past it.
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList } from "../core/graph-reader.ts";
import { filterUids, unionAll } from "../posting/uid-algebra.ts";
import { checkDeadline, type ExecContext, type Steps } from "./exec-context.ts";
import { expandChildren } from "./expand.ts";
import { processChild, processRoot } from "./process-graph.ts";
import { cloneRequest, type SubGraph } from "./subgraph.ts";
import { EMPTY_SCOPE } from "./var-store.ts";

/** Edges already followed, per predicate and source uid (Dgraph's `attr|from|to` reachMap). */
class ReachedEdges {
  private readonly byAttr = new Map<string, Map<number, Set<number>>>();

  /** Keeps the edges of `from` not followed before, and records them as followed. */
  takeNew(attr: string, from: number, row: UidList): UidList {
    let byFrom = this.byAttr.get(attr);
    if (byFrom === undefined) this.byAttr.set(attr, (byFrom = new Map()));
    const seen = byFrom.get(from);
    if (seen === undefined) {
      // First time this node is expanded through `attr`: every edge is new (the common case).
      byFrom.set(from, new Set(row));
      return row;
    }
    return filterUids(row, (to) => {
      if (seen.has(to)) return false;
      seen.add(to);
      return true;
    });
  }
}

/** Hangs a fresh copy of the block's selections under `sg`, reading from its destination uids. */
function attachLevel(ctx: ExecContext, sg: SubGraph, templates: readonly SubGraph[]): SubGraph[] {
  sg.children = templates.map(cloneRequest);
  expandChildren(ctx, sg);
  for (const c of sg.children) c.src = sg.dest;
  return sg.children;
}

/** Runs a `@recurse` block. */
export function* processRecurse(ctx: ExecContext, root: SubGraph): Steps {
  const args = root.recurse!;
  let maxDepth = args.depth ?? 0;
  if (maxDepth === 0) {
    if (args.loop) throw new DgraphError("Depth must be > 0 when loop is true for recurse query");
    maxDepth = Number.POSITIVE_INFINITY;
  }
  for (const child of root.children) {
    if (child.children.length > 0) {
      throw new DgraphError("recurse queries require that all predicates are specified in one level");
    }
  }
  const templates = root.children;
  const budget = ctx.budget;
  yield* processRoot(ctx, root);
  let exec = attachLevel(ctx, root, templates);
  const reached = new ReachedEdges();
  for (let depth = 1; depth <= maxDepth && exec.length > 0; depth++) {
    checkDeadline(ctx);
    for (const sg of exec) if (!sg.isInternal()) yield* processChild(ctx, sg, EMPTY_SCOPE, false);
    const next: SubGraph[] = [];
    for (const sg of exec) {
      if (!sg.isUidPredicate) continue;
      let edges = 0;
      for (let i = 0; i < sg.rows.length; i++) {
        if (!args.loop) sg.rows[i] = reached.takeNew(sg.attr, sg.src[i], sg.rows[i]);
        edges += sg.rows[i].length;
      }
      budget.tick(edges);
      budget.addEdges(edges);
      sg.dest = unionAll(sg.order.length > 0 ? sg.rows.map((r) => Float64Array.from(r).sort()) : sg.rows);
      if (sg.dest.length > 0 && depth < maxDepth) next.push(...attachLevel(ctx, sg, templates));
      if (budget.sliceUsed()) yield;
    }
    exec = next;
  }
}
