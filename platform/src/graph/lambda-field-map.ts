/**
 * Which app function serves which `@lambda` field of an app's GraphQL schema: the fields the schema
 * declares, the `lambdas` of the active deployment's manifest ("Type.field" → function) and the functions
 * that deployment exports (its GraphQL field names, which the lambdas map to), side by side so that every
 * mismatch shows.
 */
import { type GraphQLSchema, isObjectType } from "graphql";

/** Where a row comes from: the GraphQL schema, the manifest's `lambdas`, or both. */
export type LambdaFieldDeclared = "schema+manifest" | "schema" | "manifest";

export interface LambdaFieldRow {
  /** `Type.field`, as the graph database names lambda resolvers. */
  field: string;
  /** The function the manifest maps it to; null when it maps none. */
  function: string | null;
  declared: LambdaFieldDeclared;
  /** The active deployment exports `function`. */
  functionExists: boolean;
  /** Why the field is not served by an app function; null when it is. */
  problem: string | null;
}

/** `Type.field` of every `@lambda` field of the executable schema, as the resolver names them. */
export function schemaLambdaFields(schema: GraphQLSchema): string[] {
  const fields: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.astNode?.directives?.some((d) => d.name.value === "lambda")) {
        fields.push(`${type.name}.${field.name}`);
      }
    }
  }
  return fields;
}

/**
 * One row per field named by the schema or by the manifest, sorted by field. `functions` are the names
 * the active deployment exports (empty without a deployment).
 */
export function lambdaFieldMap(
  schemaFields: readonly string[],
  lambdas: Readonly<Record<string, string>>,
  functions: readonly string[],
): LambdaFieldRow[] {
  const inSchema = new Set(schemaFields);
  const exported = new Set(functions);
  const names = [...new Set([...schemaFields, ...Object.keys(lambdas)])].sort();
  return names.map((field) => {
    const fn = Object.hasOwn(lambdas, field) ? lambdas[field] : null;
    const declared: LambdaFieldDeclared =
      fn === null ? "schema" : inSchema.has(field) ? "schema+manifest" : "manifest";
    const functionExists = fn !== null && exported.has(fn);
    const problems: string[] = [];
    if (fn === null) {
      problems.push(`no function is mapped to it: add "${field}": "<function>" to trellis.json's "lambdas"`);
    } else if (!functionExists) {
      problems.push(`the active deployment has no function "${fn}"`);
    }
    if (declared === "manifest") problems.push(`the GraphQL schema has no @lambda field ${field}`);
    return {
      field,
      function: fn,
      declared,
      functionExists,
      problem: problems.length > 0 ? problems.join("; ") : null,
    };
  });
}
