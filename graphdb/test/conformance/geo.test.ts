/**
 * DQL conformance: the geo functions near, within, contains and intersects (reference §4.1), at the root
 * through the geo index and in @filter, over points and polygons (one with a hole).
 *
 * Distances from the Eiffel tower [2.2945, 48.8584]: Louvre 3162.5 m, Notre-Dame 4097.4 m (haversine,
 * mean Earth radius). The point [2.2, 48.85] is about 3656 m west of the Paris box's edge.
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

const point = (lng: number, lat: number) =>
  `${JSON.stringify(JSON.stringify({ type: "Point", coordinates: [lng, lat] }))}^^<geo:geojson>`;
const polygon = (rings: number[][][]) =>
  `${JSON.stringify(JSON.stringify({ type: "Polygon", coordinates: rings }))}^^<geo:geojson>`;
const box = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];

/** uids ascend louvre < eiffel < notre < london < paris < donut < hole < body < tour. */
const PLACES = {
  schema: ["name: string @index(exact) .", "loc: geo @index(geo) .", "area: geo .", "spot: [uid] ."].join(
    "\n",
  ),
  data: [
    `_:louvre <name> "Louvre" .`,
    `_:louvre <loc> ${point(2.3376, 48.8606)} .`,
    `_:eiffel <name> "Eiffel" .`,
    `_:eiffel <loc> ${point(2.2945, 48.8584)} .`,
    `_:notre <name> "NotreDame" .`,
    `_:notre <loc> ${point(2.3499, 48.853)} .`,
    `_:london <name> "London" .`,
    `_:london <loc> ${point(-0.1276, 51.5072)} .`,
    `_:paris <name> "ParisBox" .`,
    `_:paris <loc> ${polygon([box(2.25, 48.8, 2.45, 48.9)])} .`,
    `_:donut <name> "Donut" .`,
    `_:donut <loc> ${polygon([box(0, 0, 10, 10), box(4, 4, 6, 6)])} .`,
    `_:hole <name> "HolePoint" .`,
    `_:hole <loc> ${point(5, 5)} .`,
    `_:body <name> "BodyPoint" .`,
    `_:body <loc> ${point(2, 2)} .`,
    `_:body <area> ${point(2, 2)} .`,
    `_:tour <name> "Tour" .`,
    "_:tour <spot> _:louvre .",
    "_:tour <spot> _:eiffel .",
    "_:tour <spot> _:notre .",
    "_:tour <spot> _:london .",
  ].join("\n"),
};

const names = (...ns: string[]) => ns.map((name) => ({ name }));
const root = (fn: string) => `{ q(func: ${fn}) { name } }`;
const filtered = (fn: string) => `{ q(func: has(name)) @filter(${fn}) { name } }`;
const INNER_PARIS = JSON.stringify([box(2.3, 48.85, 2.36, 48.87)]);
const FRANCE = JSON.stringify([box(2, 48, 3, 49.5)]);
const IN_HOLE = JSON.stringify([box(4.5, 4.5, 5.5, 5.5)]);
const IN_BODY = JSON.stringify([box(1, 1, 3, 3)]);
const WEST_PARIS = JSON.stringify([box(2.2, 48.85, 2.3, 48.86)]);

