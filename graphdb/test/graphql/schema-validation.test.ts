/** Input schemas Dgraph refuses, with its texts and the line they are at (reference §1, §4.2). */
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";
import { problems } from "./schema-problems.ts";

describe("schema validation", () => {
  it("reports a syntax error at its line", () => {
    expect(problems("type A {\n  id: ID!\n  name String\n}")[0]).toMatch(
      /^input:3: Syntax Error: Expected ":"/,
    );
  });

  it("refuses scalar definitions", () => {
    expect(problems("scalar X\ntype T { id: ID! n: X }")).toEqual([
      "input:1: You can't add scalar definitions. Only type, interface, union, input and enums are allowed in initial schema.",
    ]);
  });

  it("refuses two ID fields", () => {
    expect(problems("type T {\n  a: ID\n  b: ID\n  n: String\n}")).toEqual([
      "input:1: Fields a and b are listed as IDs for type T, but a type can have only one ID field. Pick a single field as the ID for type T.",
    ]);
  });

  it("refuses a type whose only field is its ID!", () => {
    expect(problems("type T {\n  id: ID!\n}")).toEqual([
      "input:1: Type T; is invalid, a type must have atleast one field that is not of ID! type and doesn't have @custom/@lambda directive.",
    ]);
  });

  it("refuses @id on a type other than String, Int or Int64", () => {
    expect(problems("type T {\n  id: ID!\n  f: Float @id\n}")).toEqual([
      "input:3: Type T; Field f: with @id directive must be of type String, Int or Int64, not Float",
    ]);
  });

  it("refuses a @search argument that does not apply to the field's type", () => {
    const [text] = problems("type T {\n  id: ID!\n  n: Int @search(by: [term])\n}");
    expect(text).toMatch(
      /^input:3: Type T; Field n: has the @search directive but the argument term doesn't apply to field type Int\./,
    );
  });

  it("refuses hash and exact together", () => {
    expect(problems("type T {\n  id: ID!\n  s: String @search(by: [hash, exact])\n}")).toEqual([
      "input:3: Type T; Field s: the arguments 'hash' and 'exact' can't be used together as arguments to @search.",
    ]);
  });

  it("requires @custom or @lambda on Query and Mutation fields", () => {
    expect(problems("type T { id: ID! n: Int }\ntype Query {\n  count: Int\n}")).toEqual([
      "input:3: Query.count must have @custom directive or @lambda directive.",
    ]);
  });

  it("refuses a field named like a generated aggregate", () => {
    expect(problems("type T {\n  id: ID!\n  postsAggregate: Int\n}")[0]).toMatch(
      /^input:3: Type T; Field postsAggregate: Aggregate is a reserved keyword/,
    );
  });

  it("refuses a @key on a field that is neither ID nor @id", () => {
    expect(problems('type Product @key(fields: "name") {\n  id: ID!\n  name: String\n}')).toEqual([
      "input:1: Type Product: Field name: used inside @key directive should be of type ID or have @id directive.",
    ]);
  });

  it("refuses an unknown type with GraphQL's own text", () => {
    expect(problems("type T {\n  id: ID!\n  n: Missing\n}")[0]).toContain('Unknown type "Missing".');
  });

  it("accepts and leaves out directives the input declares but Dgraph does not know", () => {
    const { generatedSchema } = buildGraphQLSchema(
      "directive @foo on FIELD_DEFINITION\ntype T { id: ID!  n: Int @foo @search }",
    );
    expect(generatedSchema).toContain("\tn: Int @search\n");
    expect(generatedSchema).not.toContain("@foo");
  });
});
