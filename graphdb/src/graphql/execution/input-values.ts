/** GraphQL input values as stored: geo inputs become GeoJSON, other scalars are written as given. */
import type { FieldModel } from "../schema/type-model.ts";

interface PointRef {
  longitude: number;
  latitude: number;
}
interface PolygonRef {
  coordinates: { points: PointRef[] }[];
}

const position = (p: PointRef): [number, number] => [p.longitude, p.latitude];
const rings = (p: PolygonRef) => p.coordinates.map((ring) => ring.points.map(position));

/** `PointRef`/`PolygonRef`/`MultiPolygonRef` → `{"type": …, "coordinates": …}`. */
export function geoJson(typeName: string, value: unknown): unknown {
  switch (typeName) {
    case "Point":
      return { type: "Point", coordinates: position(value as PointRef) };
    case "Polygon":
      return { type: "Polygon", coordinates: rings(value as PolygonRef) };
    case "MultiPolygon":
      return {
        type: "MultiPolygon",
        coordinates: (value as { polygons: PolygonRef[] }).polygons.map(rings),
      };
    default:
      return value;
  }
}

/** The stored form of a scalar, enum or geo field's value. */
export function storedValue(f: FieldModel, value: unknown): unknown {
  return f.kind === "geo" ? geoJson(f.typeName, value) : value;
}
