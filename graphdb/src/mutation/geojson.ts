/** GeoJSON geometries of `geo` values (RDF `^^<geo:geojson>` literals and JSON mutation objects). */
import { GEO_DEPTH, type GeoType } from "../types/geo.ts";

/** A GeoJSON geometry, as stored for `geo` values. */
export interface GeoJson {
  type: GeoType;
  coordinates: unknown[];
}

/**
 * Validates and copies a GeoJSON geometry (`type` plus well-nested `coordinates` of 2–4 numbers per
 * position); null when `value` is not one. `toNumber` reads a coordinate (JSON mutations may carry marked
 * floats).
 */
export function normaliseGeoJson(
  value: unknown,
  toNumber: (v: unknown) => number | undefined,
): GeoJson | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (typeof type !== "string" || !Object.hasOwn(GEO_DEPTH, type)) return null;
  const coords = copyCoordinates(coordinates, GEO_DEPTH[type as GeoType], toNumber);
  if (coords === null) return null;
  return { type: type as GeoType, coordinates: coords };
}

function copyCoordinates(
  v: unknown,
  depth: number,
  toNumber: (v: unknown) => number | undefined,
): unknown[] | null {
  if (!Array.isArray(v)) return null;
  if (depth === 0) {
    if (v.length < 2 || v.length > 4) return null;
    const out: number[] = [];
    for (const x of v) {
      const n = toNumber(x);
      if (n === undefined || !Number.isFinite(n)) return null;
      out.push(n);
    }
    return out;
  }
  const out: unknown[] = [];
  for (const x of v) {
    const c = copyCoordinates(x, depth - 1, toNumber);
    if (c === null) return null;
    out.push(c);
  }
  return out;
}
