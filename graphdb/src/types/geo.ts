import { DgraphError } from "../core/errors.ts";

/**
 * GeoJSON geometries as Dgraph stores them (go-geom): Point, MultiPoint, LineString, MultiLineString,
 * Polygon, MultiPolygon. Positions are `[longitude, latitude]` (an optional third ordinate is kept).
 */
export type Position = number[];

export type GeoJsonGeometry =
  | { type: "Point"; coordinates: Position }
  | { type: "MultiPoint"; coordinates: Position[] }
  | { type: "LineString"; coordinates: Position[] }
  | { type: "MultiLineString"; coordinates: Position[][] }
  | { type: "Polygon"; coordinates: Position[][] }
  | { type: "MultiPolygon"; coordinates: Position[][][] };

export type GeoType = GeoJsonGeometry["type"];

/** Coordinate nesting depth of each geometry type (Point: a position = depth 0). */
export const GEO_DEPTH: Readonly<Record<GeoType, number>> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

function invalid(text: string, why: string): DgraphError {
  return new DgraphError(`Error while unmarshalling: [${text}] as geojson: ${why}`);
}

function checkPosition(p: unknown, text: string): Position {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3) throw invalid(text, "invalid position");
  for (const n of p) {
    if (typeof n !== "number" || !Number.isFinite(n)) throw invalid(text, "invalid coordinate");
  }
  return p.slice() as Position;
}

function checkCoordinates(c: unknown, depth: number, text: string): unknown {
  if (depth === 0) return checkPosition(c, text);
  if (!Array.isArray(c)) throw invalid(text, "coordinates must be an array");
  return c.map((x) => checkCoordinates(x, depth - 1, text));
}

function checkShape(g: GeoJsonGeometry, text: string): void {
  switch (g.type) {
    case "LineString":
      if (g.coordinates.length < 2) throw invalid(text, "a LineString needs at least 2 positions");
      break;
    case "Polygon":
      checkRings(g.coordinates, text);
      break;
    case "MultiPolygon":
      for (const poly of g.coordinates) checkRings(poly, text);
      break;
    default:
      break;
  }
}

function checkRings(rings: Position[][], text: string): void {
  for (const ring of rings) {
    if (ring.length < 4) throw invalid(text, "a polygon ring needs at least 4 positions");
    const a = ring[0];
    const b = ring[ring.length - 1];
    if (a[0] !== b[0] || a[1] !== b[1]) throw invalid(text, "a polygon ring must be closed");
  }
}

/**
 * Validates a GeoJSON geometry given as an object (JSON mutations) or as text (RDF `geo:geojson`
 * literals, query arguments; Dgraph also accepts single quotes for double quotes in the text).
 * Returns a normalised copy `{type, coordinates}`; throws DgraphError when it isn't a geometry.
 */
export function parseGeoJson(input: unknown): GeoJsonGeometry {
  let obj = input;
  const text = typeof input === "string" ? input : safeStringify(input);
  if (typeof input === "string") {
    try {
      obj = JSON.parse(input.replaceAll("'", '"'));
    } catch {
      throw invalid(text, "invalid JSON");
    }
  }
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw invalid(text, "not an object");
  const { type, coordinates } = obj as { type?: unknown; coordinates?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(GEO_DEPTH, type)) {
    throw invalid(text, `unsupported geometry type ${String(type)}`);
  }
  const geoType = type as GeoType;
  const geometry = {
    type: geoType,
    coordinates: checkCoordinates(coordinates, GEO_DEPTH[geoType], text),
  } as GeoJsonGeometry;
  checkShape(geometry, text);
  return geometry;
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Every position of a geometry. */
export function positionsOf(g: GeoJsonGeometry): Position[] {
  switch (g.type) {
    case "Point":
      return [g.coordinates];
    case "MultiPoint":
    case "LineString":
      return g.coordinates;
    case "MultiLineString":
    case "Polygon":
      return g.coordinates.flat();
    case "MultiPolygon":
      return g.coordinates.flat(2);
  }
}

/** `[minLng, minLat, maxLng, maxLat]` of a geometry. */
export function boundingBox(g: GeoJsonGeometry): [number, number, number, number] {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of positionsOf(g)) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/** The mean Earth radius (IUGG), for great-circle distances. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

/**
 * `[minLng, minLat, maxLng, maxLat]` enclosing the circle of `meters` around a point (for `near`):
 * latitude span from the arc length, longitude span widened by 1/cos(latitude), clamped to the globe.
 */
export function circleBoundingBox(
  lng: number,
  lat: number,
  meters: number,
): [number, number, number, number] {
  const dLat = (meters / EARTH_RADIUS_METERS) * (180 / Math.PI);
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cos = Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180);
  if (cos < 1e-9 || dLat * (1 / cos) >= 180) return [-180, minLat, 180, maxLat];
  const dLng = dLat / cos;
  return [Math.max(-180, lng - dLng), minLat, Math.min(180, lng + dLng), maxLat];
}
