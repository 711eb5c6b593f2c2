/**
 * Federation on the database side (reference §4): the `_service` SDL a gateway composes, extended types
 * whose key comes from the owning service and is stored, and `_entities` in the representations' order.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";

const SCHEMA = `
type Mission @key(fields: "id") {
  id: ID!
  crew: [Astronaut] @provides(fields: "name age")
  designation: String! @search(by: [hash])
}
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String @external
  age: Int @external
  nickname: String @external
  missions: [Mission]
}
extend type Product @key(fields: "upc") {
  upc: String! @id @external
  price: Int @external
  weight: Int @external
  inStock: Boolean
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}
type Query {
  hello(name: String!): String @custom(http: { url: "http://127.0.0.1:1/hello", method: GET })
}`;

let dir: string;
let db: GraphDB;
let service: GraphQLService;
const lambdaCalls: { resolver: string; parents: Record<string, unknown>[] | null }[] = [];

const run = async (query: string, variables?: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(await service.execute(0, { query, variables })));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-federation-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db, {
    lambda: async (request) => {
      lambdaCalls.push({ resolver: request.resolver, parents: request.parents });
      return (request.parents ?? []).map((p) => Number(p.price) * 0.01 + Number(p.weight) * 0.5);
    },
  });
  await service.updateSchema(0, SCHEMA);
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("federation: the _service SDL", () => {
  const { serviceSdl, generatedSchema } = buildGraphQLSchema(SCHEMA);
  const sdl = serviceSdl ?? "";

  it("keeps the federation directives' uses but none of the Apollo extras", () => {
    expect(sdl).toContain('type Mission @key(fields: "id") {');
    expect(sdl).toContain('type Astronaut @key(fields: "id") @extends {');
    for (const extra of ["_Entity", "_Any", "_FieldSet", "_Service", "_entities", "directive @key"]) {
      expect(sdl).not.toContain(extra);
    }
    expect(generatedSchema).toContain("_entities(representations: [_Any!]!): [_Entity]!");
  });

  it("has no get/query/aggregate for extended types, and no arguments on fields of extended type", () => {
    expect(sdl).toContain("queryMission(");
    expect(sdl).not.toMatch(/getAstronaut|queryAstronaut|aggregateAstronaut|getProduct/);
    expect(sdl).toContain("addAstronaut(input: [AddAstronautInput!]!");
    expect(sdl).toContain('\tcrew: [Astronaut] @provides(fields: "name age")\n');
    expect(sdl).not.toContain("crewAggregate");
    expect(generatedSchema).toContain("crew(filter: AstronautFilter");
  });

  it("drops @custom and the definitions gateways cannot compose", () => {
    expect(sdl).toContain("hello(name: String!): String\n");
    expect(sdl).not.toMatch(/@custom|directive @auth|directive @generate|directive @cascade/);
    expect(sdl).toContain("directive @lambda on FIELD_DEFINITION");
  });
});

describe("federation: extended types and _entities", () => {
  let mission: string;

  it("stores an extended type's key as given by the owner", async () => {
    const a = await run('mutation { addAstronaut(input: [{ id: "a1" }, { id: "a2" }]) { numUids } }');
    expect(a).toEqual({ data: { addAstronaut: { numUids: 2 } } });
    const m = await run(
      'mutation { addMission(input: [{ designation: "Apollo 11", crew: [{ id: "a1" }, { id: "a2" }] }]) { mission { id crew(order: { asc: id }) { id } } } }',
    );
    mission = m.data.addMission.mission[0].id;
    expect(m.data.addMission.mission[0].crew).toEqual([{ id: "a1" }, { id: "a2" }]);
    const dql = await db.query({ query: '{ q(func: eq(Astronaut.id, "a1")) { Astronaut.id } }' });
    expect(JSON.parse(dql.json)).toEqual({ q: [{ "Astronaut.id": "a1" }] });
    const again = await run('mutation { addAstronaut(input: [{ id: "a1" }]) { numUids } }');
    expect(again.errors[0].message).toContain("already exists");
  });

  it("stores and serves the external fields a @provides names, and only those", async () => {
    const { schema, dqlSchema } = buildGraphQLSchema(SCHEMA);
    const input = schema.getType("AddAstronautInput") as unknown as { getFields(): Record<string, unknown> };
    expect(Object.keys(input.getFields())).toEqual(["id", "name", "age", "missions"]);
    expect(dqlSchema).toContain("<Astronaut.name>: string .");
    expect(dqlSchema).not.toContain("Astronaut.nickname");
    await run(
      'mutation { updateAstronaut(input: { filter: { id: ["a1"] }, set: { name: "Neil", age: 38 } }) { numUids } }',
    );
    const r = await run(`{ getMission(id: "${mission}") { crew(order: { asc: id }) { id name age } } }`);
    expect(r.data.getMission.crew).toEqual([
      { id: "a1", name: "Neil", age: 38 },
      { id: "a2", name: null, age: null },
    ]);
  });

  it("answers representations in order, duplicates repeated, null for a missing entity, mixed typenames", async () => {
    const r = await run(
      `query($r: [_Any!]!) { _entities(representations: $r) {
         __typename
         ... on Astronaut { id missions { designation } }
         ... on Mission { designation }
       } }`,
      {
        r: [
          { __typename: "Astronaut", id: "a2" },
          { __typename: "Mission", id: mission },
          { __typename: "Astronaut", id: "nobody" },
          { __typename: "Astronaut", id: "a2" },
        ],
      },
    );
    expect(r).toEqual({
      data: {
        _entities: [
          { __typename: "Astronaut", id: "a2", missions: [] },
          { __typename: "Mission", designation: "Apollo 11" },
          null,
          { __typename: "Astronaut", id: "a2", missions: [] },
        ],
      },
    });
  });

  it("passes a representation's @requires fields to the entity's lambda as its parent", async () => {
    await run('mutation { addProduct(input: [{ upc: "p1", inStock: true }]) { numUids } }');
    lambdaCalls.length = 0;
    const r = await run(
      'query { _entities(representations: [{ __typename: "Product", upc: "p1", price: 100, weight: 5 }]) { ... on Product { upc inStock shippingEstimate } } }',
    );
    expect(r).toEqual({ data: { _entities: [{ upc: "p1", inStock: true, shippingEstimate: 3.5 }] } });
    expect(lambdaCalls).toHaveLength(1);
    expect(lambdaCalls[0].parents?.[0]).toMatchObject({ upc: "p1", price: 100, weight: 5 });
  });

  it("refuses representations it cannot resolve, with Dgraph's texts", async () => {
    const unknown = await run(
      '{ _entities(representations: [{ __typename: "Nope", id: "1" }]) { __typename } }',
    );
    expect(unknown.errors[0].message).toBe("type Nope not found in the schema");
    const noKey = await run('{ _entities(representations: [{ __typename: "Astronaut" }]) { __typename } }');
    expect(noKey.errors[0].message).toBe(
      "unable to extract value for key field `id` from 0th item of `_representations`",
    );
    const sdl = await run("{ _service { sdl } }");
    expect(sdl.data._service.sdl).toContain('type Astronaut @key(fields: "id") @extends {');
  });
});
