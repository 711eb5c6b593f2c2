/**
 * What a Federation 2 subgraph beside Trellis must declare (the README's "Federation" section), checked by
 * composing Trellis's own `_service` SDL (Federation 1 style) with a Fed-2 neighbour in `@apollo/composition`,
 * the composition `@apollo/gateway` runs: each rule once kept (composes) and once broken (Apollo's error).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

/** Trellis owns Mission; it extends Astronaut (providing name and age) and Product (requiring price, weight). */
const TRELLIS_SCHEMA = `
type Mission @key(fields: "id") {
  id: ID!
  designation: String!
  crew: [Astronaut] @provides(fields: "name age")
}
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String @external
  age: Int @external
  missions: [Mission]
}
extend type Product @key(fields: "upc") {
  upc: String! @id @external
  price: Int @external
  weight: Int @external
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}`;

/** A Fed-2 neighbour that follows every rule: the base each case breaks one rule of. */
const NEIGHBOUR = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
type Query { astronauts: [Astronaut] products: [Product] }
type Astronaut @key(fields: "id") { id: ID! name: String @shareable age: Int @shareable }
type Product @key(fields: "upc") { upc: String! price: Int weight: Int }
`;

let dir: string;
let db: GraphDB;
let trellisSdl: string;

/** Composes Trellis's `_service` SDL with `neighbour`: the error messages, or the hint codes. */
function compose(neighbour: string): { errors: string[]; hints: string[] } {
  const result = composeServices([
    { name: "trellis", typeDefs: parse(trellisSdl), url: "http://127.0.0.1:1/graphql" },
    { name: "other", typeDefs: parse(neighbour), url: "http://127.0.0.1:2/graphql" },
  ]);
  if (result.errors) return { errors: result.errors.map((e) => e.message), hints: [] };
  return { errors: [], hints: result.hints.map((h) => h.definition.code) };
}

/** `NEIGHBOUR` with each [from, to] replacement applied (each `from` must occur). */
function neighbourWith(...edits: [string, string][]): string {
  return edits.reduce((sdl, [from, to]) => {
    if (!sdl.includes(from)) throw new Error(`the neighbour SDL has no ${from}`);
    return sdl.replace(from, to);
  }, NEIGHBOUR);
}

const composes = (neighbour: string) => expect(compose(neighbour).errors).toEqual([]);
const fails = (neighbour: string, message: string) =>
  expect(compose(neighbour).errors).toEqual(expect.arrayContaining([expect.stringContaining(message)]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-composition-"));
  db = new GraphDB({ dir });
  const service = new GraphQLService(db);
  await service.updateSchema(0, TRELLIS_SCHEMA);
  const result = JSON.parse(JSON.stringify(await service.execute(0, { query: "{ _service { sdl } }" })));
  trellisSdl = result.data._service.sdl;
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a Federation 2 subgraph beside Trellis", () => {
  it("composes with Trellis's Federation 1 SDL (no @link), hinting only at Dgraph's unused DgraphIndex", () => {
    expect(trellisSdl).not.toContain("@link");
    expect(compose(NEIGHBOUR)).toEqual({ errors: [], hints: ["UNUSED_ENUM_TYPE"] });
    // Any Federation 2 version of the link.
    composes(neighbourWith(["federation/v2.3", "federation/v2.0"]));
  });

  it("imports every federation directive it uses through its @link", () => {
    fails(
      neighbourWith(['import: ["@key", "@shareable"]', 'import: ["@shareable"]']),
      'Unknown directive "@key". If you meant the "@key" federation directive, you should use fully-qualified name "@federation__key"',
    );
  });

  it("marks @shareable the fields Trellis names in a @provides, and nothing for those it @requires", () => {
    fails(
      neighbourWith(["name: String @shareable", "name: String"]),
      'Non-shareable field "Astronaut.name" is resolved from multiple subgraphs: it is resolved from subgraphs "other" and "trellis"',
    );
    // price and weight (read by Trellis's @requires) are not @shareable in NEIGHBOUR, and it composes.
    expect(NEIGHBOUR).toContain("price: Int weight: Int }");
  });

  it("keys each type Trellis extends by Trellis's key field, resolvable (other keys may be added)", () => {
    const unkeyed = neighbourWith(['type Product @key(fields: "upc")', "type Product"]);
    fails(unkeyed, 'Non-shareable field "Product.upc" is resolved from multiple subgraphs');
    const otherKey = neighbourWith([
      'type Product @key(fields: "upc") { upc: String!',
      'type Product @key(fields: "sku") { sku: ID! upc: String!',
    ]);
    fails(otherKey, 'Non-shareable field "Product.upc" is resolved from multiple subgraphs');
    composes(
      neighbourWith([
        'type Product @key(fields: "upc") { upc: String!',
        'type Product @key(fields: "upc") @key(fields: "sku") { sku: ID! upc: String!',
      ]),
    );
    fails(
      neighbourWith([
        'type Astronaut @key(fields: "id")',
        'type Astronaut @key(fields: "id", resolvable: false)',
      ]),
      'none of the @key defined on type "Astronaut" in subgraph "other" are resolvable',
    );
  });

  it("gives the key and each field Trellis marks @external the type Trellis declares, nullability included", () => {
    fails(
      neighbourWith(["id: ID! name", "id: String! name"]),
      'Type of field "Astronaut.id" is incompatible across subgraphs: it has type "String!" in subgraph "other" but type "ID!" in subgraph "trellis"',
    );
    fails(
      neighbourWith(["name: String @shareable", "name: String! @shareable"]),
      'Type of field "Astronaut.name" is incompatible across subgraphs (where marked @external)',
    );
    fails(
      neighbourWith(["price: Int weight", "weight"]),
      'Field "Product.price" is marked @external on all the subgraphs in which it is listed (subgraph "trellis")',
    );
  });

  it("adds fields to a Trellis-owned type by its key; a field Trellis resolves only @shareable, @external or @override", () => {
    const mission = (fields: string, imports = "") =>
      neighbourWith(
        ['"@shareable"]', `"@shareable"${imports}]`],
        ["type Product", `type Mission @key(fields: "id") { id: ID! ${fields} }\ntype Product`],
      );
    composes(mission("patch: String"));
    fails(
      mission("designation: String!"),
      'Non-shareable field "Mission.designation" is resolved from multiple subgraphs',
    );
    composes(mission("designation: String! @shareable"));
    composes(
      mission(
        'designation: String! @external badge: String @requires(fields: "designation")',
        ', "@external", "@requires"',
      ),
    );
    composes(mission('designation: String! @override(from: "trellis")', ', "@override"'));
  });
});
