/**
 * A GraphQL schema that reached the store without being checked (a bulk load of an export, an older
 * server) is built before it is served: one that does not build is never served, and every request gets a
 * clear error naming the problem and the way out, instead of an unvalidated schema.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const BROKEN = "type Item { id: ID! owner: Nowhere }";

let dir: string;
let db: GraphDB;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "graphql-stored-check-"));
  db = new GraphDB({ dir });
});

afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("stored GraphQL schemas", () => {
  it("refuses to serve a bulk-loaded schema that does not build, with the reason", async () => {
    await db.bulkLoad(
      [
        '_:s <dgraph.type> "dgraph.graphql" .',
        '_:s <dgraph.graphql.xid> "dgraph.graphql.schema" .',
        `_:s <dgraph.graphql.schema> ${JSON.stringify(BROKEN)} .`,
      ].join("\n"),
    );
    const service = new GraphQLService(db);
    for (let i = 0; i < 2; i++) {
      const r = await service.execute(0, { query: "{ __typename }" });
      expect(r.data).toBeUndefined();
      expect(r.errors?.[0].message).toMatch(
        /^The stored GraphQL schema does not build, so it is not served: .*Nowhere/,
      );
      expect(r.errors?.[0].message).toContain("/admin/schema");
    }
    // A valid update replaces it and is served.
    await service.updateSchema(0, "type Item { id: ID! name: String }");
    const ok = await service.execute(0, { query: "{ queryItem { name } }" });
    expect(ok.errors).toBeUndefined();
    expect(ok.data).toEqual({ queryItem: [] });
  });
});