const cases: Case[] = [
  {
    ...PLACES,
    name: "near at root: points within the distance, either side of a boundary",
    query: `{
      a(func: near(loc, [2.2945, 48.8584], 3100)) { name }
      b(func: near(loc, [2.2945, 48.8584], 3200)) { name }
      c(func: near(loc, [2.2945, 48.8584], 4200)) { name }
    }`,
    // inferred: ParisBox contains the centre, so it is near at any distance.
    expected: {
      a: names("Eiffel", "ParisBox"),
      b: names("Louvre", "Eiffel", "ParisBox"),
      c: names("Louvre", "Eiffel", "NotreDame", "ParisBox"),
    },
  },
  {
    ...PLACES,
    name: "near matches a polygon once the circle reaches its edge",
    query: `{
      short(func: near(loc, [2.2, 48.85], 3500)) { name }
      long(func: near(loc, [2.2, 48.85], 3800)) { name }
    }`,
    expected: { short: [], long: names("ParisBox") },
  },
  {
    ...PLACES,
    name: "near in a filter, at the root and on an edge",
    query: `{
      q(func: has(name)) @filter(near(loc, [2.2945, 48.8584], 3200) and not eq(name, "ParisBox")) { name }
      t(func: eq(name, "Tour")) { spot @filter(near(loc, [2.2945, 48.8584], 4200)) { name } }
    }`,
    expected: {
      q: names("Louvre", "Eiffel"),
      t: [{ spot: names("Louvre", "Eiffel", "NotreDame") }],
    },
  },
  {
    ...PLACES,
    name: "within at root: points and polygons entirely inside",
    query: `{
      inner(func: within(loc, ${INNER_PARIS})) { name }
      france(func: within(loc, ${FRANCE})) { name }
    }`,
    expected: {
      inner: names("Louvre", "NotreDame"),
      france: names("Louvre", "Eiffel", "NotreDame", "ParisBox"),
    },
  },
  {
    ...PLACES,
    name: "within a polygon with a hole leaves out what is in the hole",
    query: `{
      donut(func: within(loc, ${JSON.stringify([box(0, 0, 10, 10), box(4, 4, 6, 6)])})) { name }
      around(func: within(loc, ${JSON.stringify([box(-1, -1, 11, 11)])})) { name }
    }`,
    // inferred: Dgraph's S2 loops keep only the shell; holes are honoured here. A polygon is within itself.
    expected: { donut: names("Donut", "BodyPoint"), around: names("Donut", "HolePoint", "BodyPoint") },
  },
  {
    ...PLACES,
    name: "within in a filter",
    query: filtered(`within(loc, ${INNER_PARIS})`),
    expected: { q: names("Louvre", "NotreDame") },
  },
  {
    ...PLACES,
    name: "contains a point at root: polygons around it, not one whose hole holds it",
    query: `{
      body(func: contains(loc, [2, 2])) { name }
      hole(func: contains(loc, [5, 5])) { name }
      paris(func: contains(loc, [2.3, 48.85])) { name }
    }`,
    expected: { body: names("Donut"), hole: [], paris: names("ParisBox") },
  },
  {
    ...PLACES,
    name: "contains a polygon at root and in a filter",
    query: `{
      inner(func: contains(loc, ${INNER_PARIS})) { name }
      body(func: contains(loc, ${IN_BODY})) { name }
      hole(func: contains(loc, ${IN_HOLE})) { name }
      f(func: has(name)) @filter(contains(loc, [2, 2])) { name }
    }`,
    expected: { inner: names("ParisBox"), body: names("Donut"), hole: [], f: names("Donut") },
  },
  {
    ...PLACES,
    name: "intersects at root: points inside and polygons overlapping",
    query: `{
      west(func: intersects(loc, ${WEST_PARIS})) { name }
      hole(func: intersects(loc, ${IN_HOLE})) { name }
    }`,
    expected: { west: names("Eiffel", "ParisBox"), hole: names("HolePoint") },
  },
  {
    ...PLACES,
    name: "intersects a multipolygon, at root and in a filter",
    query: `{
      r(func: intersects(loc, [${WEST_PARIS}, ${IN_HOLE}])) { name }
      f(func: has(name)) @filter(intersects(loc, [${WEST_PARIS}, ${IN_HOLE}])) { name }
    }`,
    expected: {
      r: names("Eiffel", "ParisBox", "HolePoint"),
      f: names("Eiffel", "ParisBox", "HolePoint"),
    },
  },
  {
    ...PLACES,
    name: "a geo function at root on a predicate without @index(geo)",
    query: root("near(area, [2, 2], 1000)"),
    errorExact: ": Predicate area is not indexed",
  },
  {
    ...PLACES,
    name: "geo functions need their index in a filter too",
    query: filtered("within(area, [[[0, 0], [3, 0], [3, 3], [0, 0]]])"),
    errorExact: ": Predicate area is not indexed",
  },
  {
    ...PLACES,
    name: "near needs a point",
    query: root(`near(loc, ${INNER_PARIS}, 10)`),
    errorExact: ": Require a point for a within query.",
  },
  {
    ...PLACES,
    name: "within and intersects need a polygon",
    query: root("within(loc, [2, 2])"),
    errorExact: ": Require a polygon for within query",
  },
  {
    ...PLACES,
    name: "near refuses a negative distance",
    query: root("near(loc, [2, 2], -5)"),
    errorExact: ": Distance cannot be negative",
  },
];

describe("conformance: geo functions", () => {
  table(cases);
});
