/**
 * The resolvers graphql-js runs for the generated API: root fields rewrite to DQL (queries here, mutations
 * in mutation-resolvers.ts); every other field reads its value from the DQL result by response key,
 * completes lists and geo values, and reports a missing non-null value with Dgraph's text.
 */
import {
  type FieldNode,
  type GraphQLAbstractType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLTypeResolver,
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  Kind,
} from "graphql";
import { resolveMutationField } from "./mutation-resolvers.ts";
import type { OperationContext } from "./operation-context.ts";
import { resolveQueryField } from "./query-resolvers.ts";
import { aggregateResult, geoValue } from "./result-values.ts";

const GEO = new Set(["Point", "Polygon", "MultiPolygon"]);

function missing(info: GraphQLResolveInfo): Error {
  return new Error(
    `Non-nullable field '${info.fieldName}' (type ${String(info.returnType)}) was not present in result from Dgraph.  GraphQL error propagation triggered.`,
  );
}

function selectedFields(info: GraphQLResolveInfo): FieldNode[] {
  return info.fieldNodes.flatMap((n) =>
    (n.selectionSet?.selections ?? []).filter((s): s is FieldNode => s.kind === Kind.FIELD),
  );
}

export const fieldResolver: GraphQLFieldResolver<unknown, OperationContext> = (source, args, ctx, info) => {
  if (info.parentType === info.schema.getQueryType()) return resolveQueryField(ctx, args, info);
  if (info.parentType === info.schema.getMutationType()) return resolveMutationField(ctx, args, info);
  if (source === null || typeof source !== "object") return null;
  const record = source as Record<string, unknown>;
  const key = info.path.key as string;
  const named = getNamedType(info.returnType);
  let value = record[key];
  if (
    info.fieldName.endsWith("Aggregate") &&
    named.name.endsWith("AggregateResult") &&
    !info.parentType.name.endsWith("Payload")
  ) {
    const nodes = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
    return aggregateResult(nodes, selectedFields(info));
  }
  const type = getNullableType(info.returnType);
  if (isListType(type)) {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) value = [value];
    return GEO.has(named.name) ? (value as unknown[]).map((v) => geoValue(named.name, v)) : value;
  }
  if (Array.isArray(value)) value = value[0];
  if (GEO.has(named.name)) value = geoValue(named.name, value);
  if ((value === undefined || value === null) && isNonNullType(info.returnType)) throw missing(info);
  return value ?? null;
};

/** `__typename` of an interface or union value: its first stored type that is one of the possible types. */
export const typeResolver: GraphQLTypeResolver<unknown, OperationContext> = (
  value: unknown,
  _ctx: OperationContext,
  info: GraphQLResolveInfo,
  abstract: GraphQLAbstractType,
) => {
  const stored = (value as { "dgraph.type"?: string[] } | null)?.["dgraph.type"] ?? [];
  const possible = new Set(info.schema.getPossibleTypes(abstract).map((t) => t.name));
  const modelNames = new Map<string, string>();
  for (const [name, t] of (_ctx as OperationContext).build.model.types) modelNames.set(t.dgraphType, name);
  for (const s of stored) {
    const name = modelNames.get(s) ?? s;
    if (possible.has(name)) return name;
  }
  return undefined;
};
