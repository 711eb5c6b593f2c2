/**
 * The fast path for the common operation: a query whose root fields are generated `get<T>`, `query<T>` and
 * `aggregate<T>` fields, selecting stored fields and edges of object types. Such an operation needs no
 * field resolver below its root: the DQL result, keyed by response key, already has its shape. Its plan
 * (which keys, which leaf serializers, lists or not) is worked out once per schema and document, and each
 * execution copies the DQL result into the response along it, without graphql-js building a resolve info
 * and a promise per field of every node.
 *
 * Anything else (mutations, subscriptions, introspection, `@lambda`/`@custom`, interfaces and unions, geo
 * values, `@skip`/`@include`, repeated response keys, fragments on other types) has no plan and runs
 * through graphql-js. A planned operation whose data does not complete cleanly (a missing non-null value,
 * a value its scalar does not serialize, a root field that fails) answers undefined, and the caller runs
 * it through graphql-js instead, so errors and null propagation are always graphql-js's own.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { SchemaModel } from "../schema/type-model.ts";
import type { OperationContext } from "./operation-context.ts";
import { queryTarget, resolveQueryField } from "./query-resolvers.ts";
import { aggregateResult } from "./result-values.ts";

/** How one value is copied from the DQL result into the response. */
type Completion =
  | { kind: "leaf"; type: GraphQLLeafType; nonNull: boolean }
  | { kind: "list"; item: Completion; nonNull: boolean }
  | { kind: "object"; fields: PlannedField[]; nonNull: boolean }
  /** A nested `<f>Aggregate`: the edge's nodes, aggregated by its selected fields (`aggregated`). */
  | { kind: "aggregate"; aggregated: FieldNode[]; fields: PlannedField[]; nonNull: boolean };

interface PlannedField {
  /** The response key: the DQL alias of the value, and the response's key. */
  key: string;
  /** `"key":`, as the response's text has it. */
  jsonKey: string;
  /** `__typename`: the parent type's name, not read from the data. */
  typename?: string;
  completion: Completion;
}

interface PlannedRoot {
  key: string;
  jsonKey: string;
  field: GraphQLField<unknown, unknown>;
  node: FieldNode;
  completion: Completion;
}

export interface PlainQueryPlan {
  operation: OperationDefinitionNode;
  roots: PlannedRoot[];
  /** The variables, when all are built-in scalars without defaults (checked here, not by graphql-js). */
  scalarVariables: ScalarVariable[] | undefined;
}

interface ScalarVariable {
  name: string;
  type: "ID" | "String" | "Int" | "Float" | "Boolean";
  nonNull: boolean;
}

const BUILT_IN_SCALARS = new Set(["ID", "String", "Int", "Float", "Boolean"]);

function scalarVariables(operation: OperationDefinitionNode): ScalarVariable[] | undefined {
  const out: ScalarVariable[] = [];
  for (const def of operation.variableDefinitions ?? []) {
    if (def.defaultValue !== undefined || (def.directives?.length ?? 0) > 0) return undefined;
    const nonNull = def.type.kind === Kind.NON_NULL_TYPE;
    const named = def.type.kind === Kind.NON_NULL_TYPE ? def.type.type : def.type;
    if (named.kind !== Kind.NAMED_TYPE || !BUILT_IN_SCALARS.has(named.name.value)) return undefined;
    out.push({ name: def.variable.name.value, type: named.name.value as ScalarVariable["type"], nonNull });
  }
  return out;
}

/**
 * The variables' values as graphql-js would coerce them, for built-in scalar variables given values of
 * their own kind; undefined for anything else (graphql-js then coerces, or reports the error).
 */
function coerceScalarVariables(
  variables: readonly ScalarVariable[],
  inputs: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const v of variables) {
    const value = inputs[v.name];
    if (value === undefined || value === null) {
      if (v.nonNull) return undefined;
      if (value === null) out[v.name] = null;
      continue;
    }
    switch (v.type) {
      case "ID":
        if (typeof value === "string") out[v.name] = value;
        else if (Number.isInteger(value)) out[v.name] = String(value);
        else return undefined;
        break;
      case "String":
        if (typeof value !== "string") return undefined;
        out[v.name] = value;
        break;
      case "Int":
        if (!Number.isInteger(value) || (value as number) > 2147483647 || (value as number) < -2147483648)
          return undefined;
        out[v.name] = value;
        break;
      case "Float":
        if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
        out[v.name] = value;
        break;
      case "Boolean":
        if (typeof value !== "boolean") return undefined;
        out[v.name] = value;
        break;
    }
  }
  return out;
}

