/**
 * The schema pipeline for `@lambdaOnMutate` and `@remoteResponse` (Dgraph's rules.go texts, at the
 * directive's line): where they may be used, their arguments, the lambda server `@lambdaOnMutate` needs;
 * and what a valid schema builds — the generated schema printing both as Dgraph does, and the operations
 * each type's webhook reports.
 */
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";
import { GraphQLSchemaError, problemText } from "../../src/graphql/schema/schema-error.ts";
import { problems } from "./schema-problems.ts";

function problemsWith(sdl: string, lambdaConfigured: boolean): string[] {
  try {
    buildGraphQLSchema(sdl, { lambdaConfigured });
  } catch (e) {
    if (e instanceof GraphQLSchemaError) return e.problems.map(problemText);
    throw e;
  }
  return [];
}

describe("@remoteResponse rules", () => {
  it("is refused on a field of a type that is not @remote", () => {
    expect(problems(`type T {\n  id: ID!\n  n: String @remoteResponse(name: "x")\n}`)).toEqual([
      "input:3: Type T: Field n: @remoteResponse directive can only be defined on fields of @remote type.",
    ]);
  });

  it("needs its name argument, not empty", () => {
    expect(
      problems(`type R @remote {\n  a: String @remoteResponse(name: "")\n  b: Int @remoteResponse\n}
type Query { r: R @custom(http: { url: "http://x/r", method: GET }) }`),
    ).toEqual([
      "input:2: Type R: Field a: Argument name inside @remoteResponse directive must be defined.",
      "input:3: Type R: Field b: Argument name inside @remoteResponse directive must be defined.",
    ]);
  });
});

describe("@lambdaOnMutate rules", () => {
  it("is refused with @remote", () => {
    expect(
      problems(`type R @remote @lambdaOnMutate(add: true) {\n  a: String\n}
type Query { r: R @custom(http: { url: "http://x/r", method: GET }) }`),
    ).toEqual(["input:1: Type R; @lambdaOnMutate directive not allowed along with @remote directive."]);
  });

  it("takes only true/false arguments, quoting what it found as Dgraph does", () => {
    expect(
      problems(
        `type T @lambdaOnMutate(\n  add: "yes"\n  update: true\n  delete: 1\n) {\n  id: ID!\n  n: Int\n}`,
      ),
    ).toEqual([
      'input:2: Type T; add argument in @lambdaOnMutate directive can only be true/false, found: `"yes"`.',
      "input:4: Type T; delete argument in @lambdaOnMutate directive can only be true/false, found: `1`.",
    ]);
  });

  it("needs a lambda server when the server says it has none; a stored schema is loaded either way", () => {
    const sdl = `type T @lambdaOnMutate(add: true) {\n  id: ID!\n  n: Int\n}`;
    expect(problemsWith(sdl, false)).toEqual([
      "input:1: Type T: has the @lambdaOnMutate directive, but the `--graphql lambda-url` flag wasn't specified during alpha startup.",
    ]);
    expect(problemsWith(sdl, true)).toEqual([]);
    expect(buildGraphQLSchema(sdl).lambdaOnMutate?.get("T")).toEqual(new Set(["add"]));
  });
});

describe("golden: @lambdaOnMutate and @remoteResponse", () => {
  const build = buildGraphQLSchema(`
interface Node @lambdaOnMutate(delete: true) {
  id: ID!
}
type Author implements Node @lambdaOnMutate(add: true, update: false, delete: true) {
  name: String! @search(by: [hash])
  profile: Profile @custom(http: { url: "http://x/p/$name", method: GET })
}
type Profile @remote {
  fullName: String @remoteResponse(name: "full_name")
}`);

  it("prints both directives as written, the usual API, and the operations each type's webhook reports (an interface's own, not inherited)", () => {
    expect(build.generatedSchema).toContain(
      "type Author implements Node @lambdaOnMutate(add: true, update: false, delete: true) {",
    );
    expect(build.generatedSchema).toContain("interface Node @lambdaOnMutate(delete: true) {");
    expect(build.generatedSchema).toContain('\tfullName: String @remoteResponse(name: "full_name")\n');
    const mutations = Object.keys(build.schema.getMutationType()?.getFields() ?? {});
    expect(mutations).toEqual(["deleteNode", "addAuthor", "updateAuthor", "deleteAuthor"]);
    expect(build.dqlSchema).not.toContain("Profile");
    expect(build.lambdaOnMutate).toEqual(
      new Map([
        ["Node", new Set(["delete"])],
        ["Author", new Set(["add", "delete"])],
      ]),
    );
  });
});
