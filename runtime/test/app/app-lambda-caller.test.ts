/**
 * The graph database's `@lambda` fields served by a real built app (one TypeScript build, shared): a
 * Query field and a type's field with parents, the field's arguments and the parent's fields (stored, or
 * an `_entities` representation's `@requires` fields) reaching the function's parameters by name, a
 * function that throws and one that runs past its timeout failing only their field, each call recorded
 * like a GraphQL call; unmapped resolvers, too many parents and a map naming a missing function refused
 * with errors that say what to do.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GraphDB, GraphQLService } from "@trellis/graphdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidBuildError, type LoadedApp, loadApp } from "../../src/app/load-app.ts";
import { prepareUploadedBuild } from "../../src/app/prepare-build.ts";
import { buildApp } from "../../src/compiler/build-app.ts";
import type { ExecutionRecord } from "../../src/graphql/execution-record.ts";

const SOURCE = `import type { i32 } from "@trellis/sdk";

export interface Box {
  name: string;
  price: i32;
}

/** Query.double */
export function double(n: i32): i32 {
  return n * 2;
}

/** Query.fail */
export function fail(): i32 {
  throw new Error("fail refused on purpose");
}

/** Box.label: the whole parent, and the field's argument. */
export function label(parent: Box, prefix: string): string {
  return prefix + parent.name + "@" + parent.price;
}

/** Box.estimate and Product.shippingEstimate: the parent's fields by name. */
export function shippingEstimate(price: i32, weight: i32): number {
  return price * 0.01 + weight * 0.5;
}

/** Box.risky */
export function risky(name: string): string {
  if (name === "bad") throw new Error("risky refused " + name);
  return "ok:" + name;
}

/** Note.add and Note.delete: @lambdaOnMutate events. */
export function onNote(typename: string, operation: string, rootUIDs: string[]): string {
  return typename + "." + operation + ":" + rootUIDs.length;
}

