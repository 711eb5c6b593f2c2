/**
 * The page's GraphQL types: operations in web/src/**.graphql, checked against the app's SDL, generated into
 * web/src/generated/graphql.ts as typed query strings.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BuildError } from "../../src/compiler/ts-build-error.ts";
import { generateWebTypes, WEB_TYPES_FILE } from "../../src/web/web-graphql-types.ts";

const SDL = `
scalar Int64
scalar Timestamp
type Person { name: String! age: Int id: Int64! seen: Timestamp }
type Query { person(name: String!): Person  people: [Person!]! }
type Mutation { addPerson(name: String!): String! }
`;

let webRoot: string;

beforeEach(async () => {
  webRoot = await mkdtemp(join(tmpdir(), "trellis-web-types-"));
  await mkdir(join(webRoot, "src", "people"), { recursive: true });
});

afterEach(async () => {
  await rm(webRoot, { recursive: true, force: true });
});

describe("generateWebTypes", () => {
  it("turns each operation into a typed document, self-contained (no package imports)", async () => {
    await writeFile(
      join(webRoot, "src", "people", "person.graphql"),
      "query Person($name: String!) { person(name: $name) { name age id seen } }\n",
    );
    await writeFile(
      join(webRoot, "src", "add.graphql"),
      "mutation Add($name: String!) { addPerson(name: $name) }",
    );
    const result = await generateWebTypes(webRoot, SDL);
    expect(result.operationFiles).toEqual(["src/add.graphql", "src/people/person.graphql"]);
    expect(result.changed).toBe(true);
    const code = await readFile(join(webRoot, WEB_TYPES_FILE), "utf8");
    expect(code).toContain(
      "export type PersonQuery = { person: { name: string, age: number | null, id: number | string, seen: string | null } | null };",
    );
    expect(code).toContain("export type AddMutationVariables = Exact<{\n  name: string;\n}>;");
    expect(code).toMatch(/export const PersonDocument = new TypedDocumentString\(`[^`]*query Person/);
    expect(code).not.toMatch(/^import /m);
  });

  it("leaves the file untouched when nothing changed (so Vite does not reload the page)", async () => {
    await writeFile(join(webRoot, "src", "q.graphql"), "query People { people { name } }");
    await generateWebTypes(webRoot, SDL);
    const before = await stat(join(webRoot, WEB_TYPES_FILE));
    await new Promise((r) => setTimeout(r, 20));
    expect((await generateWebTypes(webRoot, SDL)).changed).toBe(false);
    expect((await stat(join(webRoot, WEB_TYPES_FILE))).mtimeMs).toBe(before.mtimeMs);
  });

  it("lists every operation that does not match the schema, with its file, line and column", async () => {
    await writeFile(join(webRoot, "src", "a.graphql"), "query A {\n  person(name: 1) { name }\n}\n");
    await writeFile(join(webRoot, "src", "b.graphql"), "query B { nobody }");
    await writeFile(join(webRoot, "src", "c.graphql"), "query C {");
    const error = await generateWebTypes(webRoot, SDL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).diagnostics).toEqual([
      "src/a.graphql:2:16: String cannot represent a non string value: 1",
      'src/b.graphql:1:11: Cannot query field "nobody" on type "Query".',
      "src/c.graphql:1:10: Syntax Error: Expected Name, found <EOF>.",
    ]);
  });
});
