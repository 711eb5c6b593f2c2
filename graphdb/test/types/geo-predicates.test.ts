import { describe, expect, it } from "vitest";
import type { GeoJsonGeometry } from "../../src/types/geo.ts";
import {
  type GeoQuery,
  geoMatches,
  geoQueryShape,
  haversineMeters,
  pointInPolygon,
  polygonNear,
  polygonSide,
  polygonsIntersect,
  polygonWithin,
  segmentDistanceMeters,
  segmentsIntersect,
  shapeBoundingBox,
} from "../../src/types/geo-predicates.ts";

const box = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];
const SQUARE = [box(0, 0, 10, 10)];
const DONUT = [box(0, 0, 10, 10), box(4, 4, 6, 6)];
const CONCAVE = [
  [
    [0, 0],
    [10, 0],
    [10, 10],
    [5, 2],
    [0, 10],
    [0, 0],
  ],
];

describe("haversineMeters", () => {
  it("measures great-circle distances", () => {
    expect(haversineMeters([0, 0], [0, 0])).toBe(0);
    // One degree of arc on the mean Earth radius.
    expect(haversineMeters([0, 0], [1, 0])).toBeCloseTo(111_195.08, 1);
    expect(haversineMeters([0, 0], [0, 1])).toBeCloseTo(111_195.08, 1);
    expect(haversineMeters([2.2945, 48.8584], [2.3376, 48.8606])).toBeCloseTo(3162.5, 0);
    // Across the antimeridian, the short way.
    expect(haversineMeters([179.5, 0], [-179.5, 0])).toBeCloseTo(111_195.08, 1);
  });
});

describe("segmentDistanceMeters", () => {
  it("is the perpendicular distance when the foot falls on the arc, else the nearer end", () => {
    expect(segmentDistanceMeters([5, 1], [0, 0], [10, 0])).toBeCloseTo(111_195.08, 0);
    expect(segmentDistanceMeters([12, 0], [0, 0], [10, 0])).toBeCloseTo(2 * 111_195.08, 0);
    expect(segmentDistanceMeters([3, 0], [3, 0], [3, 0])).toBe(0);
  });
});

describe("segmentsIntersect", () => {
  it("sees crossings, touches and collinear overlaps, not parallel or apart segments", () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [1, 5])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [3, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [2, 0], [0, 1], [2, 1])).toBe(false);
    expect(segmentsIntersect([0, 0], [1, 0], [2, 0], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [1, 0], [2, 0], [2, 1])).toBe(false);
  });
});

describe("pointInPolygon", () => {
  it("counts the inside and the boundary, not the outside", () => {
    expect(pointInPolygon([5, 5], SQUARE)).toBe(true);
    expect(pointInPolygon([10, 5], SQUARE)).toBe(true);
    expect(pointInPolygon([0, 0], SQUARE)).toBe(true);
    expect(pointInPolygon([11, 5], SQUARE)).toBe(false);
  });

  it("leaves out a hole's interior, keeps its boundary", () => {
    expect(polygonSide([5, 5], DONUT)).toBe(-1);
    expect(polygonSide([4, 5], DONUT)).toBe(0);
    expect(polygonSide([2, 2], DONUT)).toBe(1);
  });

  it("follows a concave shell", () => {
    expect(pointInPolygon([5, 5], CONCAVE)).toBe(false);
    expect(pointInPolygon([5, 1], CONCAVE)).toBe(true);
    expect(pointInPolygon([1, 8], CONCAVE)).toBe(true);
  });
});

describe("polygonsIntersect", () => {
  it("overlapping, touching, nested and apart polygons", () => {
    expect(polygonsIntersect(SQUARE, [box(5, 5, 15, 15)])).toBe(true);
    expect(polygonsIntersect(SQUARE, [box(10, 0, 12, 2)])).toBe(true);
    expect(polygonsIntersect(SQUARE, [box(2, 2, 3, 3)])).toBe(true);
    expect(polygonsIntersect([box(2, 2, 3, 3)], SQUARE)).toBe(true);
    expect(polygonsIntersect(SQUARE, [box(11, 11, 12, 12)])).toBe(false);
  });

  it("a polygon inside a hole does not intersect", () => {
    expect(polygonsIntersect(DONUT, [box(4.5, 4.5, 5.5, 5.5)])).toBe(false);
    expect(polygonsIntersect(DONUT, [box(3, 3, 5, 5)])).toBe(true);
  });
});

