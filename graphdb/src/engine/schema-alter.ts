import type { PredicateSchema, TypeSchema } from "../core/schema-types.ts";
import { ACL_PREDICATES, ACL_TYPES, PREDEFINED_PREDICATES, PREDEFINED_TYPES } from "../schema/predefined.ts";
import { parseSchema, validateAlterAgainstPredefined } from "../schema/schema-parser.ts";
import type { SchemaState } from "../schema/schema-state.ts";

export interface SchemaChanges {
  predicates: { old: PredicateSchema | undefined; next: PredicateSchema }[];
  types: TypeSchema[];
}

/**
 * Parses an alter's schema text and works out what it changes. An alter replaces the declarations of the
 * predicates and types it names and leaves every other one untouched.
 */
export function applySchemaText(schema: SchemaState, text: string): SchemaChanges {
  const parsed = parseSchema(text);
  validateAlterAgainstPredefined(parsed);
  return {
    predicates: parsed.predicates.map((next) => ({ old: schema.predicate(next.predicate), next })),
    types: parsed.types,
  };
}

/** Installs the pre-defined `dgraph.*` predicates and types (plus ACL's when enabled). */
export function bootstrapSchema(
  schema: SchemaState,
  options: { acl: boolean },
): { predicates: PredicateSchema[]; types: TypeSchema[] } {
  const predicates = [...PREDEFINED_PREDICATES, ...(options.acl ? ACL_PREDICATES : [])].map((p) => ({
    ...p,
    tokenizers: [...p.tokenizers],
  }));
  const types = [...PREDEFINED_TYPES, ...(options.acl ? ACL_TYPES : [])].map((t) => ({
    ...t,
    fields: [...t.fields],
  }));
  for (const p of predicates) schema.setPredicate(p);
  for (const t of types) schema.setType(t);
  return { predicates, types };
}
