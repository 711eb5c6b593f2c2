/**
 * `delete<T>(filter)` (reference §3.3): every matching node loses all the predicates of its stored types and
 * its `dgraph.type`, and the nodes its `@hasInverse` edges point at lose their edges back to it.
 */
import type { FieldModel, TypeModel } from "../schema/type-model.ts";
import type { DqlTransaction } from "./dql-transaction.ts";
import { unlinkAll } from "./inverse-edges.ts";
import type { ObjectWriter } from "./object-writer.ts";
import { type MutationAuth, matchingNodes } from "./update-mutation.ts";

/** The matched nodes; their deletion is written to `writer`. */
export async function rewriteDelete(
  tx: DqlTransaction,
  writer: ObjectWriter,
  type: TypeModel,
  args: Record<string, unknown>,
  auth?: MutationAuth,
): Promise<string[]> {
  const nodes = await matchingNodes(tx, writer, type, args.filter, auth);
  for (const node of nodes) {
    const stored = new Set(node["dgraph.type"] ?? []);
    const types = [...writer.model.types.values()].filter(
      (t) => t === type || (t.kind !== "union" && stored.has(t.dgraphType)),
    );
    const fields = new Map<string, FieldModel>();
    for (const t of types) {
      for (const f of t.fields) if (f.predicate !== "" && !f.reverse) fields.set(f.predicate, f);
      if (t.secret !== undefined) writer.writes.delete(node.uid, t.secret.predicate, null);
    }
    for (const f of fields.values()) {
      if (f.inverse !== undefined) await unlinkAll(writer, node.uid, f);
      else writer.writes.delete(node.uid, f.predicate, null);
    }
    writer.writes.delete(node.uid, "dgraph.type", null);
  }
  return nodes.map((n) => n.uid);
}
