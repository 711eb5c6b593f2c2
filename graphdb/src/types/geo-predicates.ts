/**
 * Geometric tests behind DQL's geo functions (`near`, `within`, `contains`, `intersects`), as Dgraph's
 * `types/geofilter.go` applies them to a stored geometry. Polygons are tested in the plane of
 * longitude/latitude (as go-geom's `xy` does), holes included; distances are great-circle (haversine)
 * metres on a spherical Earth. Positions are `[lng, lat]`.
 */
import { DgraphError } from "../core/errors.ts";
import { EARTH_RADIUS_METERS, type GeoJsonGeometry, type Position, parseGeoJson } from "./geo.ts";

/** A polygon's rings: the shell first, then its holes (each closed: last position = first). */
export type Rings = readonly (readonly Position[])[];

export type GeoOp = "near" | "within" | "contains" | "intersects";

/** The geometry a query names: a point, or polygons (a Polygon is one, a MultiPolygon several). */
export type GeoShape = { kind: "point"; point: Position } | { kind: "polygons"; polygons: Rings[] };

/** A geo function's query, prepared: `meters` is `near`'s distance (0 for the others). */
export interface GeoQuery {
  op: GeoOp;
  shape: GeoShape;
  meters: number;
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres between two positions (haversine). */
export function haversineMeters(a: Position, b: Position): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Vec = [number, number, number];

function unit(p: Position): Vec {
  const lat = p[1] * RAD;
  const lng = p[0] * RAD;
  return [Math.cos(lat) * Math.cos(lng), Math.cos(lat) * Math.sin(lng), Math.sin(lat)];
}

function cross(a: Vec, b: Vec): Vec {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vec, b: Vec): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Great-circle distance in metres from `p` to the arc from `a` to `b`. */
export function segmentDistanceMeters(p: Position, a: Position, b: Position): number {
  const ends = Math.min(haversineMeters(p, a), haversineMeters(p, b));
  const va = unit(a);
  const vb = unit(b);
  const n = cross(va, vb);
  const len = Math.hypot(n[0], n[1], n[2]);
  if (len < 1e-15) return ends;
  const nn: Vec = [n[0] / len, n[1] / len, n[2] / len];
  const vp = unit(p);
  const s = dot(vp, nn);
  // The foot of the perpendicular from p on the great circle lies on the arc iff it is between a and b.
  const foot: Vec = [vp[0] - s * nn[0], vp[1] - s * nn[1], vp[2] - s * nn[2]];
  if (dot(cross(va, foot), nn) >= 0 && dot(cross(foot, vb), nn) >= 0) {
    return Math.min(ends, Math.asin(Math.min(1, Math.abs(s))) * EARTH_RADIUS_METERS);
  }
  return ends;
}

/** Twice the signed area of triangle (a, b, c): > 0 when c is left of a→b. */
function orient(a: Position, b: Position, c: Position): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function sign(x: number): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/** `p` on the closed segment a–b. */
export function onSegment(p: Position, a: Position, b: Position): boolean {
  return (
    orient(a, b, p) === 0 &&
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** The closed segments a–b and c–d share a point (crossing or touching). */
export function segmentsIntersect(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = sign(orient(a, b, c));
  const o2 = sign(orient(a, b, d));
  const o3 = sign(orient(c, d, a));
  const o4 = sign(orient(c, d, b));
  if (o1 !== o2 && o3 !== o4) return true;
  return onSegment(c, a, b) || onSegment(d, a, b) || onSegment(a, c, d) || onSegment(b, c, d);
}

/** The segments cross at one point interior to both (not merely touching). */
function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  return (
    sign(orient(a, b, c)) * sign(orient(a, b, d)) < 0 && sign(orient(c, d, a)) * sign(orient(c, d, b)) < 0
  );
}

/** Where `p` is against a ring: 1 inside, 0 on its boundary, -1 outside (even-odd rule). */
export function ringSide(p: Position, ring: readonly Position[]): number {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j];
    const b = ring[i];
    if (onSegment(p, a, b)) return 0;
    if (b[1] > p[1] !== a[1] > p[1]) {
      const x = a[0] + ((p[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
      if (p[0] < x) inside = !inside;
    }
  }
  return inside ? 1 : -1;
}

/** Where `p` is against a polygon with holes: 1 inside, 0 on a boundary, -1 outside (or in a hole). */
export function polygonSide(p: Position, rings: Rings): number {
  const shell = ringSide(p, rings[0]);
  if (shell <= 0) return shell;
  for (let i = 1; i < rings.length; i++) {
    const hole = ringSide(p, rings[i]);
    if (hole >= 0) return hole > 0 ? -1 : 0;
  }
  return 1;
}

/** The point is in the polygon or on its boundary. */
export function pointInPolygon(p: Position, rings: Rings): boolean {
  return polygonSide(p, rings) >= 0;
}

function* edges(ring: readonly Position[]): Generator<[Position, Position]> {
  for (let i = 1; i < ring.length; i++) yield [ring[i - 1], ring[i]];
}

function boxesOverlap(a: Rings, b: Rings): boolean {
  const [ax0, ay0, ax1, ay1] = ringBox(a[0]);
  const [bx0, by0, bx1, by1] = ringBox(b[0]);
  return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

function ringBox(ring: readonly Position[]): [number, number, number, number] {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const [x, y] of ring) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/** Two polygons share a point: a boundary meets the other's, or one lies in the other. */
export function polygonsIntersect(a: Rings, b: Rings): boolean {
  if (!boxesOverlap(a, b)) return false;
  for (const ra of a) {
    for (const [p, q] of edges(ra)) {
      for (const rb of b) for (const [r, s] of edges(rb)) if (segmentsIntersect(p, q, r, s)) return true;
    }
  }
  // Boundaries apart: one polygon is inside the other (not in a hole) or they are disjoint.
  return pointInPolygon(a[0][0], b) || pointInPolygon(b[0][0], a);
}

function midpoint(a: Position, b: Position): Position {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

/** `inner` lies entirely in `outer` (boundaries may touch; a hole of `outer` must not cut into it). */
export function polygonWithin(inner: Rings, outer: Rings): boolean {
  const shell = inner[0];
  for (const v of shell) if (!pointInPolygon(v, outer)) return false;
  for (const [p, q] of edges(shell)) {
    if (!pointInPolygon(midpoint(p, q), outer)) return false;
    for (const ring of outer) for (const [r, s] of edges(ring)) if (segmentsCross(p, q, r, s)) return false;
  }
  // A hole of `outer` inside `inner`'s area (not in one of its own holes) takes area from it.
  for (let i = 1; i < outer.length; i++) {
    for (const v of outer[i]) if (polygonSide(v, inner) > 0) return false;
  }
  return true;
}

/** Some point of the polygon is within `meters` of `center`. */
export function polygonNear(center: Position, meters: number, rings: Rings): boolean {
  if (pointInPolygon(center, rings)) return true;
  for (const ring of rings) {
    for (const [a, b] of edges(ring)) if (segmentDistanceMeters(center, a, b) <= meters) return true;
  }
  return false;
}

/** The polygons of a stored geometry (Polygon, MultiPolygon), or undefined for other types. */
function polygonsOf(g: GeoJsonGeometry): Rings[] | undefined {
  if (g.type === "Polygon") return [g.coordinates];
  if (g.type === "MultiPolygon") return g.coordinates;
  return undefined;
}

/**
 * Does a stored geometry pass the query (Dgraph's `MatchesFilter`)? Only points and (multi)polygons are
 * ever matched; `contains` matches (multi)polygons only.
 */
export function geoMatches(q: GeoQuery, g: GeoJsonGeometry): boolean {
  const polys = polygonsOf(g);
  if (g.type !== "Point" && polys === undefined) return false;
  const shape = q.shape;
  switch (q.op) {
    case "near": {
      if (shape.kind !== "point") return false;
      if (g.type === "Point") return haversineMeters(shape.point, g.coordinates) <= q.meters;
      return polys!.some((p) => polygonNear(shape.point, q.meters, p));
    }
    case "within": {
      if (shape.kind !== "polygons") return false;
      if (g.type === "Point") return shape.polygons.some((p) => pointInPolygon(g.coordinates, p));
      return polys!.every((inner) => shape.polygons.some((outer) => polygonWithin(inner, outer)));
    }
    case "contains": {
      if (polys === undefined) return false;
      if (shape.kind === "point") return polys.some((p) => pointInPolygon(shape.point, p));
      return shape.polygons.every((inner) => polys.some((outer) => polygonWithin(inner, outer)));
    }
    case "intersects": {
      if (shape.kind !== "polygons") return false;
      if (g.type === "Point") return shape.polygons.some((p) => pointInPolygon(g.coordinates, p));
      return polys!.some((a) => shape.polygons.some((b) => polygonsIntersect(a, b)));
    }
  }
}

/** Positions in a geometry: the weight of testing it, for the query budget. */
export function geoWeight(g: GeoJsonGeometry): number {
  switch (g.type) {
    case "Point":
      return 1;
    case "MultiPoint":
    case "LineString":
      return g.coordinates.length;
    case "MultiLineString":
    case "Polygon":
      return g.coordinates.reduce((n, r) => n + r.length, 0);
    case "MultiPolygon":
      return g.coordinates.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
  }
}

function nesting(c: unknown): number {
  let depth = 0;
  for (let x = c; Array.isArray(x); x = x[0]) depth++;
  return depth;
}

/**
 * The geometry of a geo function's argument (Dgraph's `convertToGeom`): `[lng, lat]` a Point,
 * `[[[lng, lat], ...], ...]` a Polygon (shell, then holes), one more level a MultiPolygon; a GeoJSON
 * object (text) is taken as it is. Only points and (multi)polygons can be queried with.
 */
export function geoQueryShape(arg: unknown): GeoShape {
  let g: GeoJsonGeometry;
  if (typeof arg === "string") g = parseGeoJson(arg);
  else {
    const type = ({ 1: "Point", 3: "Polygon", 4: "MultiPolygon" } as const)[nesting(arg) as 1 | 3 | 4];
    if (type === undefined) throw new DgraphError("Invalid coordinates");
    const polys = type === "Polygon" ? [arg] : type === "MultiPolygon" ? (arg as unknown[]) : [];
    for (const p of polys as Position[][][]) {
      if (p.length === 0) throw new DgraphError("Got empty polygon.");
      const ring = p[0];
      const [a, b] = [ring[0], ring[ring.length - 1]];
      if (ring.length === 0 || a[0] !== b[0] || a[1] !== b[1]) {
        throw new DgraphError("Last coord not same as first");
      }
    }
    g = parseGeoJson({ type, coordinates: arg });
  }
  if (g.type === "Point") return { kind: "point", point: g.coordinates };
  const polygons = polygonsOf(g);
  if (polygons === undefined) throw new DgraphError(`Cannot query using a geometry of type *geom.${g.type}`);
  return { kind: "polygons", polygons };
}

/** `[minLng, minLat, maxLng, maxLat]` of a query shape's positions. */
export function shapeBoundingBox(shape: GeoShape): [number, number, number, number] {
  if (shape.kind === "point") {
    const [x, y] = shape.point;
    return [x, y, x, y];
  }
  let box: [number, number, number, number] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (const p of shape.polygons) {
    const [x0, y0, x1, y1] = ringBox(p[0]);
    box = [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)];
  }
  return box;
}
