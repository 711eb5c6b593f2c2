import { buildSchema, validateSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildAppSchema, SchemaBuildError } from "../../src/graphql/schema-builder.ts";
import type { AppWorld } from "../../src/wit/wit-types.ts";
import { fixtureWorld } from "./fixture-world.ts";

/** Written by hand from the mapping rules: this text is the specification of the schema builder. */
const EXPECTED_SDL = `# Trellis GraphQL Schema (auto-generated)

type Query {
  additionalPosts(count: UInt!): [String!]
  echoMeasurements(m: MeasurementsInput!): Measurements
  getter: String
  mark(m: Marker!): Marker
  pairUp(a: String!, b: Int!): StringIntTuple
  people: [Person!]
  """Finds a person by id."""
  person(id: Int64!): Person
  ping: Void
  splitPair(p: StringNullableIntTupleInput!): [String]
}

type Mutation {
  add: Void
  """
  Adds a person.
  Returns the stored person.
  """
  addPerson(person: PersonInput!): Person
  deleteEverything(confirm: Boolean!, colors: [Color!]): UInt64
}

type Address {
  street: String!
  city: String!
}

input AddressInput {
  street: String!
  city: String!
}

enum Color {
  RED
  DARK_GREEN
  BLUE
}

scalar Marker

type Measurements {
  count: UInt!
  big: UInt64!
  ratio: Float!
  precise: Float!
  small: Int!
  mid: Int!
  int: Int!
  word: Int!
  flag: Boolean!
  initial: String!
}

input MeasurementsInput {
  count: UInt!
  big: UInt64!
  ratio: Float!
  precise: Float!
  small: Int!
  mid: Int!
  int: Int!
  word: Int!
  flag: Boolean!
  initial: String!
}

"""A person in the address book."""
type Person {
  id: Int64!
  firstName: String!
  age: Int!
  nickname: String
  tags: [String!]!
  favoriteColor: Color!
  address: Address
}

"""A person in the address book."""
input PersonInput {
  id: Int64!
  firstName: String!
  age: Int!
  nickname: String
  tags: [String!]!
  favoriteColor: Color!
  address: AddressInput
}

type StringIntTuple {
  item1: String!
  item2: Int!
}

input StringNullableIntTupleInput {
  item1: String!
  item2: Int
}

scalar Int64

scalar UInt

scalar UInt64

scalar Void
`;

describe("buildAppSchema", () => {
  it("produces the hand-written SDL for a world using every WIT type kind", () => {
    const { sdl } = buildAppSchema(fixtureWorld);
    expect(sdl).toBe(EXPECTED_SDL);
  });

  it("produces SDL that graphql-js accepts as a valid schema", () => {
    const schema = buildSchema(buildAppSchema(fixtureWorld).sdl);
    expect(validateSchema(schema)).toEqual([]);
  });

  it("binds each visible function to its field, WIT name and arguments", () => {
    const { fields } = buildAppSchema(fixtureWorld);
    const person = fields.find((f) => f.fieldName === "person")!;
    expect(person).toMatchObject({ rootType: "Query", witName: "get-person", graphqlType: "Person" });
    expect(person.args).toEqual([
      { name: "id", witName: "id", type: { kind: "prim", name: "s64" }, graphqlType: "Int64!" },
    ]);
    expect(person.selection).toBe("{ id firstName age nickname tags favoriteColor address { street city } }");
    expect(fields.find((f) => f.fieldName === "pairUp")!.selection).toBe("{ item1 item2 }");
    expect(fields.map((f) => f.witName)).not.toContain("_internal-reset");
    expect(fields.map((f) => f.witName)).not.toContain("-internal-flush");
  });

  it("exposes enum values for the explorer", () => {
    expect(buildAppSchema(fixtureWorld).enums).toEqual({ Color: ["RED", "DARK_GREEN", "BLUE"] });
  });

  it("adds a placeholder Query when an app has only mutations", () => {
    const world: AppWorld = { types: new Map(), functions: [{ name: "save-note", params: [] }] };
    const { sdl } = buildAppSchema(world);
    expect(sdl).toContain("type Query {\n");
    expect(sdl).toContain("_empty: Void");
    expect(sdl).toContain("type Mutation {\n  saveNote: Void\n}");
    expect(validateSchema(buildSchema(sdl))).toEqual([]);
  });

  it("refuses two functions that map to the same field", () => {
    const world: AppWorld = {
      types: new Map(),
      functions: [
        { name: "get-person", params: [] },
        { name: "person", params: [] },
      ],
    };
    expect(() => buildAppSchema(world)).toThrow(
      /"get-person" and "person" both map to GraphQL field Query.person/,
    );
  });

  it("refuses a result outside a function's return type", () => {
    const world: AppWorld = {
      types: new Map(),
      functions: [
        {
          name: "f",
          params: [{ name: "r", type: { kind: "result", ok: { kind: "prim", name: "string" } } }],
        },
      ],
    };
    expect(() => buildAppSchema(world)).toThrow(SchemaBuildError);
  });

  it("refuses a reference to an undefined type", () => {
    const world: AppWorld = {
      types: new Map(),
      functions: [{ name: "f", params: [], result: { kind: "ref", name: "ghost" } }],
    };
    expect(() => buildAppSchema(world)).toThrow(/type "ghost" is used but not defined/);
  });
});
