/**
 * Trellis beside a Federation 1 subgraph (an `@apollo/subgraph` SDL without `@link`, with `extend type` and
 * `@external`), composed by a real Apollo gateway with IntrospectAndCompose (reference §7.2 step 3, "a fed1
 * variant"). The accounts service owns User and Product and extends Trellis's Review; Trellis owns Review
 * and extends User and Product. `@requires` is computed by a lambda server speaking Dgraph's protocol on
 * loopback (`lambdaUrl`).
 */
import { createServer, type Server } from "node:http";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApolloSubgraph,
  type Gateway,
  type GraphQLJson,
  startApolloSubgraph,
  startGateway,
  startTrellisSubgraph,
  type TrellisSubgraph,
} from "./federation-subgraphs.ts";

const TRELLIS_SCHEMA = `
type Review @key(fields: "id") {
  id: ID!
  body: String! @search(by: [term])
  author: User @provides(fields: "username")
  product: Product
}
extend type User @key(fields: "id") {
  id: ID! @external
  username: String @external
  reviews: [Review] @hasInverse(field: author)
}
extend type Product @key(fields: "upc") {
  upc: String! @id @external
  price: Int @external
  weight: Int @external
  reviews: [Review] @hasInverse(field: product)
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}`;

/** Federation 1: no `@link`, the directives used bare, a Trellis type extended with `extend type`. */
const ACCOUNTS_SCHEMA = parse(`
  type Query { users: [User] user(id: ID!): User topProducts: [Product] }
  type Mutation { createUser(id: ID!, username: String!): User }
  type User @key(fields: "id") { id: ID! username: String }
  type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }
  extend type Review @key(fields: "id") { id: ID! @external permalink: String }
`);

interface User {
  id: string;
  username: string;
}
const USERS: User[] = [
  { id: "u1", username: "alice" },
  { id: "u2", username: "bob" },
  { id: "u3", username: "carol (not in Trellis)" },
];
const PRODUCTS = [
  { upc: "p1", name: "Tent", price: 1000, weight: 5 },
  { upc: "p2", name: "Mug", price: 20, weight: 2 },
  { upc: "p3", name: "Not In Trellis", price: 50, weight: 1 },
];
/** How often the accounts service was asked for a User by reference (its `_entities`). */
let userLookups = 0;

let trellis: TrellisSubgraph;
let accounts: ApolloSubgraph;
let gateway: Gateway;
let lambdaServer: Server;
const lambdaRequests: { resolver: string; parents: Record<string, unknown>[] | null }[] = [];

async function ok(query: string): Promise<GraphQLJson["data"]> {
  const r = await gateway.run(query);
  expect(r.errors).toBeUndefined();
  return r.data;
}

const byBody = (a: { body: string }, b: { body: string }) => a.body.localeCompare(b.body);

beforeAll(async () => {
  // A lambda server speaking Dgraph's protocol: {resolver, parents, args} in, one value per parent out.
  lambdaServer = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      const request = JSON.parse(body) as (typeof lambdaRequests)[number];
      lambdaRequests.push(request);
      const estimates = (request.parents ?? []).map(
        (p) => Number(p.weight) * 0.5 + (Number(p.price) > 500 ? 0 : 10),
      );
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(estimates));
    });
  });
  await new Promise<void>((resolve) => lambdaServer.listen(0, "127.0.0.1", resolve));
  const { port } = lambdaServer.address() as { port: number };
  trellis = await startTrellisSubgraph(TRELLIS_SCHEMA, {
    lambdaUrl: `http://127.0.0.1:${port}/graphql-worker`,
  });

  accounts = await startApolloSubgraph({
    typeDefs: ACCOUNTS_SCHEMA,
    resolvers: {
      Query: {
        users: () => USERS,
        user: (_: unknown, { id }: { id: string }) => USERS.find((u) => u.id === id),
        topProducts: () => PRODUCTS,
      },
      Mutation: {
        createUser: (_: unknown, user: User) => {
          USERS.push(user);
          return user;
        },
      },
      User: {
        __resolveReference: (ref: { id: string }) => {
          userLookups++;
          return USERS.find((u) => u.id === ref.id);
        },
      },
      Product: { __resolveReference: (ref: { upc: string }) => PRODUCTS.find((p) => p.upc === ref.upc) },
      Review: {
        __resolveReference: (ref: { id: string }) => ({
          id: ref.id,
          permalink: `https://reviews.example/${ref.id}`,
        }),
      },
    },
  });

  // The spec's flow for the seed: the owner has the users and products; Trellis adds them by the same key
  // (with the provided username), then its own reviews of them.
  const seeds = [
    'mutation { addUser(input: [{ id: "u1", username: "alice" }, { id: "u2", username: "bob" }]) { numUids } }',
    'mutation { addProduct(input: [{ upc: "p1" }, { upc: "p2" }]) { numUids } }',
    `mutation { addReview(input: [
      { body: "Sturdy and dry", author: { id: "u1" }, product: { upc: "p1" } },
      { body: "Too heavy to carry", author: { id: "u2" }, product: { upc: "p1" } },
      { body: "Keeps coffee warm", author: { id: "u1" }, product: { upc: "p2" } }
    ]) { numUids } }`,
  ];
  for (const seed of seeds) {
    const r = await trellis.graphql(seed);
    if (r.errors) throw new Error(`seeding Trellis: ${r.errors[0].message}`);
  }

  gateway = await startGateway([
    { name: "trellis", url: trellis.url },
    { name: "accounts", url: accounts.url },
  ]);
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await accounts?.stop();
  await trellis?.close();
  await new Promise((resolve) => lambdaServer?.close(resolve));
});

