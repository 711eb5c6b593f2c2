/**
 * A schema update while queries run: every answer comes from exactly one schema (the old or the new), no
 * query fails, and a rejected update never replaces the served schema.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";
import { GraphQLSchemaError } from "../../src/graphql/schema/schema-error.ts";

const V1 = "type Item { id: ID!  name: String! @search(by: [exact]) }";
const V2 = "type Item { id: ID!  name: String! @search(by: [exact])  size: Int @search }";
const QUERY =
  '{ queryItem(filter: { name: { eq: "a" } }) { name } __type(name: "ItemFilter") { inputFields { name } } }';

let dir: string;
let db: GraphDB;
let service: GraphQLService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-switch-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(0, V1);
  await db.mutate({
    commitNow: true,
    mutations: [{ setNquads: '_:a <dgraph.type> "Item" .\n_:a <Item.name> "a" .' }],
  });
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("schema updates under load", () => {
  it("answers every query from one whole schema while the schema switches", async () => {
    const v1Fields = ["id", "name", "has", "and", "or", "not"];
    const v2Fields = ["id", "name", "size", "has", "and", "or", "not"];
    const seen = new Set<string>();
    let running = true;
    const reader = async () => {
      let n = 0;
      while (running && n < 5000) {
        const r = JSON.parse(JSON.stringify(await service.execute(0, { query: QUERY })));
        expect(r.errors).toBeUndefined();
        expect(r.data.queryItem).toEqual([{ name: "a" }]);
        const fields = r.data.__type.inputFields.map((f: { name: string }) => f.name);
        expect([JSON.stringify(v1Fields), JSON.stringify(v2Fields)]).toContain(JSON.stringify(fields));
        seen.add(JSON.stringify(fields));
        n++;
        // Requests arrive as I/O events: let timers and the updater run between them.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return n;
    };
    const readers = Array.from({ length: 4 }, reader);
    for (let i = 0; i < 12; i++) {
      await service.updateSchema(0, i % 2 === 0 ? V2 : V1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    running = false;
    const counts = await Promise.all(readers);
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(seen.size).toBe(2);
  });

  it("keeps serving the previous schema when an update is rejected", async () => {
    await service.updateSchema(0, V2);
    await expect(service.updateSchema(0, "type Item { id: ID! }")).rejects.toBeInstanceOf(GraphQLSchemaError);
    const r = JSON.parse(JSON.stringify(await service.execute(0, { query: "{ queryItem { name size } }" })));
    expect(r).toEqual({ data: { queryItem: [{ name: "a", size: null }] } });
    expect((await service.storedSchema(0))?.schema).toBe(V2);
  });
});
