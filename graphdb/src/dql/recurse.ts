/**
 * `@recurse(depth: n, loop: false)` (Dgraph's recurse.go): the block's selections are applied again at
 * every level reached through its uid predicates, up to `depth` levels (unbounded without a depth).
 * Without `loop`, an edge (predicate, from, to) is followed at most once in the whole query.
 */
import { DgraphError } from "../engine/errors.ts";
import { filterUids, unionAll } from "../posting/uid-algebra.ts";
import { checkDeadline, type ExecContext } from "./exec-context.ts";
import { expandChildren } from "./expand.ts";
import { processChild, processRoot } from "./process-graph.ts";
import { cloneRequest, type SubGraph } from "./subgraph.ts";
import { EMPTY_SCOPE } from "./variables.ts";

/** Dgraph's default query edge limit. */
const QUERY_EDGE_LIMIT = 1_000_000;

/** Hangs a fresh copy of the block's selections under `sg`, reading from its destination uids. */
function attachLevel(ctx: ExecContext, sg: SubGraph, templates: readonly SubGraph[]): SubGraph[] {
  sg.children = templates.map(cloneRequest);
  expandChildren(ctx, sg);
  for (const c of sg.children) c.src = sg.dest;
  return sg.children;
}

/** Runs a `@recurse` block. */
export function processRecurse(ctx: ExecContext, root: SubGraph): void {
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
  processRoot(ctx, root);
  let exec = attachLevel(ctx, root, templates);
  const seen = new Set<string>();
  let edges = 0;
  for (let depth = 1; depth <= maxDepth && exec.length > 0; depth++) {
    checkDeadline(ctx);
    for (const sg of exec) if (!sg.isInternal()) processChild(ctx, sg, EMPTY_SCOPE, false);
    const next: SubGraph[] = [];
    for (const sg of exec) {
      if (!sg.isUidPredicate) continue;
      for (let i = 0; i < sg.rows.length; i++) {
        if (args.loop) {
          edges += sg.rows[i].length;
          continue;
        }
        const from = sg.src[i];
        sg.rows[i] = filterUids(sg.rows[i], (to) => {
          const key = `${sg.attr}|${from}|${to}`;
          if (seen.has(key)) return false;
          seen.add(key);
          edges++;
          return true;
        });
      }
      sg.dest = unionAll(sg.order.length > 0 ? sg.rows.map((r) => Float64Array.from(r).sort()) : sg.rows);
      if (sg.dest.length > 0 && depth < maxDepth) next.push(...attachLevel(ctx, sg, templates));
    }
    if (edges > QUERY_EDGE_LIMIT) {
      throw new DgraphError(`Exceeded query edge limit = ${QUERY_EDGE_LIMIT}. Found ${edges} edges.`);
    }
    exec = next;
  }
}