describe("Trellis and a Federation 1 subgraph behind an Apollo gateway", () => {
  it("composes the accounts service as Federation 1 (no @link in its SDL)", async () => {
    const res = await fetch(accounts.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ _service { sdl } }" }),
    });
    const { data } = (await res.json()) as GraphQLJson;
    expect(data._service.sdl).not.toContain("@link");
    expect(data._service.sdl).toMatch(/extend type Review\s+@key\(fields: "id"\)/);
  });

  it("extends the accounts' users with Trellis's reviews, a user Trellis lacks as null", async () => {
    const data = await ok("{ users { id username reviews { body } } }");
    for (const user of data.users) user.reviews?.sort(byBody);
    expect(data.users).toEqual([
      {
        id: "u1",
        username: "alice",
        reviews: [{ body: "Keeps coffee warm" }, { body: "Sturdy and dry" }],
      },
      { id: "u2", username: "bob", reviews: [{ body: "Too heavy to carry" }] },
      { id: "u3", username: "carol (not in Trellis)", reviews: null },
    ]);
  });

  it("extends Trellis's reviews with the accounts' fields (Review.permalink, Product.name)", async () => {
    const data = await ok(
      '{ queryReview(filter: { body: { anyofterms: "heavy" } }) { id body permalink product { upc name } } }',
    );
    const [review] = data.queryReview;
    expect(review).toEqual({
      id: review.id,
      body: "Too heavy to carry",
      permalink: `https://reviews.example/${review.id}`,
      product: { upc: "p1", name: "Tent" },
    });
    expect(review.id).toMatch(/^0x[0-9a-f]+$/);
  });

  it("serves the @provides username from Trellis without asking the accounts service", async () => {
    const before = userLookups;
    const data = await ok("{ queryReview { body author { id username } } }");
    expect(data.queryReview.sort(byBody)).toEqual([
      { body: "Keeps coffee warm", author: { id: "u1", username: "alice" } },
      { body: "Sturdy and dry", author: { id: "u1", username: "alice" } },
      { body: "Too heavy to carry", author: { id: "u2", username: "bob" } },
    ]);
    expect(userLookups).toBe(before);
  });

  it("computes @requires in the lambda server from the fields the gateway fetched, a product Trellis lacks as null", async () => {
    lambdaRequests.length = 0;
    const data = await ok("{ topProducts { upc name shippingEstimate } }");
    expect(data.topProducts).toEqual([
      { upc: "p1", name: "Tent", shippingEstimate: 2.5 },
      { upc: "p2", name: "Mug", shippingEstimate: 11 },
      { upc: "p3", name: "Not In Trellis", shippingEstimate: null },
    ]);
    expect(lambdaRequests).toHaveLength(1);
    expect(lambdaRequests[0].resolver).toBe("Product.shippingEstimate");
    expect(lambdaRequests[0].parents).toEqual([
      expect.objectContaining({ upc: "p1", price: 1000, weight: 5 }),
      expect.objectContaining({ upc: "p2", price: 20, weight: 2 }),
    ]);
  });

  // The gateway asks for `__typename` of each nested entity it fetches elsewhere (`product { __typename
  // upc }`): the entity's own type must still be selected for `_Entity`.
  it("crosses back and forth in one query: accounts → Trellis → accounts → Trellis", async () => {
    const data = await ok(
      '{ user(id: "u1") { username reviews { body product { name shippingEstimate } } } }',
    );
    expect(data.user.reviews.sort(byBody)).toEqual([
      { body: "Keeps coffee warm", product: { name: "Mug", shippingEstimate: 11 } },
      { body: "Sturdy and dry", product: { name: "Tent", shippingEstimate: 2.5 } },
    ]);
  });

  it("runs the spec's flow: create in the owner, add<T> with the same id in Trellis, query through the gateway", async () => {
    expect(await ok('mutation { createUser(id: "u9", username: "dana") { id } }')).toEqual({
      createUser: { id: "u9" },
    });
    // Known to the owner only: Trellis has no such entity yet.
    expect(await ok('{ user(id: "u9") { username reviews { body } } }')).toEqual({
      user: { username: "dana", reviews: null },
    });
    expect(await ok('mutation { addUser(input: [{ id: "u9", username: "dana" }]) { numUids } }')).toEqual({
      addUser: { numUids: 1 },
    });
    await ok(
      'mutation { addReview(input: [{ body: "First trip", author: { id: "u9" }, product: { upc: "p2" } }]) { numUids } }',
    );
    expect(await ok('{ user(id: "u9") { username reviews { body author { username } } } }')).toEqual({
      user: { username: "dana", reviews: [{ body: "First trip", author: { username: "dana" } }] },
    });
  });
});
