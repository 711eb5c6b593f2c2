import {
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";

/**
 * A ready-to-run operation on an app's schema (the console's "Call it" example): a real field, with the
 * right operation type, its required arguments filled with example values and, for an object result, its
 * scalar fields selected. Prefers the functions of `preferred` (those a public endpoint serves: callable by
 * anyone, so needing no secret), then a query that returns a scalar, then any query, then a mutation.
 * `{ __typename }` for a schema without functions.
 */
export function exampleOperation(sdl: string, preferred: readonly string[] = []): string {
  const schema = buildSchema(sdl);
  const queries = fieldsOf(schema.getQueryType()).filter((f) => f.name !== "_empty");
  const mutations = fieldsOf(schema.getMutationType());
  const wanted = new Set(preferred);
  const preferredQuery = queries.find((f) => wanted.has(f.name));
  if (preferredQuery) return `{ ${fieldCall(preferredQuery)} }`;
  const preferredMutation = mutations.find((f) => wanted.has(f.name));
  if (preferredMutation) return `mutation { ${fieldCall(preferredMutation)} }`;
  const scalarQuery = queries.find((f) => !isObjectType(getNamedType(f.type)));
  const chosen = scalarQuery ?? queries[0];
  if (chosen) return `{ ${fieldCall(chosen)} }`;
  if (mutations[0]) return `mutation { ${fieldCall(mutations[0])} }`;
  return "{ __typename }";
}

function fieldsOf(type: GraphQLObjectType | null | undefined): GraphQLField<unknown, unknown>[] {
  return type ? Object.values(type.getFields()) : [];
}

function fieldCall(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const argText = args.length > 0 ? `(${args.map(argument).join(", ")})` : "";
  return `${field.name}${argText}${selection(field.type, 0)}`;
}

function argument(arg: GraphQLArgument): string {
  return `${arg.name}: ${exampleValue(arg.type, 0)}`;
}

/** Scalar fields of an object result (at most a few), one level of objects deep. */
function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return "";
  const fields = Object.values(named.getFields());
  const scalars = fields.filter((f) => !isObjectType(getNamedType(f.type))).slice(0, 3);
  const picked = scalars.length > 0 || depth > 0 ? scalars : fields.slice(0, 1);
  if (picked.length === 0) return " { __typename }";
  return ` { ${picked.map((f) => `${f.name}${selection(f.type, depth + 1)}`).join(" ")} }`;
}

/** A GraphQL literal of this input type. */
function exampleValue(type: GraphQLInputType, depth: number): string {
  if (isNonNullType(type)) return exampleValue(type.ofType, depth);
  if (isListType(type)) return `[${exampleValue(type.ofType, depth)}]`;
  if (isEnumType(type)) return type.getValues()[0]?.name ?? "null";
  if (isInputObjectType(type)) {
    if (depth > 3) return "{}";
    const required = Object.values(type.getFields()).filter(
      (f) => isNonNullType(f.type) && f.defaultValue === undefined,
    );
    return `{ ${required.map((f) => `${f.name}: ${exampleValue(f.type, depth + 1)}`).join(", ")} }`;
  }
  if (isScalarType(type)) return SCALAR_EXAMPLES[type.name] ?? '"example"';
  return "null";
}

/** Example literals of the scalars an app's schema uses (custom ones as the runtime accepts them). */
const SCALAR_EXAMPLES: Record<string, string> = {
  String: '"Trellis"',
  ID: '"1"',
  Int: "1",
  Float: "1.5",
  Boolean: "true",
  Int64: "1",
  UInt64: "1",
  UInt: "1",
  Timestamp: '"2026-01-01T00:00:00Z"',
};
