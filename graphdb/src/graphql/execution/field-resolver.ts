/**
 * The resolvers graphql-js runs for the generated API: root fields rewrite to DQL (queries here, mutations
 * in mutation-resolvers.ts); every other field reads its value from the DQL result by response key,
 * completes lists and geo values, and reports a missing non-null value with Dgraph's text.
 */
import {
  type FieldNode,
  type GraphQLAbstractType,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLTypeResolver,
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
} from "graphql";
import type { SchemaModel } from "../schema/type-model.ts";
import { type CustomHttp, callCustomHttp, customHttpOf } from "./custom-http.ts";
import { resolveEntities } from "./entities-resolver.ts";
import { resolveMutationField } from "./mutation-resolvers.ts";
import type { OperationContext } from "./operation-context.ts";
import { resolveQueryField } from "./query-resolvers.ts";
import { aggregateResult, geoValue } from "./result-values.ts";
import { lambdaParent } from "./selection-rewriter.ts";

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

/** Objects a lambda answered: their fields are read by name, not by response key. */
const BY_FIELD_NAME = new WeakSet<object>();

function markByName(value: unknown): unknown {
  if (Array.isArray(value)) for (const v of value) markByName(v);
  else if (value !== null && typeof value === "object" && !BY_FIELD_NAME.has(value)) {
    BY_FIELD_NAME.add(value);
    for (const v of Object.values(value)) markByName(v);
  }
  return value;
}

/** How a field of the generated schema is resolved: by a lambda, by an HTTP endpoint, or from the data. */
type FieldSource = { kind: "lambda" } | { kind: "custom"; config: CustomHttp } | { kind: "data" };

/** Per field definition, read once from its directives (resolution runs for every field of every node). */
const FIELD_SOURCES = new WeakMap<object, FieldSource>();

function fieldSource(info: GraphQLResolveInfo): FieldSource {
  const def = info.parentType.getFields()[info.fieldName];
  if (def === undefined) return { kind: "data" };
  let source = FIELD_SOURCES.get(def);
  if (source === undefined) {
    const custom = customHttpOf(def.astNode);
    source = def.astNode?.directives?.some((d) => d.name.value === "lambda")
      ? { kind: "lambda" }
      : custom !== undefined
        ? { kind: "custom", config: custom }
        : { kind: "data" };
    FIELD_SOURCES.set(def, source);
  }
  return source;
}

async function resolveLambda(
  ctx: OperationContext,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
  record: Record<string, unknown> | undefined,
): Promise<unknown> {
  if (ctx.lambdas === undefined) {
    throw new Error(
      `${info.parentType.name}.${info.fieldName} is a @lambda field but no lambda server is configured`,
    );
  }
  const resolver = `${info.parentType.name}.${info.fieldName}`;
  if (record === undefined) return markByName(await ctx.lambdas.call(resolver, args));
  const type = ctx.build.model.types.get(info.parentType.name);
  const parent = type === undefined ? { ...record } : lambdaParent(type, record);
  return markByName(await ctx.lambdas.callFor(resolver, parent, args));
}

async function resolveCustom(
  ctx: OperationContext,
  config: CustomHttp,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
  record: Record<string, unknown> | undefined,
): Promise<unknown> {
  const call = {
    config,
    headers: ctx.headers,
    field: info.fieldName,
    timeoutMs: ctx.timeoutMs,
    ...ctx.outbound,
  };
  if (record === undefined) return markByName((await callCustomHttp({ ...call, values: [args] }))[0]);
  const type = ctx.build.model.types.get(info.parentType.name);
  const values = { ...(type === undefined ? record : lambdaParent(type, record)), ...args };
  if (config.mode === "BATCH") {
    return markByName(
      await ctx.customBatches.add(`${info.parentType.name}.${info.fieldName}`, { call, values }),
    );
  }
  return markByName((await callCustomHttp({ ...call, values: [values] }))[0]);
}

/** A key selected differently in fragments on several types, read as `Type.key` (selection-rewriter.ts). */
function typedValue(record: Record<string, unknown>, key: string, type: GraphQLObjectType): unknown {
  const own = record[`${type.name}.${key}`];
  if (own !== undefined) return own;
  for (const i of type.getInterfaces()) {
    const inherited = record[`${i.name}.${key}`];
    if (inherited !== undefined) return inherited;
  }
  return undefined;
}

export const fieldResolver: GraphQLFieldResolver<unknown, OperationContext> = (source, args, ctx, info) => {
  const root =
    info.parentType === info.schema.getQueryType() || info.parentType === info.schema.getMutationType();
  const how = fieldSource(info);
  if (how.kind === "lambda") {
    return resolveLambda(ctx, args, info, root ? undefined : (source as Record<string, unknown>));
  }
  if (how.kind === "custom") {
    return resolveCustom(ctx, how.config, args, info, root ? undefined : (source as Record<string, unknown>));
  }
  if (info.parentType === info.schema.getQueryType() && info.fieldName === "_service") {
    return { sdl: ctx.build.serviceSdl ?? "" };
  }
  if (info.parentType === info.schema.getQueryType() && info.fieldName === "_entities") {
    return resolveEntities(ctx, args, info);
  }
  if (
    info.parentType === info.schema.getQueryType() ||
    info.parentType === info.schema.getSubscriptionType()
  ) {
    return resolveQueryField(ctx, args, info);
  }
  if (info.parentType === info.schema.getMutationType()) return resolveMutationField(ctx, args, info);
  if (source === null || typeof source !== "object") return null;
  const record = source as Record<string, unknown>;
  const key = BY_FIELD_NAME.has(record) ? info.fieldName : (info.path.key as string);
  const named = getNamedType(info.returnType);
  let value = record[key];
  if (value === undefined && key === info.path.key) value = typedValue(record, key, info.parentType);
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

/** GraphQL type names by their stored `dgraph.type` (`@dgraph(type:)` renames), once per schema. */
const TYPE_NAMES = new WeakMap<SchemaModel, Map<string, string>>();

function typeNamesOf(model: SchemaModel): Map<string, string> {
  let names = TYPE_NAMES.get(model);
  if (names === undefined) {
    names = new Map([...model.types].map(([name, t]) => [t.dgraphType, name]));
    TYPE_NAMES.set(model, names);
  }
  return names;
}

/** `__typename` of an interface or union value: its first stored type that is one of the possible types. */
export const typeResolver: GraphQLTypeResolver<unknown, OperationContext> = (
  value: unknown,
  _ctx: OperationContext,
  info: GraphQLResolveInfo,
  abstract: GraphQLAbstractType,
) => {
  const stored = (value as { "dgraph.type"?: string[] } | null)?.["dgraph.type"] ?? [];
  const names = typeNamesOf(_ctx.build.model);
  for (const s of stored) {
    const type = info.schema.getType(names.get(s) ?? s);
    if (isObjectType(type) && info.schema.isSubType(abstract, type)) return type.name;
  }
  return undefined;
};
