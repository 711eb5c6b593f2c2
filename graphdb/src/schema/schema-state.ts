import type { SchemaView } from "../core/graph-reader.ts";
import type { PredicateSchema, TypeSchema } from "../core/schema-types.ts";

/** The schema in force: predicates and types by name. Changes only through the engine (alter, auto-schema). */
export class SchemaState implements SchemaView {
  private readonly preds = new Map<string, PredicateSchema>();
  private readonly typeDefs = new Map<string, TypeSchema>();
  /** Bumped on every change, so dependents can cache derived data. */
  version = 0;

  predicate(name: string): PredicateSchema | undefined {
    return this.preds.get(name);
  }
  type(name: string): TypeSchema | undefined {
    return this.typeDefs.get(name);
  }
  predicates(): PredicateSchema[] {
    return [...this.preds.values()];
  }
  types(): TypeSchema[] {
    return [...this.typeDefs.values()];
  }

  setPredicate(p: PredicateSchema): void {
    this.preds.set(p.predicate, p);
    this.version++;
  }
  deletePredicate(name: string): void {
    this.preds.delete(name);
    this.version++;
  }
  setType(t: TypeSchema): void {
    this.typeDefs.set(t.name, t);
    this.version++;
  }
  deleteType(name: string): void {
    this.typeDefs.delete(name);
    this.version++;
  }
  clear(): void {
    this.preds.clear();
    this.typeDefs.clear();
    this.version++;
  }
}
