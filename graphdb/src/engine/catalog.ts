import type { PredicateSchema, TypeSchema } from "../core/schema-types.ts";
import { SchemaState } from "../schema/schema-state.ts";
import {
  allSchemaRange,
  allTypesRange,
  attrOfCatalogKey,
  metaKey,
  type NamespaceKeys,
} from "../store/keys.ts";
import type { KVStore, KVWriter } from "../store/kv-store.ts";
import type { LeasePersistence } from "../txn/oracle.ts";

const LEASES = metaKey("leases");
/** The highest namespace id ever handed out: ids are never reused. */
const NAMESPACE_LEASE = metaKey("namespaces");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Persistent engine metadata: schema and type records of every namespace, and the leases. */
export class Catalog implements LeasePersistence {
  constructor(private readonly store: KVStore) {}

  /**
   * Every stored predicate and type, by namespace (a namespace exists while it has schema records).
   * Empty when the store is new.
   */
  loadSchemas(): Map<number, SchemaState> {
    const out = new Map<number, SchemaState>();
    const of = (ns: number) => {
      let s = out.get(ns);
      if (s === undefined) out.set(ns, (s = new SchemaState()));
      return s;
    };
    const snap = this.store.snapshot();
    try {
      for (const { key, value } of snap.scan(allSchemaRange)) {
        of(attrOfCatalogKey(key).namespace).setPredicate(
          JSON.parse(decoder.decode(value)) as PredicateSchema,
        );
      }
      for (const { key, value } of snap.scan(allTypesRange)) {
        of(attrOfCatalogKey(key).namespace).setType(JSON.parse(decoder.decode(value)) as TypeSchema);
      }
    } finally {
      snap.release();
    }
    return out;
  }

  loadLeases(): { tsLease: number; uidLease: number } {
    const raw = this.readMeta(LEASES);
    if (raw === undefined) return { tsLease: 0, uidLease: 0 };
    return JSON.parse(raw) as { tsLease: number; uidLease: number };
  }

  /** The highest namespace id ever handed out (0 in stores from before namespaces). */
  loadNamespaceLease(): number {
    const raw = this.readMeta(NAMESPACE_LEASE);
    return raw === undefined ? 0 : (JSON.parse(raw) as { maxId: number }).maxId;
  }

  private readMeta(key: Uint8Array): string | undefined {
    const snap = this.store.snapshot();
    try {
      const raw = snap.get(key);
      return raw === undefined ? undefined : decoder.decode(raw);
    } finally {
      snap.release();
    }
  }

  saveLeases(tsLease: number, uidLease: number): void {
    this.store.write((w) => w.put(LEASES, encoder.encode(JSON.stringify({ tsLease, uidLease }))), {
      flushBeforeReturn: true,
    });
  }

  static putNamespaceLease(w: KVWriter, maxId: number): void {
    w.put(NAMESPACE_LEASE, encoder.encode(JSON.stringify({ maxId })));
  }
  static putPredicate(w: KVWriter, keys: NamespaceKeys, p: PredicateSchema): void {
    w.put(keys.schemaKey(p.predicate), encoder.encode(JSON.stringify(p)));
  }
  static deletePredicate(w: KVWriter, keys: NamespaceKeys, name: string): void {
    w.delete(keys.schemaKey(name));
  }
  static putType(w: KVWriter, keys: NamespaceKeys, t: TypeSchema): void {
    w.put(keys.typeKey(t.name), encoder.encode(JSON.stringify(t)));
  }
  static deleteType(w: KVWriter, keys: NamespaceKeys, name: string): void {
    w.delete(keys.typeKey(name));
  }
  /** Deletes one namespace's predicate and type records. */
  static deleteSchemaOf(w: KVWriter, keys: NamespaceKeys): void {
    w.deleteRange(keys.schemaRange.start, keys.schemaRange.end);
    w.deleteRange(keys.typeRange.start, keys.typeRange.end);
  }
  /** Deletes the predicate and type records of every namespace. */
  static deleteAllSchema(w: KVWriter): void {
    w.deleteRange(allSchemaRange.start, allSchemaRange.end);
    w.deleteRange(allTypesRange.start, allTypesRange.end);
  }
}
