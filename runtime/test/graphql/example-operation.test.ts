import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { exampleOperation } from "../../src/graphql/example-operation.ts";

/** The example, checked to be a valid operation on the schema it was made from. */
function example(sdl: string, preferred?: string[]): string {
  const op = exampleOperation(sdl, preferred);
  expect(validate(buildSchema(sdl), parse(op))).toEqual([]);
  return op;
}

describe("exampleOperation", () => {
  it("prefers a query returning a scalar, its required arguments filled", () => {
    const sdl = `type Query { people: [Person!]! quote: Quote sayHello(name: String!, greeting: String): String }
      type Mutation { addPerson(name: String!, age: Int): String }
      type Person { uid: String! name: String! age: Int }
      type Quote { quote: String! author: String! }`;
    expect(example(sdl)).toBe('{ sayHello(name: "Trellis") }');
    // A function a public endpoint serves comes first (it needs no secret).
    expect(example(`${sdl} extend type Query { generateText(prompt: String!): String }`, ["sayHello"])).toBe(
      '{ sayHello(name: "Trellis") }',
    );
    expect(example(sdl, ["addPerson"])).toBe('mutation { addPerson(name: "Trellis") }');
  });

  it("selects an object result's scalar fields, and fills input objects, lists, enums and custom scalars", () => {
    const sdl = `scalar Int64
      scalar Timestamp
      enum Color { RED GREEN }
      input PersonInput { name: String! tags: [String!]! color: Color! born: Timestamp! nick: String }
      type Query { person(id: Int64!, filter: PersonInput!): Person }
      type Person { id: Int64! name: String! friend: Person address: Address }
      type Address { city: String! }`;
    expect(example(sdl)).toBe(
      '{ person(id: 1, filter: { name: "Trellis", tags: ["Trellis"], color: RED, born: "2026-01-01T00:00:00Z" }) { id name } }',
    );
  });

  it("uses a mutation when there is no query, and says __typename when there is no function", () => {
    const mutationOnly = `scalar Void
      type Query { _empty: Void }
      type Mutation { addPerson(name: String!): String }`;
    expect(example(mutationOnly)).toBe('mutation { addPerson(name: "Trellis") }');
    expect(example("scalar Void\ntype Query { _empty: Void }")).toBe("{ __typename }");
  });
});
