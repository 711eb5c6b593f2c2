/** Federation schemas Dgraph refuses, with its texts (reference §4.2), at the line they concern. */
import { describe, expect, it } from "vitest";
import { problems } from "./schema-problems.ts";

const EXT = "i.e., the type must have `@extends` or use `extend` keyword.";

describe("federation validation", () => {
  it("refuses @key twice, and @key without fields", () => {
    expect(
      problems('type Product @key(fields: "id") @key(fields: "upc") {\n  id: ID!\n  upc: String! @id\n}'),
    ).toEqual(["input:1: Type Product; @key directive should not be defined more than once."]);
    expect(problems('type Product @key(fields: "") {\n  id: ID!\n  n: Int\n}')).toEqual([
      "input:1: Type Product; Argument fields inside @key directive must be defined.",
    ]);
  });

  it("refuses a key naming a missing field, or several", () => {
    expect(problems('type Product @key(fields: "id sku") {\n  id: ID!\n  sku: String\n}')).toEqual([
      "input:1: Type Product; @key directive uses a field id sku which is not defined inside the type.",
    ]);
  });

  it("refuses an extension without @key, and @remote with @key", () => {
    expect(problems("extend type Product {\n  id: ID! @external\n  n: Int\n}")).toEqual([
      "input:1: Type Product; Type Extension cannot be defined without @key directive",
    ]);
    expect(
      problems(
        'type Product @remote @key(fields: "id") {\n  id: ID!\n  n: Int\n}\ntype T { id: ID!  n: Int }',
      ),
    ).toEqual(["input:1: Type Product; @remote directive cannot be defined with @key directive"]);
  });

  it("allows @external only on extensions, never with @custom/@lambda, and only bare unless a key", () => {
    expect(problems('type Product @key(fields: "id") {\n  id: ID! @external\n  n: Int\n}')).toEqual([
      `input:2: Type Product: Field id: @external directive can only be defined on fields in type extensions. ${EXT}`,
    ]);
    expect(
      problems(
        'extend type Product @key(fields: "id") {\n  id: ID! @external\n  n: Int @external @lambda\n  m: Int\n}',
      ),
    ).toEqual([
      "input:3: Type Product: Field n: @external directive can not be defined on  fields with @custom or @lambda directive.",
    ]);
    expect(
      problems(
        'extend type Product @key(fields: "id") {\n  id: ID! @external\n  name: String @external @search\n  m: Int\n}',
      ),
    ).toEqual([
      "input:3: Type Product: Field name: @search directive can not be defined on @external fields that are not @key.",
    ]);
  });

  it("allows @requires only on extensions, naming external fields that exist", () => {
    expect(
      problems(
        'type Product @key(fields: "id") {\n  id: ID!\n  n: Int @requires(fields: "id") @lambda\n  m: Int\n}',
      ),
    ).toEqual([
      `input:3: Type Product: Field n: @requires directive can only be defined on fields in type extensions. ${EXT}`,
    ]);
    expect(
      problems(
        'extend type Product @key(fields: "id") {\n  id: ID! @external\n  w: Int\n  n: Int @requires(fields: "w nope") @lambda\n}',
      ),
    ).toEqual([
      "input:4: Type Product; Field w must be @external.",
      "input:4: Type Product; @requires directive uses a field nope which is not defined inside the type.",
    ]);
  });

  it("requires a @provides target with a @key, and fields it has", () => {
    expect(
      problems(
        'type Review @key(fields: "id") {\n  id: ID!\n  author: User @provides(fields: "name")\n}\ntype User {\n  id: ID!\n  name: String\n}',
      ),
    ).toEqual(["input:3: Type Review; Field author does not return a type that has a @key."]);
    expect(
      problems(
        'type Review @key(fields: "id") {\n  id: ID!\n  author: User @provides(fields: "username")\n}\nextend type User @key(fields: "id") {\n  id: ID! @external\n  name: String @external\n}',
      ),
    ).toEqual(["input:3: Type Review; Field author: @provides field username doesn't exist for type User."]);
  });
});
