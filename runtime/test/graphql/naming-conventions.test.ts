import { describe, expect, it } from "vitest";
import {
  enumCaseToGraphQL,
  fieldNameFor,
  isHiddenFunction,
  kebabToCamel,
  kebabToPascal,
  MUTATION_PREFIXES,
  rootTypeFor,
} from "../../src/graphql/naming-conventions.ts";

describe("Query vs Mutation", () => {
  it("has Modus' mutation prefixes", () => {
    expect([...MUTATION_PREFIXES].sort()).toEqual(
      [
        "mutate",
        "post",
        "patch",
        "put",
        "delete",
        "add",
        "update",
        "insert",
        "upsert",
        "create",
        "edit",
        "save",
        "remove",
        "alter",
        "modify",
        "start",
        "stop",
      ].sort(),
    );
  });

  for (const prefix of MUTATION_PREFIXES) {
    it(`treats "${prefix}" as a mutation prefix only before a non-lowercase character`, () => {
      expect(rootTypeFor(`${prefix}Thing`)).toBe("Mutation");
      expect(rootTypeFor(prefix)).toBe("Mutation");
      expect(rootTypeFor(`${prefix}2`)).toBe("Mutation");
      expect(rootTypeFor(`${prefix}_thing`)).toBe("Mutation");
      expect(rootTypeFor(`${prefix.toUpperCase()}Thing`)).toBe("Mutation");
      expect(rootTypeFor(`${prefix}ly`)).toBe("Query");
    });
  }

  it("makes additionalPosts a query and add alone a mutation", () => {
    expect(rootTypeFor("additionalPosts")).toBe("Query");
    expect(rootTypeFor("addPost")).toBe("Mutation");
    expect(rootTypeFor("add")).toBe("Mutation");
    expect(rootTypeFor("sayHello")).toBe("Query");
  });
});

describe("field names", () => {
  it("trims get and list from queries and lowercases the first letter", () => {
    expect(fieldNameFor("getPerson")).toBe("person");
    expect(fieldNameFor("listPeople")).toBe("people");
    expect(fieldNameFor("getURL")).toBe("uRL");
    expect(fieldNameFor("SayHello")).toBe("sayHello");
  });

  it("keeps names where get/list is followed by a lowercase letter, or is the whole name", () => {
    expect(fieldNameFor("getter")).toBe("getter");
    expect(fieldNameFor("listing")).toBe("listing");
    expect(fieldNameFor("get")).toBe("get");
    expect(fieldNameFor("list")).toBe("list");
  });

  it("does not trim mutation names", () => {
    expect(fieldNameFor("addPerson")).toBe("addPerson");
    expect(fieldNameFor("deleteAll")).toBe("deleteAll");
  });
});

describe("WIT name conversion", () => {
  it("converts kebab-case like jco does", () => {
    expect(kebabToCamel("get-person-by-id")).toBe("getPersonById");
    expect(kebabToCamel("get-HTTP-code")).toBe("getHttpCode");
    expect(kebabToCamel("%type")).toBe("type");
    expect(kebabToPascal("http-response")).toBe("HttpResponse");
    expect(enumCaseToGraphQL("dark-green")).toBe("DARK_GREEN");
  });

  it("hides functions whose name starts with an underscore however the WIT spells it", () => {
    expect(isHiddenFunction("_internal")).toBe(true);
    expect(isHiddenFunction("-internal")).toBe(true);
    expect(isHiddenFunction("%_internal")).toBe(true);
    expect(isHiddenFunction("internal")).toBe(false);
    expect(isHiddenFunction("get-_x")).toBe(false);
  });
});
