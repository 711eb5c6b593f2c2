/**
 * Turning DQL result values into GraphQL values: geo values from GeoJSON to Dgraph's `Point`/`Polygon`/
 * `MultiPolygon` objects, and the aggregates of `<T>AggregateResult` computed from fetched values.
 */
import { type FieldNode, Kind } from "graphql";

type Position = [number, number];
const point = ([longitude, latitude]: Position) => ({ longitude, latitude });
const polygon = (rings: Position[][]) => ({
  coordinates: rings.map((ring) => ({ points: ring.map(point) })),
});

/** GeoJSON (as DQL returns it) → the GraphQL geo object of `typeName`. */
export function geoValue(typeName: string, value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const geo = value as { type?: string; coordinates?: unknown };
  // Already a GraphQL geo object (the points inside a converted Polygon): keep it.
  if (geo.type === undefined) return value;
  switch (typeName) {
    case "Point":
      return geo.type === "Point" ? point(geo.coordinates as Position) : null;
    case "Polygon":
      return geo.type === "Polygon" ? polygon(geo.coordinates as Position[][]) : null;
    case "MultiPolygon":
      return geo.type === "MultiPolygon"
        ? { polygons: (geo.coordinates as Position[][][]).map(polygon) }
        : null;
    default:
      return value;
  }
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `{count, fMin, fMax, fSum, fAvg}` over nodes holding each field's value under its field name, keyed by
 * the response keys of `fields`. An empty set gives count 0 and null for the rest. `count` is given when
 * the engine counted the nodes instead of returning them.
 */
export function aggregateResult(
  nodes: readonly Record<string, unknown>[],
  fields: readonly FieldNode[],
  count = nodes.length,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const node of fields) {
    if (node.kind !== Kind.FIELD) continue;
    const key = node.alias?.value ?? node.name.value;
    const name = node.name.value;
    if (name === "count") {
      out[key] = count;
      continue;
    }
    if (name === "__typename") continue;
    const m = /^(.*)(Min|Max|Sum|Avg)$/.exec(name);
    if (m === null) continue;
    const values = nodes.map((n) => n[m[1]]).filter((v) => v !== undefined && v !== null);
    if (values.length === 0) {
      out[key] = null;
      continue;
    }
    switch (m[2]) {
      case "Min":
        out[key] = values.reduce((a, b) => (compare(a, b) <= 0 ? a : b));
        break;
      case "Max":
        out[key] = values.reduce((a, b) => (compare(a, b) >= 0 ? a : b));
        break;
      case "Sum":
        out[key] = values.reduce((a: number, b) => a + Number(b), 0);
        break;
      case "Avg":
        out[key] = values.reduce((a: number, b) => a + Number(b), 0) / values.length;
        break;
    }
  }
  return out;
}
