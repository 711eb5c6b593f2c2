/**
 * `@remoteResponse(name: "key")` on a field of a `@remote` type: the value of that field is read from the
 * `key` of the object a `@custom` endpoint or a lambda answered, not from the field's own name (Dgraph's
 * `RemoteResponseName`, used when it completes custom results). Such fields get a resolver of their own
 * that hands the field resolver the object with the remote key under the field's name; everything else of
 * completion (lists, non-null errors) stays the field resolver's.
 */
import {
  type ConstDirectiveNode,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
} from "graphql";
import { fieldResolver } from "./field-resolver.ts";
import type { OperationContext } from "./operation-context.ts";

/** Schemas whose `@remoteResponse` fields have their resolvers. */
const PREPARED = new WeakSet<GraphQLSchema>();

/** The answer's key for a field, from its `@remoteResponse(name:)`, or undefined. */
export function remoteResponseName(field: GraphQLField<unknown, unknown>): string | undefined {
  const d: ConstDirectiveNode | undefined = field.astNode?.directives?.find(
    (x) => x.name.value === "remoteResponse",
  );
  const v = d?.arguments?.find((a) => a.name.value === "name")?.value;
  return v?.kind === Kind.STRING && v.value !== "" ? v.value : undefined;
}

function renamed(remote: string): GraphQLFieldResolver<unknown, OperationContext> {
  return (source, args, ctx, info) => {
    if (source === null || typeof source !== "object") return fieldResolver(source, args, ctx, info);
    const value = (source as Record<string, unknown>)[remote];
    // Keyed both ways: the field resolver reads answers by field name and other objects by response key.
    const view = { [info.fieldName]: value, [String(info.path.key)]: value };
    return fieldResolver(view, args, ctx, info);
  };
}

/** Gives every `@remoteResponse` field of `schema` its resolver (once per schema). */
export function withRemoteResponses(schema: GraphQLSchema): void {
  if (PREPARED.has(schema)) return;
  PREPARED.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const remote = remoteResponseName(field);
      if (remote !== undefined) field.resolve = renamed(remote);
    }
  }
}
