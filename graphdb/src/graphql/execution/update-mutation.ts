/**
 * `update<T>(input: {filter, set, remove})` (reference §2.3): the nodes of T matching the filter get the
 * `set` values (lists add, scalars and singular edges replace) and lose the `remove` values (a value only
 * when equal, an edge only to the node named, `null` all of the field's values). `@hasInverse` pairs stay
 * consistent both ways.
 */
import type { TypeModel } from "../schema/type-model.ts";
import type { AuthRewriter } from "./auth-filter.ts";
import type { DqlTransaction } from "./dql-transaction.ts";
import { filterDql, predicateOf } from "./filter-rewriter.ts";
import { storedValue } from "./input-values.ts";
import { unlinkAll, unlinkEdge } from "./inverse-edges.ts";
import type { InputObject, ObjectWriter } from "./object-writer.ts";

/** How `@auth` restricts which nodes an update or delete reaches. */
export interface MutationAuth {
  rewriter: AuthRewriter;
  op: "update" | "delete";
}

/**
 * The uids of the nodes of `type` matching a `<T>Filter` (and the type's update or delete rule, when
 * given), read in the mutation's transaction.
 */
export async function matchingNodes(
  tx: DqlTransaction,
  writer: ObjectWriter,
  type: TypeModel,
  filter: unknown,
  auth?: MutationAuth,
): Promise<{ uid: string; "dgraph.type"?: string[] }[]> {
  const parts = [filterDql(writer.model, type, filter), auth?.rewriter.filter(type, auth.op)].filter(
    (p): p is string => p !== undefined,
  );
  const f = parts.length === 0 ? undefined : parts.join(" AND ");
  const blocks = auth?.rewriter.takeBlocks() ?? "";
  const data = await tx.query<{ q?: { uid: string; "dgraph.type"?: string[] }[] }>(
    `query {\n${blocks}  q(func: type(${type.dgraphType}))${f === undefined ? "" : ` @filter(${f})`} { uid dgraph.type } }`,
  );
  return data.q ?? [];
}

const hasValues = (v: unknown) =>
  v !== null && typeof v === "object" && Object.values(v as InputObject).some((x) => x !== undefined);

/** The matched nodes (empty when neither `set` nor `remove` gives anything: a no-op). */
export async function rewriteUpdate(
  tx: DqlTransaction,
  writer: ObjectWriter,
  type: TypeModel,
  args: Record<string, unknown>,
  auth?: MutationAuth,
): Promise<string[]> {
  const input = args.input as { filter?: unknown; set?: InputObject | null; remove?: InputObject | null };
  const set = hasValues(input.set) ? (input.set as InputObject) : undefined;
  const remove = hasValues(input.remove) ? (input.remove as InputObject) : undefined;
  if (set === undefined && remove === undefined) return [];
  const nodes = (await matchingNodes(tx, writer, type, input.filter, auth)).map((n) => n.uid);
  for (const uid of nodes) {
    if (set !== undefined) await writer.fill(uid, type, set, false);
    if (remove !== undefined) await removeValues(writer, uid, type, remove);
  }
  return nodes;
}

async function removeValues(writer: ObjectWriter, uid: string, type: TypeModel, remove: InputObject) {
  const { writes } = writer;
  for (const [name, value] of Object.entries(remove)) {
    if (value === undefined) continue;
    if (type.secret !== undefined && name === type.secret.field) {
      writes.delete(uid, type.secret.predicate, null);
      continue;
    }
    const f = type.fields.find((x) => x.name === name);
    if (f === undefined || f.predicate === "" || f.reverse || f.kind === "id") continue;
    const edge = f.kind === "object" || f.kind === "interface" || f.kind === "union";
    if (value === null) {
      if (edge) await unlinkAll(writer, uid, f);
      else writes.delete(uid, f.predicate, null);
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === null) continue;
      if (!edge) {
        writes.delete(uid, predicateOf(f), storedValue(f, v));
        continue;
      }
      const m = await writer.existingReference(f, v as InputObject);
      if (m !== undefined) unlinkEdge(writer, uid, f, m);
    }
  }
}
