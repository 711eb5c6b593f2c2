/**
 * GraphQL selections to DQL (reference §3.2). Each field becomes `responseKey : predicate`, so results come
 * back keyed as the client asked; edges carry their filter, order and pagination. The query is read with
 * `keepEmptyNodes` (dql-transaction.ts SELECTION_READ), so a node with none of the asked fields still
 * appears without a `dgraph.uid : uid` at every level (one only where a level asks for no stored value);
 * abstract types select `dgraph.type` for `__typename`. `<f>Aggregate` fields fetch the values they aggregate.
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  typeFromAST,
  valueFromASTUntyped,
} from "graphql";
import type { FieldModel, SchemaModel, TypeModel } from "../schema/type-model.ts";
import { dqlPredicate } from "./dql-literal.ts";
import { dqlPredicateOf, filterDql, orderDql } from "./filter-rewriter.ts";

export interface RewriteContext {
  readonly schema: GraphQLSchema;
  readonly model: SchemaModel;
  readonly variables: Record<string, unknown>;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  /** `@auth` query rules to add to every read of a type (absent: none apply); see auth-filter.ts. */
  readonly auth?: ReadRestriction;
}

/** What restricts the reads of a type (the `@auth` rules given the request's claims). */
export interface ReadRestriction {
  /** The filter restricting reads of `type`, or undefined when all of it is readable. */
  filter(type: TypeModel, op: "query" | "password"): string | undefined;
  /** The var blocks the filters given since the last call need, forgotten after. */
  takeBlocks(): string;
}

export interface CollectedField {
  key: string;
  node: FieldNode;
  /** The object or interface type the field was selected on. */
  parent: GraphQLCompositeType;
}

function included(ctx: RewriteContext, node: FieldNode | { directives?: FieldNode["directives"] }): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node as FieldNode, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node as FieldNode, ctx.variables);
  return include?.if !== false;
}

/** Fields of a selection set, fragments spread, in order (the first of each response key and parent). */
export function collectFields(
  ctx: RewriteContext,
  parent: GraphQLCompositeType,
  set: SelectionSetNode,
  out: CollectedField[] = [],
): CollectedField[] {
  for (const sel of set.selections) {
    if (!included(ctx, sel as FieldNode)) continue;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      if (!out.some((c) => c.key === key && c.parent === parent)) out.push({ key, node: sel, parent });
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition
        ? (typeFromAST(ctx.schema, sel.typeCondition) as GraphQLCompositeType)
        : parent;
      collectFields(ctx, on ?? parent, sel.selectionSet, out);
    } else {
      const frag = ctx.fragments[sel.name.value];
      if (frag === undefined) continue;
      const on = typeFromAST(ctx.schema, frag.typeCondition) as GraphQLCompositeType;
      collectFields(ctx, on ?? parent, frag.selectionSet, out);
    }
  }
  return out;
}

export function fieldArgs(
  ctx: RewriteContext,
  parent: GraphQLCompositeType,
  node: FieldNode,
): Record<string, unknown> {
  if (!isObjectType(parent) && !isInterfaceType(parent)) return {};
  const def = parent.getFields()[node.name.value] as GraphQLField<unknown, unknown> | undefined;
  if (def === undefined) return {};
  // Most edges are selected without arguments; their values are then only the defaults, if any.
  if ((node.arguments?.length ?? 0) === 0 && !def.args.some((a) => a.defaultValue !== undefined)) return {};
  return getArgumentValues(def, node, ctx.variables);
}

/** The model field behind a GraphQL field of `parent` (inherited fields included). */
function modelField(ctx: RewriteContext, parent: GraphQLNamedType, name: string): FieldModel | undefined {
  return ctx.model.types.get(parent.name)?.fields.find((f) => f.name === name);
}

/** Edge arguments `(orderasc: …, first: …, offset: …)` and `@filter(…)` of a list or edge. */
export function edgeModifiers(
  ctx: RewriteContext,
  target: TypeModel | undefined,
  args: Record<string, unknown>,
  typeFilter: string | undefined,
): { params: string[]; filter: string | undefined } {
  const params: string[] = [];
  if (target !== undefined) params.push(...orderDql(target, args.order));
  if (typeof args.first === "number") params.push(`first: ${args.first}`);
  if (typeof args.offset === "number") params.push(`offset: ${args.offset}`);
  const parts: string[] = [];
  if (typeFilter !== undefined) parts.push(typeFilter);
  if (target !== undefined) {
    if (target.kind === "union") {
      const member = unionFilter(ctx, target, args.filter);
      if (member !== undefined) parts.push(member);
    } else {
      const f = filterDql(ctx.model, target, args.filter);
      if (f !== undefined) parts.push(f);
    }
    const auth = ctx.auth?.filter(target, "query");
    if (auth !== undefined) parts.push(auth);
  }
  return {
    params,
    filter: parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : parts.join(" AND "),
  };
}

