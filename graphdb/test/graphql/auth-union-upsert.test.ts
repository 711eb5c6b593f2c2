/**
 * The `@auth` cases past type reads, over HTTP with `graphql-request` and HS256 JWTs: a union edge shows
 * each member only as that member type's query rule allows (an RBAC rule on one member, a graph-traversal
 * rule on another), and `add<T>(upsert: true)` updates an existing node only if the type's update rule
 * allows it — a refused node is left as it was, uncounted and out of the payload, while new nodes of the
 * same call still need the add rule. `@auth` on a field is refused with Dgraph's text.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClientError, GraphQLClient } from "graphql-request";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { problems } from "./schema-problems.ts";

const NS = "https://xyz.io/jwt/claims";
const SECRET = "a-test-secret-of-enough-length-0123456789";

const SCHEMA = `
type Owner {
  username: String! @id
  pets: [Pet]
}
union Pet = Dog | Cat
type Dog @auth(query: { rule: "{$ROLE: { eq: \\"VET\\" } }" }) {
  id: ID!
  name: String! @search(by: [hash])
}
type Cat @auth(query: { rule: """query($USER: String!) { queryCat(filter: { keeper: { eq: $USER } }) { id } }""" }) {
  id: ID!
  name: String! @search(by: [hash])
  keeper: String @search(by: [hash])
}
type Todo @auth(
  add: { rule: """query($USER: String!) { queryTodo(filter: { owner: { eq: $USER } }) { title } }""" },
  update: { rule: """query($USER: String!) { queryTodo(filter: { owner: { eq: $USER } }) { title } }""" }
) {
  title: String! @id
  owner: String! @search(by: [hash])
  done: Boolean
  next: Todo
}
# Dgraph.Authorization {"VerificationKey":"${SECRET}","Header":"X-Test-Auth","Namespace":"${NS}","Algo":"HS256"}
`;

let dir: string;
let db: GraphDBHandle;
let server: HttpServer;
let client: GraphQLClient;

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ [NS]: claims })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(SECRET));
}

async function as<T>(claims: Record<string, unknown> | undefined, query: string): Promise<T> {
  const headers: Record<string, string> = claims === undefined ? {} : { "X-Test-Auth": await token(claims) };
  return client.request<T>(query, {}, headers);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-auth-gaps-"));
  db = createGraphDB({ dir });
  server = createHttpServer(db.engine);
  const { port } = await server.listen(0, "127.0.0.1");
  const base = `http://127.0.0.1:${port}`;
  const res = await fetch(`${base}/admin/schema`, { method: "POST", body: SCHEMA });
  expect(await res.json()).toEqual({ data: { code: "Success", message: "Done" } });
  client = new GraphQLClient(`${base}/graphql`);
  await db.engine.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads: `
_:o <dgraph.type> "Owner" .
_:o <Owner.username> "olga" .
_:rex <dgraph.type> "Dog" .
_:rex <Dog.name> "rex" .
_:tom <dgraph.type> "Cat" .
_:tom <Cat.name> "tom" .
_:tom <Cat.keeper> "ann" .
_:kit <dgraph.type> "Cat" .
_:kit <Cat.name> "kit" .
_:kit <Cat.keeper> "ben" .
_:o <Owner.pets> _:rex .
_:o <Owner.pets> _:tom .
_:o <Owner.pets> _:kit .`,
      },
    ],
  });
});

afterAll(async () => {
  await server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

// Aliased apart: the DQL of one level may not use one response key twice.
const PETS = `{ getOwner(username: "olga") {
  pets { __typename ... on Dog { dog: name } ... on Cat { cat: name } }
} }`;
type Pets = { getOwner: { pets: { __typename: string; dog?: string; cat?: string }[] } };
const names = (r: Pets) => r.getOwner.pets.map((p) => `${p.__typename}:${p.dog ?? p.cat}`).sort();

describe("@auth on a union edge", () => {
  it("applies each member type's query rule to the members the edge returns", async () => {
    expect(names(await as<Pets>(undefined, PETS))).toEqual([]);
    expect(names(await as<Pets>({ USER: "ann" }, PETS))).toEqual(["Cat:tom"]);
    expect(names(await as<Pets>({ USER: "ben", ROLE: "VET" }, PETS))).toEqual(["Cat:kit", "Dog:rex"]);
  });

  it("keeps the member filter of the edge and the rules together", async () => {
    const q = `{ getOwner(username: "olga") {
      pets(filter: { memberTypes: [Cat], catFilter: { name: { eq: "tom" } } }) { ... on Cat { name } }
    } }`;
    expect((await as<Pets>({ USER: "ann", ROLE: "VET" }, q)).getOwner.pets).toEqual([{ name: "tom" }]);
    expect((await as<Pets>({ USER: "ben", ROLE: "VET" }, q)).getOwner.pets).toEqual([]);
  });
});

describe("@auth update rule on add with upsert", () => {
  type Added = { addTodo: { numUids: number; todo: { title: string; done: boolean | null }[] } };
  const upsert = (items: string) =>
    `mutation { addTodo(input: [${items}], upsert: true) { numUids todo(order: { asc: title }) { title done } } }`;
  const done = async (title: string) =>
    (
      await as<{ getTodo: { done: boolean | null } }>(
        { USER: "alice" },
        `{ getTodo(title: "${title}") { done } }`,
      )
    ).getTodo.done;

  beforeAll(async () => {
    const r = await as<Added>({ USER: "alice" }, upsert(`{ title: "t1", owner: "alice" }`));
    expect(r.addTodo.numUids).toBe(1);
  });

  it("updates an existing node only for a caller the update rule allows; others leave it untouched, uncounted and out of the payload", async () => {
    const refused = await as<Added>({ USER: "bob" }, upsert(`{ title: "t1", owner: "alice", done: true }`));
    expect(refused.addTodo).toEqual({ numUids: 0, todo: [] });
    expect(await done("t1")).toBeNull();
    const allowed = await as<Added>({ USER: "alice" }, upsert(`{ title: "t1", owner: "alice", done: true }`));
    expect(allowed.addTodo).toEqual({ numUids: 1, todo: [{ title: "t1", done: true }] });
    expect(await done("t1")).toBe(true);
  });

  it("still adds the new nodes of the same call, by their add rule", async () => {
    const r = await as<Added>(
      { USER: "bob" },
      upsert(`{ title: "t1", owner: "alice", done: false }, { title: "b1", owner: "bob" }`),
    );
    expect(r.addTodo).toEqual({ numUids: 1, todo: [{ title: "b1", done: null }] });
    expect(await done("t1")).toBe(true);
    // Named first by a Ref (linked, not updated), then upserted at the top level: still refused.
    const linked = await as<Added>(
      { USER: "bob" },
      upsert(
        `{ title: "b2", owner: "bob", next: { title: "t1" } }, { title: "t1", owner: "alice", done: false }`,
      ),
    );
    expect(linked.addTodo).toEqual({ numUids: 1, todo: [{ title: "b2", done: null }] });
    expect(await done("t1")).toBe(true);
    const refused = await as<Added>({ USER: "bob" }, upsert(`{ title: "a2", owner: "alice" }`)).catch(
      (e: ClientError) => e.response,
    );
    expect((refused as { errors: { message: string }[] }).errors[0].message).toBe(
      "mutation failed because authorization failed",
    );
  });
});

describe("@auth on a field", () => {
  it("is refused with Dgraph's text at the field's line", () => {
    expect(
      problems(`type T {\n  id: ID!\n  secret: String @auth(query: { rule: "{$R: { eq: \\"A\\" } }" })\n}`),
    ).toEqual(["input:3: Type T; Field secret: @auth directive is not allowed on fields"]);
  });
});