const GEO = new Set(["Point", "Polygon", "MultiPolygon"]);
/** Field directives a plan keeps: `@cascade` is part of the DQL, not of the completion. */
const PLAIN_DIRECTIVES = new Set(["cascade"]);

class NoPlan extends Error {}

/** Thrown while completing: the data needs graphql-js's handling (errors, null propagation). */
class NotPlain extends Error {}

/** The plan of `document`'s operation, or undefined when it is not a plain query. */
export function planPlainQuery(
  schema: GraphQLSchema,
  model: SchemaModel,
  document: DocumentNode,
  operationName: string | undefined,
): PlainQueryPlan | undefined {
  const operation = getOperationAST(document, operationName);
  const queryType = schema.getQueryType();
  if (operation === null || operation === undefined || operation.operation !== "query" || !queryType)
    return undefined;
  if ((operation.directives?.length ?? 0) > 0) return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  try {
    const roots: PlannedRoot[] = [];
    for (const node of fieldsOf(operation.selectionSet, queryType, fragments)) {
      const name = node.name.value;
      const field = queryType.getFields()[name];
      const target = field === undefined ? undefined : queryTarget(model, name)?.op;
      if (field === undefined || target === undefined || target === "check" || hasResolverDirective(field))
        throw new NoPlan();
      const key = node.alias?.value ?? name;
      roots.push({
        key,
        jsonKey: `${JSON.stringify(key)}:`,
        field,
        node,
        // A root aggregate's resolver answers the aggregated object itself.
        completion: completionOf(field.type, node, fragments, false),
      });
    }
    return { operation, roots, scalarVariables: scalarVariables(operation) };
  } catch (e) {
    if (e instanceof NoPlan) return undefined;
    throw e;
  }
}

function hasResolverDirective(field: GraphQLField<unknown, unknown>): boolean {
  return (
    field.astNode?.directives?.some((d) => d.name.value === "lambda" || d.name.value === "custom") ?? false
  );
}

/** The field nodes of a selection set on `type`, fragments on that same type inlined; else NoPlan. */
function fieldsOf(
  set: SelectionSetNode,
  type: GraphQLObjectType,
  fragments: Map<string, FragmentDefinitionNode>,
  out: FieldNode[] = [],
  keys: Set<string> = new Set(),
  seenFragments: Set<string> = new Set(),
): FieldNode[] {
  for (const sel of set.selections) {
    if ((sel.directives ?? []).some((d) => !PLAIN_DIRECTIVES.has(d.name.value) || sel.kind !== Kind.FIELD))
      throw new NoPlan();
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      // graphql-js merges repeated keys; a plan keeps one node per key.
      if (keys.has(key)) throw new NoPlan();
      keys.add(key);
      out.push(sel);
      continue;
    }
    const fragment = sel.kind === Kind.FRAGMENT_SPREAD ? fragments.get(sel.name.value) : sel;
    if (fragment === undefined) throw new NoPlan();
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      if (seenFragments.has(sel.name.value)) throw new NoPlan();
      seenFragments.add(sel.name.value);
    }
    const condition = fragment.typeCondition?.name.value;
    if (condition !== undefined && condition !== type.name) throw new NoPlan();
    fieldsOf(fragment.selectionSet, type, fragments, out, keys, seenFragments);
  }
  return out;
}

function completionOf(
  type: GraphQLOutputType,
  node: FieldNode,
  fragments: Map<string, FragmentDefinitionNode>,
  aggregate: boolean,
): Completion {
  const nonNull = isNonNullType(type);
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    return { kind: "list", item: completionOf(nullable.ofType, node, fragments, aggregate), nonNull };
  }
  // Geo values are converted from GeoJSON by the field resolver.
  if (GEO.has(getNamedType(nullable).name)) throw new NoPlan();
  if (isLeafType(nullable)) return { kind: "leaf", type: nullable, nonNull };
  if (!isObjectType(nullable) || node.selectionSet === undefined) throw new NoPlan();
  const fields = objectFields(nullable, node.selectionSet, fragments);
  return aggregate
    ? {
        kind: "aggregate",
        aggregated: (node.selectionSet.selections ?? []).filter((s): s is FieldNode => s.kind === Kind.FIELD),
        fields,
        nonNull,
      }
    : { kind: "object", fields, nonNull };
}

