/**
 * The console's Federation panel route: whether an app's graph namespace is an Apollo Federation
 * subgraph, the `_service` SDL a gateway composes, and which of the active deployment's functions serve
 * the schema's `@lambda` fields, with every mismatch, on a real platform.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const PLAIN = `type Person {
  id: ID!
  name: String! @search(by: [exact])
}
`;

const FEDERATED = `type Product @key(fields: "id") {
  id: ID!
  name: String!
  shippingEstimate: Int @lambda
  discount: Float @lambda
}

extend type Review @key(fields: "id") {
  id: ID! @external
  stars: Int
}

type Query {
  greeting(name: String!): String @lambda
}
`;

/** The YogaAppRuntime's default build exports hello, version, apiKey and fail. */
const MANIFEST = JSON.stringify({
  lambdas: {
    "Product.shippingEstimate": "hello",
    "Product.discount": "computeDiscount",
    "Order.total": "version",
  },
});

describe("the Graph tab's Federation panel, per app", () => {
  let t: TestPlatform;
  const federation = (app: string) => t.api("GET", `/api/apps/${app}/graph/federation`);
  const putSchema = async (app: string, schema: string) => {
    const res = await t.api("PUT", `/api/apps/${app}/graph/graphql-schema`, { schema });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestPlatform();
    expect((await t.api("POST", "/api/apps", { name: "plain" })).status).toBe(201);
    const created = await t.api("POST", "/api/apps", { name: "shop" });
    expect(created.status).toBe(201);
    const deployed = await t.deploy("shop", await t.archive({ manifest: MANIFEST }));
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is off, with no SDL and no lambda fields, for an app with no schema and no deployment", async () => {
    const res = await federation("plain");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: false,
      sdl: null,
      schemaError: null,
      deploymentId: null,
      manifestError: null,
      lambdaFields: [],
    });
  });

  it("stays off for a schema without @key", async () => {
    await putSchema("plain", PLAIN);
    const res = await federation("plain");
    expect(res.body.enabled).toBe(false);
    expect(res.body.sdl).toBeNull();
  });

  it("is on with a @key, and shows the SDL that _service answers a gateway", async () => {
    await putSchema("shop", FEDERATED);
    const res = await federation("shop");
    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(true);
    const gateway = await t.api("POST", "/api/apps/shop/graph/graphql", {
      query: "query __ApolloGetServiceDefinition__ { _service { sdl } }",
    });
    expect(res.body.sdl).toBe(gateway.body.data._service.sdl);
    expect(res.body.sdl).toContain('type Product @key(fields: "id")');
    expect(res.body.sdl).toContain('type Review @key(fields: "id") @extends');
    // Filtered as reference §4.4 says: no federation machinery, no get/query of the extended type.
    expect(res.body.sdl).not.toContain("_entities");
    expect(res.body.sdl).not.toContain("union _Entity");
    expect(res.body.sdl).not.toContain("queryReview(");
    expect(res.body.sdl).toContain("addReview(");
  });

  it("matches the schema's @lambda fields with the manifest's lambdas and the deployment's functions", async () => {
    const res = await federation("shop");
    const { activeDeploymentId } = (await t.api("GET", "/api/apps/shop")).body.app;
    expect(res.body.deploymentId).toBe(activeDeploymentId);
    expect(activeDeploymentId).toEqual(expect.any(String));
    expect(res.body.manifestError).toBeNull();
    expect(res.body.lambdaFields).toEqual([
      {
        field: "Order.total",
        function: "version",
        declared: "manifest",
        functionExists: true,
        problem: "the GraphQL schema has no @lambda field Order.total",
      },
      {
        field: "Product.discount",
        function: "computeDiscount",
        declared: "schema+manifest",
        functionExists: false,
        problem: 'the active deployment has no function "computeDiscount"',
      },
      {
        field: "Product.shippingEstimate",
        function: "hello",
        declared: "schema+manifest",
        functionExists: true,
        problem: null,
      },
      {
        field: "Query.greeting",
        function: null,
        declared: "schema",
        functionExists: false,
        problem: `no function is mapped to it: add "Query.greeting": "<function>" to trellis.json's "lambdas"`,
      },
    ]);
  });

  it("turns off again when the @key goes, keeping the lambda map", async () => {
    await putSchema(
      "shop",
      "type Product {\n  id: ID!\n  name: String!\n  shippingEstimate: Int @lambda\n}\n",
    );
    const res = await federation("shop");
    expect(res.body.enabled).toBe(false);
    expect(res.body.sdl).toBeNull();
    expect(res.body.lambdaFields.map((f: { field: string }) => f.field)).toEqual([
      "Order.total",
      "Product.discount",
      "Product.shippingEstimate",
    ]);
  });

  it("needs the admin token, and names a missing app", async () => {
    expect((await t.api("GET", "/api/apps/shop/graph/federation", undefined, "wrong")).status).toBe(401);
    const missing = await federation("nope");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
  });
});
