/**
 * Writing an edge keeps `@hasInverse` pairs consistent, as Dgraph does: an edge `n.f → m` whose field has
 * an inverse `g` also writes `m.g → n`; when a singular side gets a new value, the stale edge it replaces
 * is removed from both of its ends.
 */
import type { FieldModel, SchemaModel } from "../schema/type-model.ts";
import type { DqlTransaction } from "./dql-transaction.ts";
import { type MutationWrites, uidValue } from "./mutation-writes.ts";
import { currentEdges } from "./xid-check.ts";

/** The field on `f`'s target type holding the other direction of `f`, if `f` has `@hasInverse`. */
export function inverseField(model: SchemaModel, f: FieldModel): FieldModel | undefined {
  if (f.inverse === undefined) return undefined;
  return model.types.get(f.typeName)?.fields.find((g) => g.name === f.inverse && g.predicate !== "");
}

export interface EdgeScope {
  readonly tx: DqlTransaction;
  readonly model: SchemaModel;
  readonly writes: MutationWrites;
}

/** Writes `n.f → m` and its inverse, removing the edges a singular side replaces. */
export async function linkEdge(scope: EdgeScope, n: string, f: FieldModel, m: string): Promise<void> {
  const { tx, writes } = scope;
  const g = inverseField(scope.model, f);
  writes.set(n, f.predicate, uidValue(m), f.list);
  if (!f.list) {
    for (const old of await currentEdges(tx, n, f.predicate)) {
      if (old === m) continue;
      writes.delete(n, f.predicate, uidValue(old));
      if (g !== undefined) writes.delete(old, g.predicate, uidValue(n));
    }
  }
  if (g === undefined) return;
  writes.set(m, g.predicate, uidValue(n), g.list);
  if (!g.list) {
    for (const old of await currentEdges(tx, m, g.predicate)) {
      if (old === n) continue;
      writes.delete(m, g.predicate, uidValue(old));
      writes.delete(old, f.predicate, uidValue(m));
    }
  }
}

/** Removes `n.f → m` and its inverse `m.g → n`. */
export function unlinkEdge(scope: EdgeScope, n: string, f: FieldModel, m: string): void {
  scope.writes.delete(n, f.predicate, uidValue(m));
  const g = inverseField(scope.model, f);
  if (g !== undefined) scope.writes.delete(m, g.predicate, uidValue(n));
}

/** Removes every edge of `n.f`, and each target's inverse edge back to `n`. */
export async function unlinkAll(scope: EdgeScope, n: string, f: FieldModel): Promise<void> {
  const g = inverseField(scope.model, f);
  if (g !== undefined)
    for (const m of await currentEdges(scope.tx, n, f.predicate))
      scope.writes.delete(m, g.predicate, uidValue(n));
  scope.writes.delete(n, f.predicate, null);
}
