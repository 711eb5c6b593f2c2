/**
 * Issue 13, the gateway plan's `@requires` served by a Trellis app (reference §7.2): a real Apollo gateway
 * (`@apollo/gateway` with IntrospectAndCompose, under `@apollo/server`) composes Trellis's graph database,
 * served over HTTP on loopback, with an `@apollo/subgraph` that owns `Product` and its `price`/`weight`.
 * Trellis extends Product with `shippingEstimate: Float @requires(fields: "price weight") @lambda`, and a
 * real built TypeScript app serves that field (trellis.json `lambdas`). Through the gateway: the estimates
 * are what the function computed from the external fields the gateway fetched from the owner (each call
 * recorded as lambda `Product.shippingEstimate`), a function that throws for one product fails that
 * product's field only, and a product Trellis lacks comes back with the owner's fields.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApolloSubgraph,
  type Gateway,
  startApolloSubgraph,
  startGateway,
  startTrellisSubgraph,
  type TrellisSubgraph,
} from "../../graphdb/test/graphql/federation-subgraphs.ts";
import { buildApp, type ExecutionRecord, type LoadedApp, loadApp } from "../../runtime/src/index.ts";

/** The app: the estimate from the product's key and the two external fields, each parameter filled by name. */
const SOURCE = `import type { i32 } from "@trellis/sdk";

/** Product.shippingEstimate: price and weight are the owner's fields, fetched by the gateway. */
export function shippingEstimate(upc: string, price: i32, weight: i32): number {
  console.log("estimate " + upc + " price=" + price + " weight=" + weight);
  if (weight <= 0) throw new Error("cannot estimate shipping for " + upc + ": weight " + weight);
  return price / 100 + weight / 2;
}
`;

const MANIFEST = { lambdas: { "Product.shippingEstimate": "shippingEstimate" } };

const TRELLIS_SCHEMA = `
extend type Product @key(fields: "upc") {
  upc: String! @id @external
  price: Int @external
  weight: Int @external
  inStock: Boolean
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}`;

/** The owner: a Federation 2 subgraph with the products' prices and weights. */
const OWNER_SCHEMA = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { products(upcs: [String!]!): [Product] }
  type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }
`);

const PRODUCTS = [
  { upc: "p1", name: "Kettle", price: 1000, weight: 5 },
  { upc: "p2", name: "Lamp", price: 250, weight: 12 },
  { upc: "p3", name: "Not In Trellis", price: 40, weight: 1 },
  { upc: "p4", name: "Gift Card", price: 500, weight: 0 },
];

let root: string;
let app: LoadedApp;
let trellis: TrellisSubgraph;
let owner: ApolloSubgraph;
let gateway: Gateway;
const records: ExecutionRecord[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trellis-gateway-app-"));
  const dir = join(root, "shipping-app");
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "package.json"), '{ "name": "shipping-app", "private": true }');
  await writeFile(join(dir, "trellis.json"), JSON.stringify(MANIFEST));
  await writeFile(join(dir, "src/index.ts"), SOURCE);
  const { outDir } = await buildApp(dir);
  app = await loadApp(outDir, { env: {}, onExecution: (e) => records.push(e) });

  trellis = await startTrellisSubgraph(TRELLIS_SCHEMA, { lambda: app.lambda });
  owner = await startApolloSubgraph({
    typeDefs: OWNER_SCHEMA,
    resolvers: {
      Query: {
        products: (_: unknown, { upcs }: { upcs: string[] }) =>
          upcs.map((upc) => PRODUCTS.find((p) => p.upc === upc)),
      },
      Product: { __resolveReference: (ref: { upc: string }) => PRODUCTS.find((p) => p.upc === ref.upc) },
    },
  });

  // The spec's flow: the owner has the products; Trellis adds its own by the same key. p3 is not added.
  const added = await trellis.graphql(
    'mutation { addProduct(input: [{ upc: "p1", inStock: true }, { upc: "p2", inStock: false }, { upc: "p4", inStock: true }]) { numUids } }',
  );
  expect(added).toEqual({ data: { addProduct: { numUids: 3 } } });

  gateway = await startGateway([
    { name: "trellis", url: trellis.url },
    { name: "owner", url: owner.url },
  ]);
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await owner?.stop();
  await trellis?.close();
  await app?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The calls recorded since `records` was last cleared, as `lambda function status: log`. */
const calls = () =>
  records
    .map((e) => `${e.lambda} ${e.function} ${e.status}: ${e.logs.map((l) => l.message).join(" | ")}`)
    .sort();

describe("a @requires field served by a Trellis app function, through an Apollo gateway", () => {
  it("answers with what the function computed from the external fields the gateway fetched", async () => {
    records.length = 0;
    const r = await gateway.run(
      '{ products(upcs: ["p1", "p2"]) { upc name price weight inStock shippingEstimate } }',
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      products: [
        { upc: "p1", name: "Kettle", price: 1000, weight: 5, inStock: true, shippingEstimate: 12.5 },
        { upc: "p2", name: "Lamp", price: 250, weight: 12, inStock: false, shippingEstimate: 8.5 },
      ],
    });
    // One call per product, each served as the lambda Product.shippingEstimate with the owner's values.
    expect(calls()).toEqual([
      "Product.shippingEstimate shippingEstimate success: estimate p1 price=1000 weight=5",
      "Product.shippingEstimate shippingEstimate success: estimate p2 price=250 weight=12",
    ]);
  });

  it("fails only the field of the product whose function throws", async () => {
    records.length = 0;
    const r = await gateway.run(
      '{ products(upcs: ["p1", "p4", "p2"]) { upc name price inStock shippingEstimate } }',
    );
    expect(r.data).toEqual({
      products: [
        { upc: "p1", name: "Kettle", price: 1000, inStock: true, shippingEstimate: 12.5 },
        { upc: "p4", name: "Gift Card", price: 500, inStock: true, shippingEstimate: null },
        { upc: "p2", name: "Lamp", price: 250, inStock: false, shippingEstimate: 8.5 },
      ],
    });
    // The error of that field, at its path, naming the failed call in the app's records.
    const failed = records.find((e) => e.status === "error");
    expect(r.errors).toEqual([
      {
        message: "cannot estimate shipping for p4: weight 0",
        path: ["products", 1, "shippingEstimate"],
        extensions: { code: "FUNCTION_ERROR", executionId: failed?.executionId, serviceName: "trellis" },
      },
    ]);
    expect(calls()).toEqual([
      "Product.shippingEstimate shippingEstimate error: estimate p4 price=500 weight=0",
      "Product.shippingEstimate shippingEstimate success: estimate p1 price=1000 weight=5",
      "Product.shippingEstimate shippingEstimate success: estimate p2 price=250 weight=12",
    ]);
  });

  it("returns a product Trellis lacks with the owner's fields, and Trellis's fields null", async () => {
    records.length = 0;
    const r = await gateway.run(
      '{ products(upcs: ["p3", "p1"]) { upc name price weight inStock shippingEstimate } }',
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      products: [
        { upc: "p3", name: "Not In Trellis", price: 40, weight: 1, inStock: null, shippingEstimate: null },
        { upc: "p1", name: "Kettle", price: 1000, weight: 5, inStock: true, shippingEstimate: 12.5 },
      ],
    });
    // No entity, no call: the function ran for p1 only.
    expect(calls()).toEqual([
      "Product.shippingEstimate shippingEstimate success: estimate p1 price=1000 weight=5",
    ]);
  });
});