describe("polygonWithin", () => {
  it("inside, itself, crossing out, around", () => {
    expect(polygonWithin([box(1, 1, 2, 2)], SQUARE)).toBe(true);
    expect(polygonWithin(SQUARE, SQUARE)).toBe(true);
    expect(polygonWithin([box(5, 5, 15, 15)], SQUARE)).toBe(false);
    expect(polygonWithin(SQUARE, [box(1, 1, 2, 2)])).toBe(false);
  });

  it("a hole of the outer polygon cutting into the inner one", () => {
    expect(polygonWithin([box(1, 1, 3, 3)], DONUT)).toBe(true);
    expect(polygonWithin([box(3, 3, 7, 7)], DONUT)).toBe(false);
    expect(polygonWithin([box(4.5, 4.5, 5.5, 5.5)], DONUT)).toBe(false);
  });

  it("an edge leaving a concave polygon between vertices inside it", () => {
    expect(polygonWithin([box(1, 4, 9, 5)], CONCAVE)).toBe(false);
  });
});

describe("polygonNear", () => {
  it("near when the centre is inside or an edge is within reach", () => {
    expect(polygonNear([5, 5], 1, SQUARE)).toBe(true);
    expect(polygonNear([11, 5], 120_000, SQUARE)).toBe(true);
    expect(polygonNear([11, 5], 100_000, SQUARE)).toBe(false);
    // In the hole, 1 degree from its boundary.
    expect(polygonNear([5, 5], 100_000, DONUT)).toBe(false);
    expect(polygonNear([5, 5], 120_000, DONUT)).toBe(true);
  });
});

describe("geoMatches", () => {
  const pt = (x: number, y: number): GeoJsonGeometry => ({ type: "Point", coordinates: [x, y] });
  const poly = (rings: number[][][]): GeoJsonGeometry => ({ type: "Polygon", coordinates: rings });
  const q = (op: GeoQuery["op"], arg: unknown, meters = 0): GeoQuery => ({
    op,
    shape: geoQueryShape(arg),
    meters,
  });

  it("near: points by distance, polygons by reach; other types never", () => {
    expect(geoMatches(q("near", [0, 0], 111_200), pt(1, 0))).toBe(true);
    expect(geoMatches(q("near", [0, 0], 111_190), pt(1, 0))).toBe(false);
    expect(geoMatches(q("near", [11, 5], 120_000), poly(SQUARE))).toBe(true);
    const line: GeoJsonGeometry = {
      type: "LineString",
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    };
    expect(geoMatches(q("near", [0, 0], 1e6), line)).toBe(false);
  });

  it("within, contains, intersects", () => {
    expect(geoMatches(q("within", SQUARE), pt(2, 2))).toBe(true);
    expect(geoMatches(q("within", DONUT), pt(5, 5))).toBe(false);
    expect(geoMatches(q("within", SQUARE), poly([box(1, 1, 2, 2)]))).toBe(true);
    expect(geoMatches(q("contains", [5, 5]), poly(DONUT))).toBe(false);
    expect(geoMatches(q("contains", [2, 2]), poly(DONUT))).toBe(true);
    expect(geoMatches(q("contains", [2, 2]), pt(2, 2))).toBe(false);
    expect(geoMatches(q("contains", [box(1, 1, 2, 2)]), poly(SQUARE))).toBe(true);
    expect(geoMatches(q("intersects", [box(9, 9, 12, 12)]), poly(SQUARE))).toBe(true);
    expect(geoMatches(q("intersects", [[box(20, 20, 21, 21)], [box(9, 9, 12, 12)]]), pt(11, 11))).toBe(true);
  });
});

describe("geoQueryShape", () => {
  it("reads a point, a polygon, a multipolygon and GeoJSON text", () => {
    expect(geoQueryShape([1, 2])).toEqual({ kind: "point", point: [1, 2] });
    expect(geoQueryShape(SQUARE)).toEqual({ kind: "polygons", polygons: [SQUARE] });
    expect(geoQueryShape([SQUARE, DONUT])).toEqual({ kind: "polygons", polygons: [SQUARE, DONUT] });
    expect(geoQueryShape("{'type':'Point','coordinates':[3,4]}")).toEqual({ kind: "point", point: [3, 4] });
    expect(shapeBoundingBox(geoQueryShape([SQUARE, [box(20, -5, 21, 1)]]))).toEqual([0, -5, 21, 10]);
  });

  it("refuses other shapes with Dgraph's texts", () => {
    expect(() => geoQueryShape([[1, 2]])).toThrow("Invalid coordinates");
    expect(() =>
      geoQueryShape([
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      ]),
    ).toThrow("Last coord not same as first");
    expect(() => geoQueryShape("{'type':'LineString','coordinates':[[0,0],[1,1]]}")).toThrow(
      "Cannot query using a geometry of type *geom.LineString",
    );
  });
});