function objectFields(
  type: GraphQLObjectType,
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
): PlannedField[] {
  const planned: PlannedField[] = [];
  for (const node of fieldsOf(set, type, fragments)) {
    const key = node.alias?.value ?? node.name.value;
    if (node.name.value === "__typename") {
      planned.push({
        key,
        jsonKey: `${JSON.stringify(key)}:`,
        typename: type.name,
        completion: { kind: "leaf", type: undefined as never, nonNull: true },
      });
      continue;
    }
    const field = type.getFields()[node.name.value];
    if (field === undefined || hasResolverDirective(field)) throw new NoPlan();
    // A nested aggregate field, as the field resolver recognises it.
    const aggregate =
      node.name.value.endsWith("Aggregate") &&
      getNamedType(field.type).name.endsWith("AggregateResult") &&
      !type.name.endsWith("Payload");
    planned.push({
      key,
      jsonKey: `${JSON.stringify(key)}:`,
      completion: completionOf(field.type, node, fragments, aggregate),
    });
  }
  return planned;
}

/**
 * Runs a planned query: the root fields' DQL in parallel, as graphql-js runs a query's root fields, then
 * the copy along the plan, as the response's JSON text (`{"data":{...}}`). Undefined when the operation
 * must run through graphql-js after all.
 */
export async function runPlainQuery(
  plan: PlainQueryPlan,
  schema: GraphQLSchema,
  document: DocumentNode,
  ctx: OperationContext,
  inputs: Record<string, unknown> | undefined,
): Promise<string | undefined> {
  let variables =
    plan.scalarVariables === undefined
      ? undefined
      : coerceScalarVariables(plan.scalarVariables, inputs ?? {});
  if (variables === undefined) {
    const coerced = getVariableValues(schema, plan.operation.variableDefinitions ?? [], inputs ?? {});
    if (coerced.errors !== undefined) return undefined;
    variables = coerced.coerced;
  }
  const queryType = schema.getQueryType() as GraphQLObjectType;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  let values: unknown[];
  try {
    values = await Promise.all(
      plan.roots.map((root) => {
        const info = {
          fieldName: root.field.name,
          fieldNodes: [root.node],
          returnType: root.field.type,
          parentType: queryType,
          path: { prev: undefined, key: root.key, typename: queryType.name },
          schema,
          fragments,
          rootValue: undefined,
          operation: plan.operation,
          variableValues: variables,
        } as GraphQLResolveInfo;
        return resolveQueryField(ctx, getArgumentValues(root.field, root.node, variables), info);
      }),
    );
  } catch {
    return undefined;
  }
  try {
    let text = "";
    for (let i = 0; i < plan.roots.length; i++) {
      const root = plan.roots[i];
      text += `${i === 0 ? "" : ","}${root.jsonKey}${complete(root.completion, values[i])}`;
    }
    return `{"data":{${text}}}`;
  } catch (e) {
    if (e instanceof NotPlain) return undefined;
    throw e;
  }
}

/**
 * The JSON text of what the field resolver and graphql-js would make of `value` (written directly: no
 * response object is built to be stringified); NotPlain where they would report an error.
 */
function complete(c: Completion, value: unknown): string {
  switch (c.kind) {
    case "list": {
      // The field resolver answers [] for a missing list.
      if (value === undefined || value === null) return "[]";
      if (!Array.isArray(value)) return `[${complete(c.item, value)}]`;
      let out = "";
      for (let i = 0; i < value.length; i++)
        out += i === 0 ? complete(c.item, value[i]) : `,${complete(c.item, value[i])}`;
      return `[${out}]`;
    }
    case "leaf": {
      const v = Array.isArray(value) ? value[0] : value;
      if (v === undefined || v === null) {
        if (c.nonNull) throw new NotPlain();
        return "null";
      }
      let out: unknown;
      try {
        out = c.type.serialize(v);
      } catch {
        throw new NotPlain();
      }
      switch (typeof out) {
        case "string":
          return JSON.stringify(out);
        case "number":
          if (!Number.isFinite(out)) throw new NotPlain();
          return String(out);
        case "boolean":
          return out ? "true" : "false";
        case "object":
          if (out === null) throw new NotPlain();
          return JSON.stringify(out);
        default:
          throw new NotPlain();
      }
    }
    case "aggregate": {
      const nodes = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      return completeObject(c.fields, aggregateResult(nodes, c.aggregated), c.nonNull);
    }
    case "object":
      return completeObject(c.fields, Array.isArray(value) ? value[0] : value, c.nonNull);
  }
}

function completeObject(fields: PlannedField[], value: unknown, nonNull: boolean): string {
  if (value === undefined || value === null) {
    if (nonNull) throw new NotPlain();
    return "null";
  }
  if (typeof value !== "object") throw new NotPlain();
  const record = value as Record<string, unknown>;
  let out = "";
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const v = f.typename !== undefined ? JSON.stringify(f.typename) : complete(f.completion, record[f.key]);
    out += i === 0 ? `${f.jsonKey}${v}` : `,${f.jsonKey}${v}`;
  }
  return `{${out}}`;
}