/** Box.spin */
export function spin(name: string): string {
  if (name === "slow") {
    let i = 0;
    for (;;) i = (i + 1) | 0;
  }
  return "fast:" + name;
}
`;

const MANIFEST = {
  limits: { timeoutMs: 1500, memoryMb: 64 },
  lambdas: {
    "Query.double": "double",
    "Query.fail": "fail",
    "Box.label": "label",
    "Box.estimate": "shippingEstimate",
    "Box.risky": "risky",
    "Box.spin": "spin",
    "Product.shippingEstimate": "shippingEstimate",
    "Note.add": "onNote",
    "Note.delete": "onNote",
  },
};

const SCHEMA = `
type Box {
  id: ID!
  name: String! @id
  price: Int!
  weight: Int
  label(prefix: String!): String @lambda
  estimate: Float @lambda
  risky: String @lambda
  spin: String @lambda
  unmapped: String @lambda
}
extend type Product @key(fields: "upc") {
  upc: String! @id @external
  price: Int @external
  weight: Int @external
  inStock: Boolean
  shippingEstimate: Float @requires(fields: "price weight") @lambda
}
type Note @lambdaOnMutate(add: true, update: true, delete: true) {
  id: ID!
  text: String
}
type Query {
  double(n: Int!): Int @lambda
  fail: Int @lambda
}`;

let root: string;
let buildDir: string;
let app: LoadedApp;
let db: GraphDB;
let service: GraphQLService;
const records: ExecutionRecord[] = [];

type Result = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
};
const run = async (query: string, on = service): Promise<Result> =>
  JSON.parse(JSON.stringify(await on.execute(0, { query })));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trellis-lambda-"));
  const dir = join(root, "lambda-app");
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "package.json"), '{ "name": "lambda-app", "private": true }');
  await writeFile(join(dir, "trellis.json"), JSON.stringify(MANIFEST));
  await writeFile(join(dir, "src/index.ts"), SOURCE);
  buildDir = (await buildApp(dir)).outDir;
  app = await loadApp(buildDir, { env: {}, onExecution: (e) => records.push(e) });
  db = new GraphDB({ dir: join(root, "db") });
  service = new GraphQLService(db, { lambda: app.lambda });
  await service.updateSchema(0, SCHEMA);
  await run(
    'mutation { addBox(input: [{ name: "a", price: 100, weight: 2 }, { name: "bad", price: 50, weight: 1 }, { name: "slow", price: 1, weight: 1 }]) { numUids } }',
  );
}, 120_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("@lambda fields served by an app's functions", () => {
  it("serves @lambdaOnMutate events by the function mapped to Type.add / Type.delete", async () => {
    records.length = 0;
    const event = {
      __typename: "Note",
      operation: "add",
      commitTs: 7,
      add: { rootUIDs: ["0x1"], input: [{}] },
    };
    expect(await app.lambda({ resolver: "$webhook", parents: null, args: {}, event } as never)).toBeNull();
    expect(records.map((e) => `${e.lambda} ${e.function} ${e.status}`)).toEqual(["Note.add onNote success"]);
    records.length = 0;
    const added = await run('mutation { addNote(input: [{ text: "a" }, { text: "b" }]) { note { id } } }');
    const ids = ((added.data?.addNote ?? { note: [] }) as { note: { id: string }[] }).note.map((n) => n.id);
    await run(
      `mutation { updateNote(input: { filter: { id: ["${ids[0]}"] }, set: { text: "c" } }) { numUids } }`,
    );
    await run(`mutation { deleteNote(filter: { id: ["${ids[1]}"] }) { numUids } }`);
    // Webhooks are not awaited by the mutation: wait for both calls.
    for (let i = 0; i < 100 && records.filter((e) => e.function === "onNote").length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(records.map((e) => `${e.lambda} ${e.function} ${e.status}`).sort()).toEqual([
      "Note.add onNote success",
      "Note.delete onNote success",
    ]);
  });

  it("answers a Query field from its function, with the field's arguments", async () => {
    records.length = 0;
    expect(await run("{ double(n: 21) }")).toEqual({ data: { double: 42 } });
    expect(records).toEqual([
      expect.objectContaining({ function: "double", lambda: "Query.double", status: "success" }),
    ]);
  });

  it("fills a type field's parameters from its arguments, the parent's fields and the whole parent", async () => {
    records.length = 0;
    const r = await run(
      '{ queryBox(filter: { name: { eq: "a" } }) { name label(prefix: "box ") estimate } }',
    );
    expect(r).toEqual({ data: { queryBox: [{ name: "a", label: "box a@100", estimate: 2 }] } });
    expect(records.map((e) => `${e.lambda} ${e.function} ${e.status}`).sort()).toEqual([
      "Box.estimate shippingEstimate success",
      "Box.label label success",
    ]);
  });

  it("fails only the field of the parent whose function throws", async () => {
    const r = await run("{ queryBox(order: { asc: name }) { name risky } double(n: 1) }");
    expect(r.data).toEqual({
      queryBox: [
        { name: "a", risky: "ok:a" },
        { name: "bad", risky: null },
        { name: "slow", risky: "ok:slow" },
      ],
      double: 2,
    });
    expect(r.errors).toHaveLength(1);
    expect(r.errors?.[0]).toMatchObject({
      path: ["queryBox", 1, "risky"],
      extensions: { code: "FUNCTION_ERROR" },
    });
    expect(r.errors?.[0].message).toContain("risky refused bad");
  });

  it("stops a function that loops forever at the app's timeout, failing only that parent's field", async () => {
    records.length = 0;
    const started = Date.now();
    const r = await run("{ queryBox(order: { asc: name }) { name spin estimate } }");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.data).toEqual({
      queryBox: [
        { name: "a", spin: "fast:a", estimate: 2 },
        { name: "bad", spin: "fast:bad", estimate: 1 },
        { name: "slow", spin: null, estimate: 0.51 },
      ],
    });
    expect(r.errors).toEqual([
      expect.objectContaining({
        path: ["queryBox", 2, "spin"],
        extensions: expect.objectContaining({ code: "TIMEOUT" }),
      }),
    ]);
    expect(records.find((e) => e.status === "error")).toMatchObject({
      function: "spin",
      lambda: "Box.spin",
      error: { code: "TIMEOUT" },
    });
    // The app keeps serving.
    expect(await run("{ double(n: 2) }")).toEqual({ data: { double: 4 } });
  });

  it("fails a Query field whose function throws, and keeps its siblings", async () => {
    const r = await run("{ double(n: 5) fail }");
    expect(r.data).toEqual({ double: 10, fail: null });
    expect(r.errors?.[0]).toMatchObject({ path: ["fail"], extensions: { code: "FUNCTION_ERROR" } });
    expect(r.errors?.[0].message).toContain("fail refused on purpose");
  });

  it("computes a @requires field from the external fields of an _entities representation", async () => {
    await run('mutation { addProduct(input: [{ upc: "p1", inStock: true }]) { numUids } }');
    const r = await run(
      '{ _entities(representations: [{ __typename: "Product", upc: "p1", price: 300, weight: 4 }, { __typename: "Product", upc: "nope", price: 1, weight: 1 }]) { ... on Product { upc inStock shippingEstimate } } }',
    );
    expect(r).toEqual({ data: { _entities: [{ upc: "p1", inStock: true, shippingEstimate: 5 }, null] } });
  });

  it("says which resolvers the app maps when a lambda field is not one of them", async () => {
    const r = await run('{ queryBox(filter: { name: { eq: "a" } }) { name unmapped } }');
    expect(r.data).toEqual({ queryBox: [{ name: "a", unmapped: null }] });
    expect(r.errors?.[0].message).toBe(
      'app lambda-app serves no lambda Box.unmapped (its trellis.json "lambdas" maps Query.double, Query.fail, Box.label, Box.estimate, Box.risky, Box.spin, Product.shippingEstimate, Note.add, Note.delete): add "Box.unmapped": "<function>" to it, or point the field at another app',
    );
  });

  it("says which parameter is missing when neither the arguments nor the parent have it", async () => {
    // `weight` is not stored for this box: a required parameter cannot be filled.
    await run('mutation { addBox(input: [{ name: "light", price: 5 }]) { numUids } }');
    const r = await run('{ queryBox(filter: { name: { eq: "light" } }) { name estimate } }');
    expect(r.data).toEqual({ queryBox: [{ name: "light", estimate: null }] });
    expect(r.errors?.[0].message).toBe(
      'lambda Box.estimate: parameter "weight" of shippingEstimate is neither an argument of the field nor a field of its parent; add the argument, @requires the field, or make the parameter optional',
    );
    await run('mutation { deleteBox(filter: { name: { eq: "light" } }) { numUids } }');
  });

  it("refuses a request for more parents than the app serves at once", async () => {
    const bounded = await loadApp(buildDir, { env: {}, maxLambdaParents: 2 });
    try {
      const r = await run("{ queryBox { estimate } }", new GraphQLService(db, { lambda: bounded.lambda }));
      expect(r.data).toEqual({ queryBox: [{ estimate: null }, { estimate: null }, { estimate: null }] });
      expect(r.errors?.[0].message).toBe(
        "lambda Box.estimate was asked for 3 objects at once; an app serves at most 2 per request (each is a call of shippingEstimate): ask for fewer, e.g. with first:",
      );
    } finally {
      await bounded.close();
    }
  });

  it("refuses to load or deploy a build whose lambdas name a function it does not export", async () => {
    const broken = join(root, "broken-build");
    await cp(buildDir, broken, { recursive: true });
    const manifest = JSON.parse(await readFile(join(broken, "trellis.json"), "utf8"));
    manifest.lambdas["Box.weight2"] = "weightTwice";
    await writeFile(join(broken, "trellis.json"), JSON.stringify(manifest));
    const message =
      'trellis.json "lambdas" names functions the app does not export ("Box.weight2": "weightTwice"); the app\'s functions are: double, fail, label, onNote, risky, shippingEstimate, spin';
    await expect(loadApp(broken, { env: {} })).rejects.toThrow(new InvalidBuildError(message));
    await expect(prepareUploadedBuild(broken)).rejects.toThrow(message);
  });
});
