/**
 * `<T>Filter` values to DQL filter expressions (reference §3.2): keys AND-ed in sorted order, `and`/`or`
 * over an object or a list, `not`, `id` lists, `has`, and each field's operators — several operators in
 * one field object are AND-ed (Dgraph applies only one of them).
 */
import type { FieldModel, SchemaModel, TypeModel } from "../schema/type-model.ts";
import { dqlPredicate, dqlString, dqlValue, parseId } from "./dql-literal.ts";

type FilterValue = Record<string, unknown>;

const and = (parts: string[]) => (parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`);

/** The filter expression of `filter` on `type`, or undefined when it filters nothing. */
export function filterDql(model: SchemaModel, type: TypeModel, filter: unknown): string | undefined {
  if (filter === null || filter === undefined || typeof filter !== "object") return undefined;
  const parts: string[] = [];
  for (const key of Object.keys(filter as FilterValue).sort()) {
    const value = (filter as FilterValue)[key];
    const part = keyDql(model, type, key, value);
    if (part !== undefined) parts.push(part);
  }
  return parts.length === 0 ? undefined : and(parts);
}

function listOf(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function keyDql(model: SchemaModel, type: TypeModel, key: string, value: unknown): string | undefined {
  switch (key) {
    case "and":
    case "or": {
      const parts = listOf(value)
        .map((v) => filterDql(model, type, v))
        .filter((p): p is string => p !== undefined);
      if (parts.length === 0) return undefined;
      return parts.length === 1 ? parts[0] : `(${parts.join(key === "and" ? " AND " : " OR ")})`;
    }
    case "not": {
      const inner = filterDql(model, type, value);
      return inner === undefined ? undefined : `NOT (${inner})`;
    }
    case "has": {
      const parts = listOf(value).map((name) => {
        const f = type.fields.find((x) => x.name === name);
        return f === undefined ? "has(dgraph.type)" : `has(${dqlPredicateOf(f)})`;
      });
      return parts.length === 0 ? undefined : and(parts);
    }
  }
  const field = type.fields.find((f) => f.name === key);
  if (field === undefined) return undefined;
  if (field.storedId) {
    const values = listOf(value).filter((v) => v !== null);
    return `eq(${dqlPredicateOf(field)}, ${values.length === 0 ? '""' : values.map(dqlValue).join(", ")})`;
  }
  if (field.kind === "id") {
    const ids = listOf(value).map(parseId);
    return `uid(${ids.length === 0 ? "" : ids.join(", ")})`;
  }
  if (typeof value === "boolean") return `eq(${dqlPredicateOf(field)}, ${value})`;
  if (value === null || typeof value !== "object") return undefined;
  const ops: string[] = [];
  for (const op of Object.keys(value as FilterValue).sort()) {
    const part = operatorDql(field, op, (value as FilterValue)[op]);
    if (part !== undefined) ops.push(part);
  }
  return ops.length === 0 ? undefined : and(ops);
}

/** The predicate a filter or order on `f` reads, with its language when tagged. */
export function predicateOf(f: FieldModel): string {
  return f.lang !== undefined ? `${f.predicate}@${f.lang}` : f.predicate;
}

/** `predicateOf` as DQL text (`<iri>@en` where the name needs brackets). */
export function dqlPredicateOf(f: FieldModel): string {
  const p = dqlPredicate(f.predicate);
  return f.lang !== undefined ? `${p}@${f.lang}` : p;
}

function operatorDql(f: FieldModel, op: string, value: unknown): string | undefined {
  const p = dqlPredicateOf(f);
  if (value === undefined) return undefined;
  if (value === null) return op === "eq" ? `NOT (has(${p}))` : undefined;
  switch (op) {
    case "eq":
    case "le":
    case "lt":
    case "ge":
    case "gt":
      return `${op}(${p}, ${dqlValue(value)})`;
    case "in": {
      const values = listOf(value).filter((v) => v !== null);
      return values.length === 0 ? undefined : `eq(${p}, ${values.map(dqlValue).join(", ")})`;
    }
    case "between": {
      const { min, max } = value as { min: unknown; max: unknown };
      return `between(${p}, ${dqlValue(min)}, ${dqlValue(max)})`;
    }
    case "allofterms":
    case "anyofterms":
    case "alloftext":
    case "anyoftext":
      return `${op}(${p}, ${dqlString(String(value))})`;
    case "regexp":
      return `regexp(${p}, ${String(value)})`;
    case "near": {
      const { coordinate, distance } = value as { coordinate: Point; distance: number };
      return `near(${p}, [${coordinate.longitude},${coordinate.latitude}], ${distance})`;
    }
    case "within":
      return `within(${p}, ${polygonText((value as { polygon: PolygonRef }).polygon)})`;
    case "contains": {
      const v = value as { point?: Point; polygon?: PolygonRef };
      if (v.point) return `contains(${p}, [${v.point.longitude},${v.point.latitude}])`;
      return v.polygon ? `contains(${p}, ${polygonText(v.polygon)})` : undefined;
    }
    case "intersects": {
      const v = value as { polygon?: PolygonRef; multiPolygon?: { polygons: PolygonRef[] } };
      if (v.polygon) return `intersects(${p}, ${polygonText(v.polygon)})`;
      return v.multiPolygon
        ? `intersects(${p}, [${v.multiPolygon.polygons.map(polygonText).join(",")}])`
        : undefined;
    }
    default:
      return undefined;
  }
}

interface Point {
  longitude: number;
  latitude: number;
}
interface PolygonRef {
  coordinates: { points: Point[] }[];
}

function polygonText(polygon: PolygonRef): string {
  return `[${polygon.coordinates.map((ring) => `[${ring.points.map((pt) => `[${pt.longitude},${pt.latitude}]`).join(",")}]`).join(",")}]`;
}

/** `{asc: f, then: {desc: g}}` → `orderasc: T.f, orderdesc: T.g`. */
export function orderDql(type: TypeModel, order: unknown): string[] {
  const out: string[] = [];
  let o = order as { asc?: string; desc?: string; then?: unknown } | null | undefined;
  while (o) {
    const name = o.asc ?? o.desc;
    const f = type.fields.find((x) => x.name === name);
    if (f !== undefined) out.push(`${o.asc !== undefined ? "orderasc" : "orderdesc"}: ${dqlPredicateOf(f)}`);
    o = o.then as typeof o;
  }
  return out;
}

/** The index a root function needs, per operator (String fields; other types' single index serves all). */
const STRING_INDEX: Readonly<Record<string, readonly string[]>> = {
  eq: ["hash", "exact"],
  in: ["hash", "exact"],
  le: ["exact"],
  lt: ["exact"],
  ge: ["exact"],
  gt: ["exact"],
  between: ["exact"],
  allofterms: ["term"],
  anyofterms: ["term"],
  alloftext: ["fulltext"],
  anyoftext: ["fulltext"],
  regexp: ["trigram", "regexp"],
};

const RANGE_OPS = new Set(["eq", "in", "le", "lt", "ge", "gt", "between"]);

/**
 * A function of `filter`'s top level that an index can answer, to start the query from (Dgraph promotes a
 * lone `eq` to the root): `uid(...)` for an id list, else the first indexed field operator in key order.
 * `rest` is the filter without that condition: the top level is a conjunction, so the root function and
 * `rest` together select exactly what the whole filter does, and the condition is not evaluated twice.
 */
export function rootFunction(type: TypeModel, filter: unknown): { func: string; rest: unknown } | undefined {
  if (filter === null || typeof filter !== "object") return undefined;
  const value = filter as FilterValue;
  const without = (key: string, ops?: FilterValue): FilterValue => {
    const rest: FilterValue = { ...value };
    if (ops === undefined || Object.keys(ops).length === 0) delete rest[key];
    else rest[key] = ops;
    return rest;
  };
  for (const key of Object.keys(value).sort()) {
    if (key === "and" || key === "or" || key === "not" || key === "has") continue;
    const field = type.fields.find((f) => f.name === key);
    if (field === undefined) continue;
    if (field.storedId) {
      const values = listOf(value[key]).filter((v) => v !== null);
      if (values.length > 0)
        return {
          func: `eq(${dqlPredicateOf(field)}, ${values.map(dqlValue).join(", ")})`,
          rest: without(key),
        };
      continue;
    }
    if (field.kind === "id") {
      const ids = listOf(value[key]).map(parseId);
      if (ids.length > 0) return { func: `uid(${ids.join(", ")})`, rest: without(key) };
      continue;
    }
    const ops = value[key];
    if (ops === null || typeof ops !== "object" || field.search.length === 0 || field.list) continue;
    for (const op of Object.keys(ops as FilterValue).sort()) {
      const arg = (ops as FilterValue)[op];
      if (arg === null || arg === undefined) continue;
      const indexed =
        field.typeName === "String" || field.kind === "enum"
          ? (STRING_INDEX[op] ?? []).some((t) => field.search.includes(t))
          : RANGE_OPS.has(op);
      const func = indexed ? operatorDql(field, op, arg) : undefined;
      if (func === undefined) continue;
      const others: FilterValue = { ...(ops as FilterValue) };
      delete others[op];
      return { func, rest: without(key, others) };
    }
  }
  return undefined;
}
