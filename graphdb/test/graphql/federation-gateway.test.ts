/**
 * Trellis's GraphQL API as a subgraph of a real Apollo gateway (`@apollo/gateway` with IntrospectAndCompose),
 * beside a Federation 2 subgraph (`@apollo/subgraph`) that owns Astronaut and Product (reference §7.2):
 * queries that cross both ways, `@provides` served by Trellis alone, `@requires` computed by a Trellis
 * lambda from the fields the gateway fetched, and an entity Trellis lacks coming back as null.
 */
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApolloSubgraph,
  type Gateway,
  startApolloSubgraph,
  startGateway,
  startTrellisSubgraph,
  type TrellisSubgraph,
} from "./federation-subgraphs.ts";

const TRELLIS_SCHEMA = `
type Mission @key(fields: "id") {
  id: ID!
  designation: String! @search(by: [hash])
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
  inStock: Boolean
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}`;

const OTHER_SCHEMA = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
  type Query { astronauts: [Astronaut] products: [Product] }
  type Astronaut @key(fields: "id") { id: ID! name: String @shareable age: Int @shareable }
  type Product @key(fields: "upc") { upc: String! price: Int weight: Int }
`);

const ASTRONAUTS = [
  { id: "a1", name: "Neil Armstrong", age: 38 },
  { id: "a2", name: "Buzz Aldrin", age: 39 },
  { id: "a3", name: "Not In Trellis", age: 40 },
];
const PRODUCTS = [{ upc: "p1", price: 1000, weight: 5 }];

let trellis: TrellisSubgraph;
let other: ApolloSubgraph;
let gateway: Gateway;

beforeAll(async () => {
  trellis = await startTrellisSubgraph(TRELLIS_SCHEMA, {
    // The @requires field, computed from the fields the gateway fetched from the owner.
    lambda: async ({ parents }) =>
      (parents ?? []).map((p) => Number(p.weight) * 0.5 + (Number(p.price) > 500 ? 0 : 10)),
  });

  other = await startApolloSubgraph({
    typeDefs: OTHER_SCHEMA,
    resolvers: {
      Query: { astronauts: () => ASTRONAUTS, products: () => PRODUCTS },
      Astronaut: { __resolveReference: (ref: { id: string }) => ASTRONAUTS.find((a) => a.id === ref.id) },
      Product: { __resolveReference: (ref: { upc: string }) => PRODUCTS.find((p) => p.upc === ref.upc) },
    },
  });

  // The spec's flow: the owner has the astronauts; Trellis adds them by the same id, then its own data.
  await trellis.graphql(
    'mutation { addAstronaut(input: [{ id: "a1", name: "Neil Armstrong", age: 38 }, { id: "a2" }]) { numUids } }',
  );
  await trellis.graphql(
    'mutation { addMission(input: [{ designation: "Apollo 11", crew: [{ id: "a1" }, { id: "a2" }] }]) { numUids } }',
  );
  await trellis.graphql('mutation { addProduct(input: [{ upc: "p1", inStock: true }]) { numUids } }');

  gateway = await startGateway([
    { name: "trellis", url: trellis.url },
    { name: "other", url: other.url },
  ]);
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await other?.stop();
  await trellis?.close();
});

describe("Trellis behind an Apollo gateway", () => {
  it("joins the owner's astronauts with Trellis's missions (_entities, in order, a missing one null)", async () => {
    const r = await gateway.run("{ astronauts { id name missions { designation } } }");
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      astronauts: [
        { id: "a1", name: "Neil Armstrong", missions: [] },
        { id: "a2", name: "Buzz Aldrin", missions: [] },
        { id: "a3", name: "Not In Trellis", missions: null },
      ],
    });
  });

  it("serves @provides fields from Trellis alone, and passes Trellis's own root fields through", async () => {
    // Fields of an extended type take no arguments in the SDL a gateway composes (reference §4.3).
    const r = await gateway.run(
      '{ queryMission(filter: { designation: { eq: "Apollo 11" } }) { designation crew { id name age } } }',
    );
    expect(r.errors).toBeUndefined();
    const [mission] = r.data.queryMission;
    expect(mission.designation).toBe("Apollo 11");
    // Trellis answers name and age itself: the owner would say "Buzz Aldrin" for a2, Trellis has none.
    expect(
      [...mission.crew].sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: "a1", name: "Neil Armstrong", age: 38 },
      { id: "a2", name: null, age: null },
    ]);
  });

  it("computes a @requires field in Trellis from the fields the gateway fetched from the owner", async () => {
    const r = await gateway.run("{ products { upc price inStock shippingEstimate } }");
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ products: [{ upc: "p1", price: 1000, inStock: true, shippingEstimate: 2.5 }] });
  });

  it("passes mutations through to Trellis", async () => {
    const r = await gateway.run('mutation { addMission(input: [{ designation: "Apollo 12" }]) { numUids } }');
    expect(r).toEqual({ data: { addMission: { numUids: 1 } } });
  });
});