/** `{memberTypes: [A], aFilter: {...}}` on a union edge. */
function unionFilter(ctx: RewriteContext, union: TypeModel, filter: unknown): string | undefined {
  if (filter === null || typeof filter !== "object") return undefined;
  const f = filter as Record<string, unknown>;
  const members = Array.isArray(f.memberTypes) ? (f.memberTypes as string[]) : union.members;
  const parts = members.map((m) => {
    const type = ctx.model.types.get(m) as TypeModel;
    const own = filterDql(ctx.model, type, f[`${m.charAt(0).toLowerCase()}${m.slice(1)}Filter`]);
    return own === undefined ? `type(${type.dgraphType})` : `(type(${type.dgraphType}) AND ${own})`;
  });
  return parts.length === 0 ? undefined : `(${parts.join(" OR ")})`;
}

/** DQL for the inside of `{ }` of an object of GraphQL type `type`. */
export function selectionDql(
  ctx: RewriteContext,
  type: GraphQLCompositeType,
  set: SelectionSetNode | undefined,
): string {
  const lines: string[] = [];
  if (set === undefined) return "dgraph.uid : uid";
  let needsType = isAbstractType(type);
  const lambdaParents = new Set<string>();
  /** Each field's DQL, led by its response key as alias. */
  const fields: { key: string; parent: GraphQLCompositeType; line: string }[] = [];
  for (const { key, node, parent } of collectFields(ctx, type, set)) {
    const name = node.name.value;
    if (name === "__typename") {
      needsType = true;
      continue;
    }
    const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (def === undefined) continue;
    const aggregateOf = name.endsWith("Aggregate")
      ? modelField(ctx, parent, name.slice(0, -"Aggregate".length))
      : undefined;
    if (aggregateOf !== undefined) {
      fields.push({
        key,
        parent,
        line: aggregateSelection(ctx, key, aggregateOf, fieldArgs(ctx, parent, node), node),
      });
      continue;
    }
    const f = modelField(ctx, parent, name);
    if (f?.lambda || f?.custom) {
      lambdaParents.add(parent.name);
      continue;
    }
    if (f === undefined || f.custom) continue;
    if (f.kind === "id" && !f.storedId) {
      fields.push({ key, parent, line: `${key} : uid` });
      continue;
    }
    const target = getNamedType(def.type);
    if (!isCompositeType(target) || f.kind === "geo") {
      fields.push({ key, parent, line: `${key} : ${dqlPredicateOf(f)}` });
      continue;
    }
    const targetModel = ctx.model.types.get(target.name);
    const { params, filter } = edgeModifiers(ctx, targetModel, fieldArgs(ctx, parent, node), undefined);
    const paramText = params.length > 0 ? ` (${params.join(", ")})` : "";
    const filterText = filter !== undefined ? ` @filter(${filter})` : "";
    const cascade = cascadeDql(ctx, node, targetModel);
    const inner = selectionDql(ctx, target, node.selectionSet) + cascadeSelection(ctx, node, targetModel);
    fields.push({
      key,
      parent,
      line: `${key} : ${dqlPredicate(f.predicate)}${paramText}${filterText}${cascade} { ${inner} }`,
    });
  }
  lines.push(...distinctAliases(fields));
  for (const name of lambdaParents) lines.push(lambdaParentSelection(ctx.model.types.get(name)));
  if (needsType) lines.push("dgraph.type");
  // A level asking for no stored value (only lambda fields, say) still needs its nodes.
  if (lines.length === 0 || (lines.length === 1 && needsType)) lines.unshift("dgraph.uid : uid");
  return lines.join(" ");
}

/**
 * One response key selected in fragments on several types (`... on Dog { name } ... on Cat { name }`):
 * the same DQL once, or, where the fragments ask different things, each under `Type.key` (DQL refuses an
 * alias twice at one level). The field resolver reads `Type.key` when the key itself is absent.
 */
function distinctAliases(
  fields: readonly { key: string; parent: GraphQLCompositeType; line: string }[],
): string[] {
  const keys = new Set<string>();
  for (const f of fields) keys.add(f.key);
  if (keys.size === fields.length) return fields.map((f) => f.line);
  const byKey = new Map<string, Set<string>>();
  for (const f of fields) {
    const lines = byKey.get(f.key);
    if (lines === undefined) byKey.set(f.key, new Set([f.line]));
    else lines.add(f.line);
  }
  const out: string[] = [];
  const emitted = new Set<string>();
  for (const f of fields) {
    if ((byKey.get(f.key) as Set<string>).size > 1) out.push(`${f.parent.name}.${f.line}`);
    else if (!emitted.has(f.key)) {
      emitted.add(f.key);
      out.push(f.line);
    }
  }
  return out;
}

