/** Bounds on one GraphQL operation (README: depth 20, 200 aliases, 100,000 characters, 20,000 tokens). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

let dir: string;
let db: GraphDB;
let service: GraphQLService;

const run = async (query: string) => JSON.parse(JSON.stringify(await service.execute(0, { query })));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-limits-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(0, "type Person { id: ID!  name: String  friends: [Person] }");
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const nested = (depth: number) => {
  let inner = "name";
  for (let i = 0; i < depth; i++) inner = `friends { ${inner} }`;
  return `{ queryPerson { ${inner} } }`;
};

describe("GraphQL operation limits", () => {
  it("runs a query at the depth limit and refuses one level more", async () => {
    expect((await run(nested(18))).errors).toBeUndefined();
    const deep = await run(nested(19));
    expect(deep.errors[0].message).toBe("Syntax Error: Query depth limit of 20 exceeded, found 21.");
    expect(deep.data).toBeUndefined();
  });

  it("refuses more than 200 aliases", async () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: queryPerson { name }`).join(" ")} }`;
    expect((await run(aliases(200))).errors).toBeUndefined();
    expect((await run(aliases(201))).errors[0].message).toBe(
      "Syntax Error: Aliases limit of 200 exceeded, found 201.",
    );
  });

  it("refuses an oversized text and too many tokens before parsing it all", async () => {
    const long = await run(`{ queryPerson { name } }${" ".repeat(100_000)}`);
    expect(long.errors[0].message).toBe("Query text of 100024 characters exceeds the limit of 100000");
    const tokens = await run(`{ queryPerson { ${"a ".repeat(20_000)} } }`);
    expect(tokens.errors[0].message).toMatch(/^Syntax Error: Document contains more th[ae]t? 20000 tokens\./);
  });
});
