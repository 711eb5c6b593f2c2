/**
 * The generated Query fields (`get<T>`, `query<T>`, `aggregate<T>`): each rewrites its whole selection
 * into one DQL query (reference §3.2) read in its own transaction, and answers with the result, which the
 * field resolver then walks by response key.
 */
import { type FieldNode, type GraphQLResolveInfo, getNamedType, isCompositeType } from "graphql";
import type { SchemaModel, TypeModel } from "../schema/type-model.ts";
import { idField } from "../schema/type-model.ts";
import { dqlPredicate, dqlValue, parseId } from "./dql-literal.ts";
import { SELECTION_READ } from "./dql-transaction.ts";
import { rootFunction } from "./filter-rewriter.ts";
import type { OperationContext } from "./operation-context.ts";
import { aggregateResult } from "./result-values.ts";
import {
  aggregateValues,
  cascadeDql,
  cascadeSelection,
  edgeModifiers,
  type RewriteContext,
  selectionDql,
} from "./selection-rewriter.ts";

export function rewriteContext(ctx: OperationContext, info: GraphQLResolveInfo): RewriteContext {
  return {
    schema: info.schema,
    model: ctx.build.model,
    variables: info.variableValues,
    fragments: info.fragments,
    auth: ctx.auth?.active ? ctx.auth.rewriter() : undefined,
  };
}

/** The stored type a generated Query field is about (`queryAuthor` → Author), or undefined. */
export function queryTarget(model: SchemaModel, name: string): { op: string; type: TypeModel } | undefined {
  const password = /^check(.+)Password$/.exec(name);
  if (password !== null) {
    const type = model.types.get(password[1]);
    if (type?.secret !== undefined) return { op: "check", type };
  }
  const m = /^(get|query|aggregate)(.+)$/.exec(name);
  if (m === null) return undefined;
  const type = model.types.get(m[2]);
  return type === undefined || type.kind === "union" ? undefined : { op: m[1], type };
}

function mergedSelection(info: GraphQLResolveInfo): FieldNode {
  const [first, ...rest] = info.fieldNodes;
  if (rest.length === 0) return first;
  return {
    ...first,
    selectionSet: first.selectionSet && {
      ...first.selectionSet,
      selections: info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []),
    },
  };
}

export async function resolveQueryField(
  ctx: OperationContext,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  const target = queryTarget(ctx.build.model, info.fieldName);
  if (target === undefined) return null;
  const { op, type } = target;
  try {
    await ctx.authorize();
  } catch (e) {
    throw new Error(`couldn't rewrite query ${String(info.path.key)} because ${(e as Error).message}`);
  }
  const rc = rewriteContext(ctx, info);
  const node = mergedSelection(info);
  const returned = getNamedType(info.returnType);
  const typeFilter = `type(${type.dgraphType})`;
  let dql: string;
  if (op === "get" || op === "check") {
    const id = idField(type);
    const conditions = [typeFilter];
    const auth = rc.auth?.filter(type, op === "check" ? "password" : "query");
    if (auth !== undefined) conditions.push(auth);
    let func: string | undefined;
    if (id !== undefined && args[id.name] !== undefined && args[id.name] !== null)
      func = `uid(${parseId(args[id.name])})`;
    for (const f of type.fields) {
      if (!f.xid || args[f.name] === undefined || args[f.name] === null) continue;
      const eq = `eq(${dqlPredicate(f.predicate)}, ${dqlValue(args[f.name])})`;
      if (func === undefined) func = eq;
      else conditions.push(eq);
    }
    if (func === undefined) throw new Error(`${info.fieldName}: an ID or an @id argument is required`);
    const body = isCompositeType(returned)
      ? selectionDql(rc, returned, node.selectionSet)
      : "dgraph.uid : uid";
    const secret = type.secret;
    const check =
      op === "check" && secret !== undefined
        ? ` dgraph.checkpwd : checkpwd(${dqlPredicate(secret.predicate)}, ${dqlValue(args[secret.field])})`
        : "";
    dql = `query {\n${rc.auth?.takeBlocks() ?? ""}  q(func: ${func}) @filter(${conditions.join(" AND ")})${cascadeDql(rc, node, type)} { ${body}${check}${cascadeSelection(rc, node, type)} }\n}`;
    const data = await ctx.read(dql, SELECTION_READ);
    const found = (data.q as Record<string, unknown>[] | undefined)?.[0] ?? null;
    if (op === "check" && found !== null && found["dgraph.checkpwd"] !== true) return null;
    return found;
  }
  const root = rootFunction(type, args.filter);
  const filterArg = root === undefined ? args.filter : root.rest;
  const { params, filter } = edgeModifiers(
    rc,
    type,
    op === "query" ? { ...args, filter: filterArg } : { filter: filterArg },
    undefined,
  );
  const funcArgs = [`func: ${root?.func ?? typeFilter}`, ...params].join(", ");
  const conditions =
    root === undefined ? filter : filter === undefined ? typeFilter : `${typeFilter} AND ${filter}`;
  const filterText = conditions !== undefined ? ` @filter(${conditions})` : "";
  if (op === "query") {
    const body = isCompositeType(returned)
      ? selectionDql(rc, returned, node.selectionSet)
      : "dgraph.uid : uid";
    dql = `query {\n${rc.auth?.takeBlocks() ?? ""}  q(${funcArgs})${filterText}${cascadeDql(rc, node, type)} { ${body}${cascadeSelection(rc, node, type)} }\n}`;
    const data = await ctx.read(dql, SELECTION_READ);
    return (data.q as unknown[] | undefined) ?? [];
  }
  const fields = collectAggregateFields(node);
  if (fields.every((f) => f.name.value === "count" || f.name.value === "__typename")) {
    // Only the count: the engine counts, no node is fetched.
    dql = `query {\n${rc.auth?.takeBlocks() ?? ""}  q(${funcArgs})${filterText} { count(uid) }\n}`;
    const data = await ctx.read(dql);
    const count = (data.q as { count?: number }[] | undefined)?.[0]?.count ?? 0;
    return aggregateResult([], fields, count);
  }
  dql = `query {\n${rc.auth?.takeBlocks() ?? ""}  q(${funcArgs})${filterText} { ${aggregateValues(type, node.selectionSet)} }\n}`;
  const data = await ctx.read(dql);
  return aggregateResult((data.q as Record<string, unknown>[] | undefined) ?? [], fields);
}

function collectAggregateFields(node: FieldNode): FieldNode[] {
  return (node.selectionSet?.selections ?? []).filter((s): s is FieldNode => s.kind === "Field");
}
