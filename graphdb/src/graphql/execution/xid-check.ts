/**
 * The reads a mutation rewrite makes before writing, all in the mutation's transaction: whether an `ID`
 * names a node of the expected type, which node holds an `@id` value, and a node's current edges.
 */
import type { FieldModel, SchemaModel, TypeModel } from "../schema/type-model.ts";
import { dqlPredicate, dqlValue } from "./dql-literal.ts";
import type { DqlTransaction } from "./dql-transaction.ts";

type Rows = { q?: Record<string, unknown>[] };

/** Whether `uid` is a node whose `dgraph.type` includes `type`. */
export async function isNodeOfType(tx: DqlTransaction, uid: string, type: TypeModel): Promise<boolean> {
  const data = await tx.query<Rows>(
    `query { q(func: uid(${uid})) @filter(type(${type.dgraphType})) { uid } }`,
  );
  return (data.q ?? []).length > 0;
}

/**
 * The node of `type` holding `value` in the xid `field`, or undefined. An `@id(interface: true)` field is
 * unique across the interface it is declared in, any other within the type.
 */
export async function findByXid(
  tx: DqlTransaction,
  model: SchemaModel,
  type: TypeModel,
  field: FieldModel,
  value: unknown,
): Promise<string | undefined> {
  const scope = field.xidInterface ? (model.types.get(field.declaredIn) ?? type) : type;
  const data = await tx.query<Rows>(
    `query { q(func: eq(${dqlPredicate(field.predicate)}, ${dqlValue(value)})) @filter(type(${scope.dgraphType})) { uid } }`,
  );
  return data.q?.[0]?.uid as string | undefined;
}

/** The uids `subject.predicate` points at now. */
export async function currentEdges(
  tx: DqlTransaction,
  subject: string,
  predicate: string,
): Promise<string[]> {
  if (subject.startsWith("_:")) return [];
  const data = await tx.query<Rows>(
    `query { q(func: uid(${subject})) { v : ${dqlPredicate(predicate)} { uid } } }`,
  );
  const v = data.q?.[0]?.v;
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.map((x) => (x as { uid: string }).uid);
}
