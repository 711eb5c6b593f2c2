/**
 * `@cascade` / `@cascade(p1, p2)` (Dgraph's populateVarMap): after a level's children ran, drop the
 * level's nodes that miss any mandatory child; children's rows are then cut to their surviving nodes and
 * the pagination deferred by the cascade is applied.
 */
import { filterUids, intersect } from "../posting/uid-algebra.ts";
import { containsUid } from "../posting/uid-list.ts";
import { paginate } from "./ordering.ts";
import { CASCADE_ALL, type SubGraph } from "./subgraph.ts";

/** Cuts every row to the node's current destination uids (Dgraph's updateUidMatrix). */
export function restrictRows(sg: SubGraph): void {
  const dest = sg.dest;
  const ordered = sg.order.length > 0;
  for (let i = 0; i < sg.rows.length; i++) {
    const row = sg.rows[i];
    sg.rows[i] = ordered ? filterUids(row, (uid) => containsUid(dest, uid)) : intersect(row, dest);
  }
}

/** Applies pagination that `@cascade` deferred, per row. */
export function paginateAfterCascade(sg: SubGraph): void {
  if (sg.cascadeFirst === 0 && sg.cascadeOffset === 0) return;
  for (let i = 0; i < sg.rows.length; i++)
    sg.rows[i] = paginate(sg.rows[i], sg.cascadeFirst, sg.cascadeOffset);
}

/** The node's destination uids that have every mandatory child (by attribute name). */
export function cascadeDest(sg: SubGraph): void {
  const all = sg.cascade.includes(CASCADE_ALL);
  const mandatory = sg.children.filter(
    (c) => c.attr !== "uid" && !c.isInternal() && (all || sg.cascade.includes(c.attr)),
  );
  if (mandatory.length === 0) return;
  sg.dest = filterUids(sg.dest, (_uid, i) => {
    for (const c of mandatory) {
      if (c.counts !== undefined && i < c.counts.length) continue;
      if (i < c.values.length && c.values[i].length > 0) continue;
      if (i < c.rows.length && c.rows[i].length > 0) continue;
      if (c.checks !== undefined && i < c.checks.length && c.checks[i] !== 0) continue;
      return false;
    }
    return true;
  });
}
