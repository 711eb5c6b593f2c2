/**
 * Schema sizes are bounded before anything is built or stored: a GraphQL schema's SDL bytes, types and
 * fields (updates over /admin/schema, and schemas already stored), and a DQL alter's schema text, predicates
 * and types. A refused schema leaves the previous one in place.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GraphDB, type GraphDBOptions } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { post } from "../server/http-client.ts";

let dir: string;
let db: GraphDB;
let server: HttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(options: Partial<GraphDBOptions> = {}) {
  dir = mkdtempSync(join(tmpdir(), "trellis-schema-limits-"));
  db = new GraphDB({ dir, noSync: true, ...options });
}

/** `types` object types of `fields` fields each (an id and String fields). */
function sdl(types: number, fields: number): string {
  let out = "";
  for (let t = 0; t < types; t++) {
    const rest = Array.from({ length: fields - 1 }, (_, f) => `f${f}: String`).join(" ");
    out += `type T${t} { id: ID! ${rest} }\n`;
  }
  return out;
}

describe("GraphQL schema limits", () => {
  it("refuses schemas past the types, fields or bytes limits and keeps the one served", async () => {
    open();
    const service = new GraphQLService(db, { schemaLimits: { maxTypes: 3, maxFields: 12, maxBytes: 400 } });
    await service.updateSchema(0, sdl(2, 3));
    await expect(service.updateSchema(0, sdl(4, 2))).rejects.toThrow(
      "The schema has 4 types, more than this server's limit of 3 types: it is not built or stored.",
    );
    await expect(service.updateSchema(0, sdl(3, 5))).rejects.toThrow(
      "The schema has 15 fields, more than this server's limit of 12 fields",
    );
    await expect(service.updateSchema(0, `${sdl(1, 2)}# ${"x".repeat(400)}`)).rejects.toThrow(
      /The schema has 4\d\d bytes, more than this server's limit of 400 bytes/,
    );
    expect((await service.storedSchema(0))?.schema).toBe(sdl(2, 3));
    // A stored schema past the limits (stored before they were lowered) is not built either.
    const stricter = new GraphQLService(db, { schemaLimits: { maxTypes: 1 } });
    const r = await stricter.execute(0, { query: "{ __typename }" });
    expect(r.errors?.[0].message).toContain(
      "The schema has 2 types, more than this server's limit of 1 types",
    );
  });

  it("refuses a 201-type schema over /admin/schema at the default limits, without building it", async () => {
    open();
    server = createHttpServer(db);
    const { port } = await server.listen(0, "127.0.0.1");
    const res = await post(`http://127.0.0.1:${port}`, "/admin/schema", "application/graphql", sdl(201, 2));
    expect(JSON.stringify(res.json())).toContain(
      "The schema has 201 types, more than this server's limit of 200 types",
    );
    const ok = await post(`http://127.0.0.1:${port}`, "/admin/schema", "application/graphql", sdl(200, 2));
    expect(ok.json()).toMatchObject({ data: { code: "Success" } });
  }, 60_000);
});

describe("DQL schema limits", () => {
  it("refuses alters past the bytes, predicates or types limits and changes nothing", async () => {
    open({ alterLimits: { schemaBytes: 200, schemaPredicates: 2, schemaTypes: 1 } });
    await expect(db.alter({ schema: "a: string .\nb: int .\nc: float ." })).rejects.toThrow(
      "Schema declares 3 predicates, more than this server's limit of 2 for one alter.",
    );
    await expect(db.alter({ schema: "type A {\n a\n}\ntype B {\n b\n}" })).rejects.toThrow(
      "Schema declares 2 types, more than this server's limit of 1 for one alter.",
    );
    await expect(db.alter({ schema: `a: string .\n# ${"x".repeat(200)}` })).rejects.toThrow(
      /Schema of 2\d\d bytes is larger than this server's limit of 200 bytes for one alter/,
    );
    const schema = JSON.parse((await db.query({ query: "schema(pred: [a, b, c]) { type }" })).json);
    expect(schema).toEqual({});
    await db.alter({ schema: "a: string .\nb: int ." });
  });
});
