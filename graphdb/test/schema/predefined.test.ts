import { describe, expect, it } from "vitest";
import {
  ACL_PREDICATES,
  ACL_TYPES,
  PREDEFINED_PREDICATES,
  PREDEFINED_TYPES,
} from "../../src/schema/predefined.ts";
import { parseSchema, validateAlterAgainstPredefined } from "../../src/schema/schema-parser.ts";

const RESERVED =
  "as it is prefixed with `dgraph.` which is reserved as the namespace for dgraph's internal types/predicates.";

function alter(text: string): void {
  validateAlterAgainstPredefined(parseSchema(text));
}

describe("pre-defined schema", () => {
  it("lists Dgraph's pre-defined predicates (reference §3.3)", () => {
    expect(PREDEFINED_PREDICATES.map((p) => p.predicate)).toEqual([
      "dgraph.type",
      "dgraph.drop.op",
      "dgraph.graphql.schema",
      "dgraph.graphql.xid",
      "dgraph.graphql.p_query",
      "dgraph.namespace.name",
      "dgraph.namespace.id",
    ]);
    const type = PREDEFINED_PREDICATES[0];
    expect(type).toMatchObject({ type: "string", list: true, tokenizers: ["exact"] });
    expect(PREDEFINED_PREDICATES[3]).toMatchObject({ tokenizers: ["exact"], upsert: true });
    expect(PREDEFINED_PREDICATES[4]).toMatchObject({ tokenizers: ["sha256"] });
    expect(PREDEFINED_PREDICATES[6]).toMatchObject({
      type: "int",
      tokenizers: ["int"],
      unique: true,
      upsert: true,
    });
  });

  it("lists the ACL predicates and types separately", () => {
    expect(ACL_PREDICATES.map((p) => p.predicate)).toEqual([
      "dgraph.xid",
      "dgraph.password",
      "dgraph.user.group",
      "dgraph.acl.rule",
      "dgraph.rule.predicate",
      "dgraph.rule.permission",
    ]);
    expect(ACL_PREDICATES[2]).toMatchObject({ type: "uid", list: true, reverse: true });
    expect(ACL_TYPES.map((t) => t.name)).toEqual([
      "dgraph.type.User",
      "dgraph.type.Group",
      "dgraph.type.Rule",
    ]);
  });

  it("lists the pre-defined types with their fields", () => {
    expect(PREDEFINED_TYPES).toEqual([
      { name: "dgraph.graphql", fields: ["dgraph.graphql.schema", "dgraph.graphql.xid"] },
      { name: "dgraph.graphql.persisted_query", fields: ["dgraph.graphql.p_query"] },
      { name: "dgraph.namespace", fields: ["dgraph.namespace.name", "dgraph.namespace.id"] },
    ]);
  });

  it("can be restated in schema text exactly as defined", () => {
    expect(() =>
      alter(`dgraph.type: [string] @index(exact) .
dgraph.graphql.xid: string @index(exact) @upsert .
dgraph.graphql.p_query: string @index(sha256) .
dgraph.namespace.id: int @index(int) @unique @upsert .
type dgraph.graphql {
  dgraph.graphql.schema
  dgraph.graphql.xid
}`),
    ).not.toThrow();
  });
});

describe("validateAlterAgainstPredefined", () => {
  it("refuses to change a pre-defined predicate", () => {
    expect(() => alter("dgraph.type: string .")).toThrow(
      "predicate dgraph.type is pre-defined and is not allowed to be modified",
    );
    expect(() => alter("dgraph.type: [string] @index(hash) .")).toThrow(
      "predicate dgraph.type is pre-defined and is not allowed to be modified",
    );
  });

  it("refuses new names under dgraph.", () => {
    expect(() => alter("dgraph.foo: string .")).toThrow(`Can't alter predicate \`dgraph.foo\` ${RESERVED}`);
    expect(() => alter("<DGRAPH.Foo>: string .")).toThrow(`Can't alter predicate \`DGRAPH.Foo\` ${RESERVED}`);
    expect(() => alter("type dgraph.Mine {\n  name\n}")).toThrow(
      `Can't alter type \`dgraph.Mine\` ${RESERVED}`,
    );
  });

  it("refuses to change a pre-defined type", () => {
    expect(() => alter("type dgraph.graphql {\n  dgraph.graphql.schema\n}")).toThrow(
      "type dgraph.graphql is pre-defined and is not allowed to be modified",
    );
  });

  it("leaves other names alone", () => {
    expect(() => alter("name: string .\nmydgraph.x: int .\ntype Person {\n  name\n}")).not.toThrow();
  });
});
