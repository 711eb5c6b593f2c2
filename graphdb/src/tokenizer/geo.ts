import type { TypedValue } from "../core/scalar.ts";
import { boundingBox, type GeoJsonGeometry } from "../types/geo.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";

/**
 * `geo`: a coarse grid index (Dgraph uses S2 cells; this is a simpler stand-in with the same role).
 * At level L the world is cut into 2^L × 2^L cells of equal longitude/latitude size. A token is
 * `[0x05][L][x u32 BE][y u32 BE]`.
 *
 * - A point is indexed by its cell at every level of GEO_LEVELS.
 * - Any other geometry is indexed by the cells covering its bounding box at the finest level where at
 *   most MAX_COVER_CELLS cells suffice, plus every coarser ancestor of those cells.
 *
 * So a region query covering cells of the query shape at any level meets the points inside it, and two
 * overlapping shapes share at least an ancestor cell. Lossy: matches are re-checked geometrically.
 */
export const GEO_LEVELS = [2, 4, 6, 8, 10, 12, 14, 16] as const;
export const MAX_COVER_CELLS = 16;

function cellX(lng: number, level: number): number {
  const n = 2 ** level;
  return Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
}

function cellY(lat: number, level: number): number {
  const n = 2 ** level;
  return Math.min(n - 1, Math.max(0, Math.floor(((lat + 90) / 180) * n)));
}

/** The token of cell (x, y) at `level`. */
export function geoCellToken(level: number, x: number, y: number): Uint8Array {
  const out = new Uint8Array(10);
  out[0] = TokenizerId.geo;
  out[1] = level;
  const view = new DataView(out.buffer);
  view.setUint32(2, x);
  view.setUint32(6, y);
  return out;
}

function pushUnique(out: Uint8Array[], seen: Set<string>, level: number, x: number, y: number): void {
  const key = `${level}/${x}/${y}`;
  if (seen.has(key)) return;
  seen.add(key);
  out.push(geoCellToken(level, x, y));
}

/**
 * Cover tokens of a bounding box `[minLng, minLat, maxLng, maxLat]`: the finest level with at most
 * MAX_COVER_CELLS cells, plus all coarser levels. Also what a query (`near`, `within`, …) looks up.
 */
export function geoCoverTokens(bbox: readonly [number, number, number, number]): Uint8Array[] {
  const [minX, minY, maxX, maxY] = bbox;
  let finest: number = GEO_LEVELS[0];
  for (const level of GEO_LEVELS) {
    const cells =
      (cellX(maxX, level) - cellX(minX, level) + 1) * (cellY(maxY, level) - cellY(minY, level) + 1);
    if (cells > MAX_COVER_CELLS) break;
    finest = level;
  }
  const out: Uint8Array[] = [];
  const seen = new Set<string>();
  for (const level of GEO_LEVELS) {
    if (level > finest) break;
    for (let x = cellX(minX, level); x <= cellX(maxX, level); x++) {
      for (let y = cellY(minY, level); y <= cellY(maxY, level); y++) pushUnique(out, seen, level, x, y);
    }
  }
  return out;
}

/** Index tokens of a geometry (see the module comment). */
export function geoTokens(g: GeoJsonGeometry): Uint8Array[] {
  if (g.type === "Point") {
    const [lng, lat] = g.coordinates;
    return GEO_LEVELS.map((level) => geoCellToken(level, cellX(lng, level), cellY(lat, level)));
  }
  return geoCoverTokens(boundingBox(g));
}

export const geoTokenizer: Tokenizer = {
  name: "geo",
  id: TokenizerId.geo,
  sortable: false,
  lossy: true,
  allowedTypes: ["geo"],
  tokens(value: TypedValue): Uint8Array[] {
    return geoTokens(value.value as GeoJsonGeometry);
  },
};
