import { describe, expect, it } from "vitest";
import { GEO_LEVELS, geoCoverTokens, geoTokens } from "../../src/tokenizer/geo.ts";
import { tokenHex } from "../../src/tokenizer/token-bytes.ts";
import { circleBoundingBox, type GeoJsonGeometry } from "../../src/types/geo.ts";

const point = (lng: number, lat: number): GeoJsonGeometry => ({ type: "Point", coordinates: [lng, lat] });
const hexes = (ts: Uint8Array[]) => new Set(ts.map(tokenHex));
const shares = (a: Uint8Array[], b: Uint8Array[]) => {
  const set = hexes(a);
  return b.some((t) => set.has(tokenHex(t)));
};

describe("geo tokenizer", () => {
  it("indexes a point by one cell per level, each token starting with 0x05", () => {
    const tokens = geoTokens(point(-122.4194, 37.7749));
    expect(tokens).toHaveLength(GEO_LEVELS.length);
    for (const t of tokens) expect(t[0]).toBe(0x05);
  });

  it("lets a region's cover find a point inside it", () => {
    const sf = point(-122.4194, 37.7749);
    const bayArea: GeoJsonGeometry = {
      type: "Polygon",
      coordinates: [
        [
          [-123, 37],
          [-121.5, 37],
          [-121.5, 38.5],
          [-123, 38.5],
          [-123, 37],
        ],
      ],
    };
    expect(shares(geoTokens(bayArea), geoTokens(sf))).toBe(true);
    expect(shares(geoCoverTokens([-123, 37, -121.5, 38.5]), geoTokens(sf))).toBe(true);
  });

  it("keeps far-apart points apart at fine levels", () => {
    const paris = geoTokens(point(2.35, 48.85));
    const tokyo = geoTokens(point(139.69, 35.69));
    expect(shares(paris, tokyo)).toBe(false);
  });
});

describe("circleBoundingBox", () => {
  it("spans about 0.009° of latitude per kilometre and finds points inside the circle", () => {
    const [minLng, minLat, maxLng, maxLat] = circleBoundingBox(0, 0, 1000);
    expect(maxLat - minLat).toBeCloseTo(2 * 0.008993, 5);
    expect(maxLng - minLng).toBeCloseTo(2 * 0.008993, 5);
    const near = geoCoverTokens(circleBoundingBox(-122.4194, 37.7749, 5000));
    expect(shares(near, geoTokens(point(-122.41, 37.78)))).toBe(true);
  });
});
