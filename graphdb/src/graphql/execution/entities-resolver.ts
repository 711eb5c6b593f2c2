/**
 * `_entities(representations:)`, what a federation gateway asks a subgraph (reference §4.5): each
 * representation `{__typename, <key>: value, ...}` names an entity by its `@key`; the answers come back in
 * the representations' order, duplicates repeated, `null` where no entity matches (Dgraph returns a shorter
 * list, which breaks gateways). Several typenames may come in one call. The representation's other fields
 * (what `@requires` asked the gateway for) reach the entity's `@lambda` fields as parent fields.
 */
import {
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from "graphql";
import type { FieldModel, TypeModel } from "../schema/type-model.ts";
import { dqlPredicate, dqlValue, parseId } from "./dql-literal.ts";
import { SELECTION_READ } from "./dql-transaction.ts";
import type { OperationContext } from "./operation-context.ts";
import { rewriteContext } from "./query-resolvers.ts";
import { type RewriteContext, selectionDql } from "./selection-rewriter.ts";

interface EntityGroup {
  type: TypeModel;
  key: FieldModel;
  /** Key values, in first-seen order. */
  values: string[];
}

const KEY_ALIAS = "dgraph.entity.key";

/** The selections of `set` that apply to objects of `typeName` (fields, fragments on it). */
function selectionsFor(
  ctx: RewriteContext,
  set: SelectionSetNode | undefined,
  typeName: string,
): SelectionSetNode {
  const keep = (s: SelectionNode): boolean => {
    if (s.kind === Kind.FIELD) return true;
    if (s.kind === Kind.INLINE_FRAGMENT) return !s.typeCondition || s.typeCondition.name.value === typeName;
    return ctx.fragments[s.name.value]?.typeCondition.name.value === typeName;
  };
  return { kind: Kind.SELECTION_SET, selections: (set?.selections ?? []).filter(keep) };
}

/** A uid key is written as `uid(...)`; any other key (an `@id`, an extended type's stored key) by value. */
function keyText(key: FieldModel, value: unknown): string {
  return key.kind === "id" && !key.storedId ? parseId(value) : dqlValue(value);
}

export async function resolveEntities(
  ctx: OperationContext,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const reps = args.representations as Record<string, unknown>[] | undefined;
  if (!Array.isArray(reps) || reps.length === 0) {
    throw new Error("expecting at least one item in `representations` argument");
  }
  await ctx.authorize();
  const groups = new Map<string, EntityGroup>();
  const keys: string[] = [];
  reps.forEach((rep, i) => {
    const typename = String(rep?.__typename ?? "");
    const type = ctx.build.model.types.get(typename);
    if (type === undefined || type.kind === "union")
      throw new Error(`type ${typename} not found in the schema`);
    if (type.key === undefined) throw new Error(`type ${typename} doesn't have a key Directive`);
    const key = type.fields.find((f) => f.name === type.key) as FieldModel;
    const value = rep[type.key];
    if (value === undefined || value === null) {
      throw new Error(
        `unable to extract value for key field \`${type.key}\` from ${i}th item of \`_representations\``,
      );
    }
    let group = groups.get(typename);
    if (group === undefined) groups.set(typename, (group = { type, key, values: [] }));
    const text = keyText(key, value);
    if (!group.values.includes(text)) group.values.push(text);
    keys.push(`${typename}\u0000${key.kind === "id" && !key.storedId ? parseId(value) : String(value)}`);
  });

  const rc = rewriteContext(ctx, info);
  const node: FieldNode = info.fieldNodes[0];
  const blocks: string[] = [];
  const names = [...groups.keys()];
  names.forEach((typename, n) => {
    const { type, key, values } = groups.get(typename) as EntityGroup;
    const objectType = info.schema.getType(typename) as GraphQLObjectType;
    const body = selectionDql(rc, objectType, selectionsFor(rc, node.selectionSet, typename));
    const keyValue = key.kind === "id" && !key.storedId ? "uid" : dqlPredicate(key.predicate);
    const func =
      key.kind === "id" && !key.storedId
        ? `uid(${values.join(", ")})`
        : `eq(${keyValue}, ${values.join(", ")})`;
    const conditions = [`type(${type.dgraphType})`];
    const auth = rc.auth?.filter(type, "query");
    if (auth !== undefined) conditions.push(auth);
    // `dgraph.type` (for `__typename` of the `_Entity` union) unless the entity's own level already asks
    // for it: selectionDql puts it last at its level, and a nested level's own ends with "}".
    const types = body === "dgraph.type" || body.endsWith(" dgraph.type") ? "" : " dgraph.type";
    blocks.push(
      `e${n}(func: ${func}) @filter(${conditions.join(" AND ")}) { ${body} ${KEY_ALIAS} : ${keyValue}${types} }`,
    );
  });
  const data = await ctx.read(
    `query {\n${rc.auth?.takeBlocks() ?? ""}${blocks.join("\n")}\n}`,
    SELECTION_READ,
  );

  const found = new Map<string, Record<string, unknown>>();
  names.forEach((typename, n) => {
    for (const row of (data[`e${n}`] as Record<string, unknown>[] | undefined) ?? []) {
      found.set(`${typename}\u0000${String(row[KEY_ALIAS])}`, row);
    }
  });
  return reps.map((rep, i) => {
    const row = found.get(keys[i]);
    if (row === undefined) return null;
    // The representation's fields, for the entity's @lambda fields (`@requires`), as `Type.field` aliases.
    const typename = String(rep.__typename);
    const extra = Object.entries(rep)
      .filter(([k]) => k !== "__typename")
      .map(([k, v]) => [`${typename}.${k}`, v]);
    return extra.length === 0 ? row : { ...Object.fromEntries(extra), ...row };
  });
}
