/**
 * One response key asked in fragments on several types: `... on Dog { name } ... on Cat { name }` reads
 * two predicates under one key, which DQL cannot alias twice at a level; an interface field asked in
 * each implementation's fragment is one predicate. Both must answer as graphql-js would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const SCHEMA = `
interface Named { id: ID!  name: String! @search(by: [exact]) }
type Dog implements Named { barks: Int  toys: [Toy] }
type Cat implements Named { lives: Int  toys: [Toy] }
type Toy { id: ID!  label: String  price: Int }
type Bird { id: ID!  name: String!  wings: Int }
union Pet = Dog | Cat | Bird
type Owner { id: ID!  nick: String! @id  pets: [Pet] }
`;

let dir: string;
let db: GraphDB;
let service: GraphQLService;

async function gql(query: string) {
  return JSON.parse(JSON.stringify(await service.execute(0, { query })));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-fragment-keys-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(0, SCHEMA);
  const add = await gql(`mutation { addOwner(input: [{ nick: "o", pets: [
    { dogRef: { name: "Rex", barks: 3, toys: [{ label: "ball", price: 2 }] } },
    { catRef: { name: "Tom", lives: 9, toys: [{ label: "mouse", price: 5 }] } },
    { birdRef: { name: "Tweety", wings: 2 } } ] }]) { numUids } }`);
  expect(add.errors).toBeUndefined();
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

describe("one response key in fragments on several types", () => {
  it("reads an interface field asked in each implementation's fragment once", async () => {
    const res = await gql("{ queryNamed { ... on Dog { name barks } ... on Cat { name lives } } }");
    expect(res.errors).toBeUndefined();
    expect(res.data.queryNamed.sort(byName)).toEqual([
      { name: "Rex", barks: 3 },
      { name: "Tom", lives: 9 },
    ]);
  });

  it("reads different predicates under one key, each object by its own type", async () => {
    const res = await gql(`{ getOwner(nick: "o") { pets {
      ... on Dog { name toys { label } }
      ... on Cat { name toys { price } }
      ... on Bird { name } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.getOwner.pets.sort(byName)).toEqual([
      { name: "Rex", toys: [{ label: "ball" }] },
      { name: "Tom", toys: [{ price: 5 }] },
      { name: "Tweety" },
    ]);
  });
});
