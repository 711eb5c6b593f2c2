/**
 * Deeply nested GraphQL input is refused with a clear error before graphql-js recurses into it (a
 * 2,000-deep list literal used to answer `RangeError: Maximum call stack size exceeded`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentNesting, valueNesting } from "../../src/graphql/nesting-depth.ts";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

let dir: string;
let db: GraphDBHandle;
let server: HttpServer;
let base: string;

async function post(path: string, type: string, body: string) {
  const res = await fetch(base + path, { method: "POST", headers: { "content-type": type }, body });
  return res.json();
}
const graphql = (query: string, variables = "null") =>
  post("/graphql", "application/json", `{"query":${JSON.stringify(query)},"variables":${variables}}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-nesting-"));
  db = createGraphDB({ dir });
  server = createHttpServer(db.engine);
  base = `http://127.0.0.1:${(await server.listen(0, "127.0.0.1")).port}`;
  await post(
    "/admin/schema",
    "application/graphql",
    "type Task { id: ID! title: String! @search(by: [term]) }",
  );
});

afterAll(async () => {
  await server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GraphQL nesting bound", () => {
  const TOO_DEEP =
    "the query nests lists, objects, arguments or selections more than 64 deep, the limit: flatten it";

  it("refuses a 2,000-deep list literal and a 3,000-deep filter with a clear error, not a stack overflow", async () => {
    const list = `${"[".repeat(2000)}${"]".repeat(2000)}`;
    expect(await graphql(`{ queryTask(filter: { title: { anyofterms: ${list} } }) { id } }`)).toEqual({
      errors: [{ message: TOO_DEEP }],
    });
    const not = `${"{ not: ".repeat(3000)}{ id: ["0x1"] }${" }".repeat(3000)}`;
    expect(await graphql(`{ queryTask(filter: ${not}) { id } }`)).toEqual({
      errors: [{ message: TOO_DEEP }],
    });
  });

  it("refuses deeply nested variables", async () => {
    const deep = `${'{"not":'.repeat(20_000)}{}${"}".repeat(20_000)}`;
    expect(await graphql("query($f: TaskFilter) { queryTask(filter: $f) { id } }", `{"f":${deep}}`)).toEqual({
      errors: [{ message: "the variables nest lists or objects more than 64 deep, the limit: flatten them" }],
    });
  });

  it("still answers nesting within the bound", async () => {
    const not = `${"{ not: ".repeat(20)}{ id: ["0x1"] }${" }".repeat(20)}`;
    expect(await graphql(`{ queryTask(filter: ${not}) { id } }`)).toMatchObject({ data: { queryTask: [] } });
  });

  it("counts brackets outside strings and comments only", () => {
    expect(documentNesting('{ a(x: "[[[[{{{") # ((((\n { b { c } } }', 64)).toBe(3);
    expect(documentNesting('{ a(x: """ [[[ \\""" ((( """) }', 64)).toBe(2);
    expect(valueNesting({ a: [1, { b: [] }] }, 64)).toBe(4);
    expect(valueNesting("[[[", 64)).toBe(0);
  });
});
