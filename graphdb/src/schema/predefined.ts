import type { ScalarType } from "../core/scalar.ts";
import { blankPredicate, type PredicateSchema, type TypeSchema } from "../core/schema-types.ts";

/**
 * Dgraph's pre-defined `dgraph.*` predicates and types (v25, x/keys.go + schema/schema.go initial
 * schema). They are in every `schema {}` result; an alter may restate them but not change them.
 */

function pred(
  predicate: string,
  type: ScalarType,
  options: Partial<Omit<PredicateSchema, "predicate" | "type">> = {},
): PredicateSchema {
  const p: PredicateSchema = {
    ...blankPredicate(predicate, type, false),
    ...options,
    tokenizers: [...(options.tokenizers ?? [])],
  };
  Object.freeze(p.tokenizers);
  return Object.freeze(p);
}

function type(name: string, fields: string[]): TypeSchema {
  const t: TypeSchema = { name, fields: [...fields] };
  Object.freeze(t.fields);
  return Object.freeze(t);
}

/** Pre-defined predicates present with or without ACL. */
export const PREDEFINED_PREDICATES: readonly PredicateSchema[] = Object.freeze([
  pred("dgraph.type", "string", { list: true, tokenizers: ["exact"] }),
  pred("dgraph.drop.op", "string"),
  pred("dgraph.graphql.schema", "string"),
  pred("dgraph.graphql.xid", "string", { tokenizers: ["exact"], upsert: true }),
  pred("dgraph.graphql.p_query", "string", { tokenizers: ["sha256"] }),
  pred("dgraph.namespace.name", "string", { tokenizers: ["exact"], unique: true, upsert: true }),
  pred("dgraph.namespace.id", "int", { tokenizers: ["int"], unique: true, upsert: true }),
]);

/** Predicates added when ACL is enabled. */
export const ACL_PREDICATES: readonly PredicateSchema[] = Object.freeze([
  pred("dgraph.xid", "string", { tokenizers: ["exact"], upsert: true }),
  pred("dgraph.password", "password"),
  pred("dgraph.user.group", "uid", { list: true, reverse: true }),
  pred("dgraph.acl.rule", "uid", { list: true }),
  pred("dgraph.rule.predicate", "string", { tokenizers: ["exact"], upsert: true }),
  pred("dgraph.rule.permission", "int"),
]);

/** Pre-defined types present with or without ACL. */
export const PREDEFINED_TYPES: readonly TypeSchema[] = Object.freeze([
  type("dgraph.graphql", ["dgraph.graphql.schema", "dgraph.graphql.xid"]),
  type("dgraph.graphql.persisted_query", ["dgraph.graphql.p_query"]),
  type("dgraph.namespace", ["dgraph.namespace.name", "dgraph.namespace.id"]),
]);

/** Types added when ACL is enabled. */
export const ACL_TYPES: readonly TypeSchema[] = Object.freeze([
  type("dgraph.type.User", ["dgraph.xid", "dgraph.password", "dgraph.user.group"]),
  type("dgraph.type.Group", ["dgraph.xid", "dgraph.acl.rule"]),
  type("dgraph.type.Rule", ["dgraph.rule.predicate", "dgraph.rule.permission"]),
]);

const PREDICATES_BY_NAME: ReadonlyMap<string, PredicateSchema> = new Map(
  [...PREDEFINED_PREDICATES, ...ACL_PREDICATES].map((p) => [p.predicate, p]),
);
const TYPES_BY_NAME: ReadonlyMap<string, TypeSchema> = new Map(
  [...PREDEFINED_TYPES, ...ACL_TYPES].map((t) => [t.name, t]),
);

/** The pre-defined definition of a predicate (ACL ones included), or undefined. */
export function predefinedPredicate(name: string): PredicateSchema | undefined {
  return PREDICATES_BY_NAME.get(name);
}

/** The pre-defined definition of a type (ACL ones included), or undefined. */
export function predefinedType(name: string): TypeSchema | undefined {
  return TYPES_BY_NAME.get(name);
}

/** Names under `dgraph.` (any case) are reserved for Dgraph's own predicates and types. */
export function isReservedName(name: string): boolean {
  return name.toLowerCase().startsWith("dgraph.");
}