/** `postsAggregate { count titleMin }`: the edge's nodes with the values the aggregate needs. */
function aggregateSelection(
  ctx: RewriteContext,
  key: string,
  edge: FieldModel,
  args: Record<string, unknown>,
  node: FieldNode,
): string {
  const target = ctx.model.types.get(edge.typeName);
  const { filter } = edgeModifiers(ctx, target, { filter: args.filter }, undefined);
  const filterText = filter !== undefined ? ` @filter(${filter})` : "";
  return `${key} : ${dqlPredicate(edge.predicate)}${filterText} { ${aggregateValues(target, node.selectionSet)} }`;
}

/** Inside an aggregate's block: one value per field named by `<f>Min/Max/Sum/Avg`. */
export function aggregateValues(target: TypeModel | undefined, set: SelectionSetNode | undefined): string {
  const lines = ["dgraph.uid : uid"];
  const seen = new Set<string>();
  for (const sel of set?.selections ?? []) {
    if (sel.kind !== Kind.FIELD) continue;
    const m = /^(.*)(Min|Max|Sum|Avg)$/.exec(sel.name.value);
    if (m === null || seen.has(m[1])) continue;
    const f = target?.fields.find((x) => x.name === m[1]);
    if (f === undefined || f.predicate === "") continue;
    seen.add(m[1]);
    lines.push(`${f.name} : ${dqlPredicateOf(f)}`);
  }
  return lines.join(" ");
}

/** The fields named by `@cascade(fields: [...])` on a field (empty for a plain `@cascade`). */
function cascadeFields(ctx: RewriteContext, node: FieldNode): string[] {
  const d = node.directives?.find((x) => x.name.value === "cascade");
  const arg = d?.arguments?.find((a) => a.name.value === "fields");
  if (arg === undefined) return [];
  const value = valueFromASTUntyped(arg.value, ctx.variables);
  return Array.isArray(value)
    ? value.map(String)
    : value === null || value === undefined
      ? []
      : [String(value)];
}

/**
 * `@cascade` / `@cascade(fields: ["name"])` on a field: DQL's `@cascade` over the same level, field names
 * mapped to their predicates (`id` to `uid`).
 */
export function cascadeDql(ctx: RewriteContext, node: FieldNode, target?: TypeModel): string {
  if (!node.directives?.some((x) => x.name.value === "cascade")) return "";
  const names = cascadeFields(ctx, node);
  if (names.length === 0) return " @cascade";
  const preds = names.map((name) => {
    const f = target?.fields.find((x) => x.name === name);
    return f === undefined || (f.kind === "id" && !f.storedId) ? "uid" : dqlPredicateOf(f);
  });
  return ` @cascade(${preds.join(", ")})`;
}

/** Predicates a `@cascade(fields:)` checks, selected too so that the check can see them. */
export function cascadeSelection(ctx: RewriteContext, node: FieldNode, target?: TypeModel): string {
  const preds = cascadeFields(ctx, node).flatMap((name) => {
    const f = target?.fields.find((x) => x.name === name);
    return f === undefined || f.predicate === "" ? [] : [dqlPredicateOf(f)];
  });
  return preds.length === 0 ? "" : ` ${preds.join(" ")}`;
}

/**
 * What a `@lambda` field of `type` receives as its parent: the type's stored scalar fields (and its ID),
 * selected under `Type.field` aliases that no response key can take.
 */
function lambdaParentSelection(type: TypeModel | undefined): string {
  if (type === undefined) return "";
  return type.fields
    .filter(
      (f) =>
        f.kind === "id" || ((f.kind === "scalar" || f.kind === "enum") && f.predicate !== "" && !f.reverse),
    )
    .map((f) => `${type.name}.${f.name} : ${f.kind === "id" && !f.storedId ? "uid" : dqlPredicateOf(f)}`)
    .join(" ");
}

/** The parent object a `@lambda` field of `type` is called with, from its `Type.field` aliases. */
export function lambdaParent(type: TypeModel, record: Record<string, unknown>): Record<string, unknown> {
  const parent: Record<string, unknown> = {};
  for (const f of type.fields) {
    const value = record[`${type.name}.${f.name}`];
    if (value !== undefined) parent[f.name] = value;
  }
  return parent;
}
