import type { SchemaState } from "../schema/schema-state.ts";
import type { PredicateSchema, TypeSchema } from "../schema/schema-types.ts";
import { metaKey, schemaKey, schemaRange, typeKey, typeRange } from "../store/keys.ts";
import type { KVStore, KVWriter } from "../store/kv-store.ts";
import type { LeasePersistence } from "../txn/oracle.ts";

const LEASES = metaKey("leases");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Persistent engine metadata: schema and type records, and the oracle's leases. */
export class Catalog implements LeasePersistence {
  constructor(private readonly store: KVStore) {}

  /** Loads every stored predicate and type into `schema`; returns false when the store is new. */
  loadSchema(schema: SchemaState): boolean {
    const snap = this.store.snapshot();
    let found = false;
    try {
      for (const { value } of snap.scan(schemaRange)) {
        schema.setPredicate(JSON.parse(decoder.decode(value)) as PredicateSchema);
        found = true;
      }
      for (const { value } of snap.scan(typeRange)) {
        schema.setType(JSON.parse(decoder.decode(value)) as TypeSchema);
        found = true;
      }
    } finally {
      snap.release();
    }
    return found;
  }

  loadLeases(): { tsLease: number; uidLease: number } {
    const snap = this.store.snapshot();
    try {
      const raw = snap.get(LEASES);
      if (raw === undefined) return { tsLease: 0, uidLease: 0 };
      return JSON.parse(decoder.decode(raw)) as { tsLease: number; uidLease: number };
    } finally {
      snap.release();
    }
  }

  saveLeases(tsLease: number, uidLease: number): void {
    this.store.write((w) => w.put(LEASES, encoder.encode(JSON.stringify({ tsLease, uidLease }))), {
      flushBeforeReturn: true,
    });
  }

  static putPredicate(w: KVWriter, p: PredicateSchema): void {
    w.put(schemaKey(p.predicate), encoder.encode(JSON.stringify(p)));
  }
  static deletePredicate(w: KVWriter, name: string): void {
    w.delete(schemaKey(name));
  }
  static putType(w: KVWriter, t: TypeSchema): void {
    w.put(typeKey(t.name), encoder.encode(JSON.stringify(t)));
  }
  static deleteType(w: KVWriter, name: string): void {
    w.delete(typeKey(name));
  }
  static deleteAllSchema(w: KVWriter): void {
    w.deleteRange(schemaRange.start, schemaRange.end);
    w.deleteRange(typeRange.start, typeRange.end);
  }
}
