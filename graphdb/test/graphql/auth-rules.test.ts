/**
 * `@auth` rules with `# Dgraph.Authorization` JWTs on the real in-process engine: a todo app whose Todo is
 * readable by its owner (graph-traversal rule over `$USER`) or an ADMIN (RBAC rule over `$ROLE`); queries,
 * nested reads, aggregates, payloads, add/update/delete allowed and denied by claims; HS256, RS256 with a
 * PEM key and with a JWK set served over loopback; bad, expired and wrong-audience tokens; rule and
 * settings errors at schema time; ClosedByDefault; and the JWT header through the HTTP server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";
import { createGraphDB } from "../../src/index.ts";
import { createHttpServer } from "../../src/server/http-server.ts";

const NS = "https://xyz.io/jwt/claims";
const SECRET = "a-test-secret-of-enough-length-0123456789";
const OWNER_RULE = `query($USER: String!) { queryTodo { owner(filter: { username: { eq: $USER } }) { username } } }`;

const TYPES = `
type User {
  username: String! @id
  name: String
  todos: [Todo] @hasInverse(field: owner)
}
type Todo @auth(
  query: { or: [
    { rule: """${OWNER_RULE}""" },
    { rule: "{$ROLE: { eq: \\"ADMIN\\" } }" }
  ] },
  add: { rule: """${OWNER_RULE}""" },
  update: { rule: """${OWNER_RULE}""" },
  delete: { rule: "{$ROLE: { in: [\\"ADMIN\\", \\"MODERATOR\\"] } }" }
) {
  id: ID!
  text: String! @search(by: [term])
  owner: User
}
`;

const hsConfig = (extra: Record<string, unknown> = {}) =>
  `# Dgraph.Authorization ${JSON.stringify({ VerificationKey: SECRET, Header: "X-Test-Auth", Namespace: NS, Algo: "HS256", Audience: ["todo-app"], ...extra })}`;

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "graphql-auth-"));
  dirs.push(d);
  return d;
}

async function hsToken(claims: Record<string, unknown>, opts: { exp?: string | number; aud?: string } = {}) {
  const jwt = new SignJWT({ [NS]: claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setAudience(opts.aud ?? "todo-app")
    .setExpirationTime(opts.exp ?? "1h");
  return jwt.sign(new TextEncoder().encode(SECRET));
}

async function serviceWith(
  sdl: string,
  options?: ConstructorParameters<typeof GraphQLService>[1],
): Promise<{ db: GraphDB; service: GraphQLService }> {
  const db = new GraphDB({ dir: tempDir() });
  const service = new GraphQLService(db, options);
  await service.updateSchema(0, sdl);
  return { db, service };
}

type Result = { data?: Record<string, unknown> | null; errors?: { message: string }[] };

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("@auth with HS256 tokens", () => {
  let db: GraphDB;
  let service: GraphQLService;
  const ids: Record<string, string> = {};

  async function gql(query: string, token?: string, variables?: Record<string, unknown>): Promise<Result> {
    const headers = token === undefined ? {} : { "x-test-auth": token };
    return JSON.parse(JSON.stringify(await service.execute(0, { query, variables, headers })));
  }

  beforeAll(async () => {
    ({ db, service } = await serviceWith(`${TYPES}\n${hsConfig()}\n`));
    const res = await db.mutate({
      commitNow: true,
      mutations: [
        {
          setNquads: `
_:alice <dgraph.type> "User" .
_:alice <User.username> "alice" .
_:bob <dgraph.type> "User" .
_:bob <User.username> "bob" .
_:t1 <dgraph.type> "Todo" .
_:t1 <Todo.text> "alice one" .
_:t1 <Todo.owner> _:alice .
_:alice <User.todos> _:t1 .
_:t2 <dgraph.type> "Todo" .
_:t2 <Todo.text> "alice two" .
_:t2 <Todo.owner> _:alice .
_:alice <User.todos> _:t2 .
_:t3 <dgraph.type> "Todo" .
_:t3 <Todo.text> "bob one" .
_:t3 <Todo.owner> _:bob .
_:bob <User.todos> _:t3 .`,
        },
      ],
    });
    Object.assign(ids, res.uids);
  });

  afterAll(async () => {
    await db.close();
  });

  it("exposes the parsed settings and compiled rules on the build", async () => {
    const build = await service.current(0);
    expect(build?.authorization).toMatchObject({
      header: "x-test-auth",
      namespace: NS,
      algo: "HS256",
      audience: ["todo-app"],
      closedByDefault: false,
    });
    expect(build?.authRules?.get("Todo")?.query?.kind).toBe("or");
    expect(build?.authRules?.has("User")).toBe(false);
  });

  it("query: the owner sees only their todos, an ADMIN all, no token none", async () => {
    const q = "{ queryTodo(order: { asc: text }) { text } }";
    expect((await gql(q, await hsToken({ USER: "alice" }))).data?.queryTodo).toEqual([
      { text: "alice one" },
      { text: "alice two" },
    ]);
    expect((await gql(q, await hsToken({ USER: "bob" }))).data?.queryTodo).toEqual([{ text: "bob one" }]);
    expect((await gql(q, await hsToken({ USER: "carol", ROLE: "ADMIN" }))).data?.queryTodo).toHaveLength(3);
    expect((await gql(q, await hsToken({ ROLE: "USER" }))).data?.queryTodo).toEqual([]);
    expect(await gql(q)).toEqual({ data: { queryTodo: [] } });
  });

  it("get and filters combine with the rule", async () => {
    const alice = await hsToken({ USER: "alice" });
    const get = `query($id: ID!) { getTodo(id: $id) { text } }`;
    expect((await gql(get, alice, { id: ids.t1 })).data?.getTodo).toEqual({ text: "alice one" });
    expect((await gql(get, alice, { id: ids.t3 })).data?.getTodo).toBeNull();
    const filtered = await gql(`{ queryTodo(filter: { text: { anyofterms: "two one" } }) { text } }`, alice);
    expect(((filtered.data?.queryTodo ?? []) as unknown[]).length).toBe(2);
  });

  it("nested reads and nested aggregates are filtered too", async () => {
    const q = `{ queryUser(order: { asc: username }) { username todos { text } todosAggregate { count } } }`;
    const r = await gql(q, await hsToken({ USER: "bob" }));
    expect(r.data?.queryUser).toEqual([
      { username: "alice", todos: [], todosAggregate: { count: 0 } },
      { username: "bob", todos: [{ text: "bob one" }], todosAggregate: { count: 1 } },
    ]);
  });

  it("aggregate counts only what the claims allow", async () => {
    const q = "{ aggregateTodo { count } }";
    expect((await gql(q, await hsToken({ USER: "alice" }))).data?.aggregateTodo).toEqual({ count: 2 });
    expect((await gql(q, await hsToken({ ROLE: "ADMIN" }))).data?.aggregateTodo).toEqual({ count: 3 });
    expect((await gql(q)).data?.aggregateTodo).toEqual({ count: 0 });
  });

  it("add: allowed when the new todo satisfies the rule, rolled back otherwise", async () => {
    const add = `mutation($owner: String!, $text: String!) {
      addTodo(input: [{ text: $text, owner: { username: $owner } }]) { numUids todo { text owner { username } } }
    }`;
    const ok = await gql(add, await hsToken({ USER: "alice" }), { owner: "alice", text: "alice three" });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.addTodo).toEqual({
      numUids: 1,
      todo: [{ text: "alice three", owner: { username: "alice" } }],
    });
    const denied = await gql(add, await hsToken({ USER: "alice" }), { owner: "bob", text: "sneaky" });
    expect(denied.errors?.[0].message).toBe("mutation failed because authorization failed");
    expect(denied.data?.addTodo).toBeNull();
    const none = await gql(add, undefined, { owner: "bob", text: "anonymous" });
    expect(none.errors?.[0].message).toBe("mutation failed because authorization failed");
    const all = await gql("{ queryTodo { text } }", await hsToken({ ROLE: "ADMIN" }));
    const texts = ((all.data?.queryTodo ?? []) as { text: string }[]).map((t) => t.text).sort();
    expect(texts).toEqual(["alice one", "alice three", "alice two", "bob one"]);
  });

  it("update: only the nodes satisfying the update rule change", async () => {
    const upd = `mutation { updateTodo(input: { filter: { text: { anyofterms: "one" } }, set: { text: "one (edited)" } }) { numUids } }`;
    const r = await gql(upd, await hsToken({ USER: "bob" }));
    expect(r.data?.updateTodo).toEqual({ numUids: 1 });
    const all = await gql("{ queryTodo { text owner { username } } }", await hsToken({ ROLE: "ADMIN" }));
    const bobs = ((all.data?.queryTodo ?? []) as { text: string; owner: { username: string } }[]).filter(
      (t) => t.owner.username === "bob",
    );
    expect(bobs.map((t) => t.text)).toEqual(["one (edited)"]);
    expect(((all.data?.queryTodo ?? []) as { text: string }[]).some((t) => t.text === "alice one")).toBe(
      true,
    );
    const none = await gql(upd);
    expect(none.data?.updateTodo).toEqual({ numUids: 0 });
  });

  it("delete: an RBAC rule decides (in: [ADMIN, MODERATOR])", async () => {
    const del = `mutation { deleteTodo(filter: { text: { anyofterms: "three" } }) { numUids msg } }`;
    expect((await gql(del, await hsToken({ USER: "alice" }))).data?.deleteTodo).toEqual({
      numUids: 0,
      msg: "Deleted",
    });
    expect((await gql(del, await hsToken({ ROLE: "MODERATOR" }))).data?.deleteTodo).toEqual({
      numUids: 1,
      msg: "Deleted",
    });
    expect((await gql("{ aggregateTodo { count } }", await hsToken({ ROLE: "ADMIN" }))).data).toEqual({
      aggregateTodo: { count: 3 },
    });
  });

  it("rejects a bad, an expired, a wrong-audience and a wrongly signed token with Dgraph's texts", async () => {
    const q = "{ queryTodo { text } }";
    const bad = await gql(q, "not-a-jwt");
    expect(bad.errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because unable to parse jwt token:token contains an invalid number of segments",
    );
    const expired = await gql(
      q,
      await hsToken({ USER: "alice" }, { exp: Math.floor(Date.now() / 1000) - 3600 }),
    );
    expect(expired.errors?.[0].message).toMatch(
      /^couldn't rewrite query queryTodo because unable to parse jwt token:token is expired by 1h0m\ds$/,
    );
    const forever = await gql(q, await hsToken({ USER: "alice" }, { exp: 1e308 }));
    expect(forever.errors?.[0].message).toBe(
      'couldn\'t rewrite query queryTodo because unable to parse jwt token:token has invalid claims: "exp" is not whole seconds since 1970 up to the year 9999',
    );
    const aud = await gql(q, await hsToken({ USER: "alice" }, { aud: "other-app" }));
    expect(aud.errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because JWT `aud` value doesn't match with the audience",
    );
    const forged = await new SignJWT({ [NS]: { ROLE: "ADMIN" } })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("another-secret-another-secret-0000"));
    expect((await gql(q, forged)).errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because unable to parse jwt token:signature is invalid",
    );
    const mutation = await gql(`mutation { deleteTodo(filter: {}) { numUids } }`, "Bearer not-a-jwt");
    expect(mutation.errors?.[0].message).toBe(
      "couldn't rewrite mutation deleteTodo because unable to parse jwt token:token contains an invalid number of segments",
    );
  });

  it("claims outside the namespace are seen too, a Bearer prefix is accepted", async () => {
    const token = await new SignJWT({ ROLE: "ADMIN" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(SECRET));
    expect((await gql("{ aggregateTodo { count } }", `Bearer ${token}`)).data?.aggregateTodo).toEqual({
      count: 3,
    });
  });
});

describe("schema-time checks", () => {
  const base = "type T @auth(query: %RULE%) { id: ID!  name: String @search(by: [exact]) }";
  const errorOf = (sdl: string) => {
    try {
      buildGraphQLSchema(sdl);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it("reports bad rules with Dgraph's texts", () => {
    expect(
      errorOf(base.replace("%RULE%", `{ rule: "query { queryT(filter: { nope: true }) { id } }" }`)),
    ).toContain("Type T: @auth: failed to validate GraphQL rule [reason : ");
    expect(errorOf(base.replace("%RULE%", `{ rule: "query { getT(id: \\"0x1\\") { id } }" }`))).toBe(
      "Type T: @auth: expected only queryT rules,but found getT",
    );
    expect(errorOf(base.replace("%RULE%", `{ rule: "query { queryT { id } " }`))).toMatch(
      /^Type T: @auth: failed to parse GraphQL rule \[reason : /,
    );
    expect(errorOf(base.replace("%RULE%", `{ rule: "{$ROLE: { gt: \\"1\\" } }" }`))).toBe(
      "Type T: @auth: `gt` operator is not supported in this rule.",
    );
    expect(errorOf(base.replace("%RULE%", `{ or: [{ rule: "{$ROLE: { eq: \\"A\\" } }" }] }`))).toBe(
      "Type T: @auth: 'OR' should contain at least two rules",
    );
  });

  it("reports bad Dgraph.Authorization lines", () => {
    const sdl = "type T { id: ID!  name: String }\n";
    expect(errorOf(`${sdl}# Dgraph.Authorization {}`)).toBe(
      "required field missing in Dgraph.Authorization: `Verification key`/`JWKUrl`/`JWKUrls` `Algo` `Header` `Namespace`",
    );
    const line = hsConfig();
    expect(errorOf(`${sdl}${line}\n${line}`)).toBe(
      `Dgraph.Authorization should be only be specified once in a schema, found second mention: ${line}`,
    );
    expect(errorOf(`${sdl}${hsConfig({ Algo: "ES256" })}`)).toMatch(/^invalid jwt algorithm: found ES256/);
  });
});

describe("@auth with RS256", () => {
  let jwks: Server;
  let jwksUrl: string;
  let fetches = 0;
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;

  beforeAll(async () => {
    keys = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: "key-1", alg: "RS256", use: "sig" };
    jwks = createServer((_req, res) => {
      fetches++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
    const addr = jwks.address() as { port: number };
    jwksUrl = `http://127.0.0.1:${addr.port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    await new Promise((r) => jwks.close(r));
  });

  const rsToken = (claims: Record<string, unknown>, kid?: string) =>
    new SignJWT({ [NS]: claims })
      .setProtectedHeader(kid === undefined ? { alg: "RS256" } : { alg: "RS256", kid })
      .setAudience("todo-app")
      .setExpirationTime("1h")
      .sign(keys.privateKey);

  it("verifies with a PEM VerificationKey", async () => {
    const pem = await exportSPKI(keys.publicKey);
    const config = `# Dgraph.Authorization ${JSON.stringify({ VerificationKey: pem, Header: "X-Test-Auth", Namespace: NS, Algo: "RS256", Audience: ["todo-app"] })}`;
    const { db, service } = await serviceWith(`${TYPES}\n${config}\n`);
    await db.mutate({
      commitNow: true,
      mutations: [{ setNquads: `_:t <dgraph.type> "Todo" .\n_:t <Todo.text> "x" .` }],
    });
    const run = async (token: string) =>
      JSON.parse(
        JSON.stringify(
          await service.execute(0, {
            query: "{ aggregateTodo { count } }",
            headers: { "x-test-auth": token },
          }),
        ),
      ) as Result;
    expect((await run(await rsToken({ ROLE: "ADMIN" }))).data?.aggregateTodo).toEqual({ count: 1 });
    expect((await run(await rsToken({ ROLE: "USER" }))).data?.aggregateTodo).toEqual({ count: 0 });
    expect((await run(await hsToken({ ROLE: "ADMIN" }))).errors?.[0].message).toBe(
      "couldn't rewrite query aggregateTodo because unable to parse jwt token:unexpected signing method: Expected RS256 Found HS256",
    );
    await db.close();
  });

  it("verifies with a JWK set fetched from JWKUrl (and cached)", async () => {
    const config = `# Dgraph.Authorization ${JSON.stringify({ JWKUrl: jwksUrl, Header: "X-Test-Auth", Namespace: NS, Audience: ["todo-app"] })}`;
    const { db, service } = await serviceWith(`${TYPES}\n${config}\n`);
    await db.mutate({
      commitNow: true,
      mutations: [{ setNquads: `_:t <dgraph.type> "Todo" .\n_:t <Todo.text> "x" .` }],
    });
    const run = async (token: string) =>
      JSON.parse(
        JSON.stringify(
          await service.execute(0, { query: "{ queryTodo { text } }", headers: { "x-test-auth": token } }),
        ),
      ) as Result;
    expect((await run(await rsToken({ ROLE: "ADMIN" }, "key-1"))).data?.queryTodo).toEqual([{ text: "x" }]);
    expect((await run(await rsToken({ ROLE: "ADMIN" }, "key-1"))).data?.queryTodo).toEqual([{ text: "x" }]);
    expect(fetches).toBe(1);
    expect((await run(await rsToken({ ROLE: "ADMIN" }, "other"))).errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because unable to parse jwt token:Invalid kid",
    );
    expect((await run(await rsToken({ ROLE: "ADMIN" }))).errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because unable to parse jwt token:kid not present in JWT",
    );
    await db.close();
  });

  it("fetches the JWK set through the fetch the host hands in, and words its refusal", async () => {
    const config = `# Dgraph.Authorization ${JSON.stringify({ JWKUrl: jwksUrl, Header: "X-Test-Auth", Namespace: NS, Audience: ["todo-app"] })}`;
    const asked: string[] = [];
    const { db, service } = await serviceWith(`${TYPES}\n${config}\n`, {
      fetch: async (input) => {
        asked.push(String(input));
        throw new TypeError("fetch failed", { cause: new Error("127.0.0.1 is a loopback address") });
      },
    });
    const before = fetches;
    const result = JSON.parse(
      JSON.stringify(
        await service.execute(0, {
          query: "{ queryTodo { text } }",
          headers: { "x-test-auth": await rsToken({ ROLE: "ADMIN" }, "key-1") },
        }),
      ),
    ) as Result;
    expect(result.errors?.[0].message).toBe(
      "couldn't rewrite query queryTodo because while refreshing JWK from the URL: 127.0.0.1 is a loopback address",
    );
    expect(new Set(asked)).toEqual(new Set([jwksUrl]));
    expect(fetches).toBe(before);
    await db.close();
  });
});

describe("interfaces", () => {
  it("a type's rules and its interface's rules both apply, also through query<Interface>", async () => {
    const sdl = `
interface Doc @auth(query: { rule: "{$ROLE: { eq: \\"READER\\" } }" }) {
  id: ID!
  title: String! @search(by: [exact])
}
type Note implements Doc @auth(query: { rule: """query($USER: String!) { queryNote(filter: { author: { eq: $USER } }) { id } }""" }) {
  author: String! @search(by: [exact])
}
type Memo implements Doc { body: String }
${hsConfig()}
`;
    const { db, service } = await serviceWith(sdl);
    await db.mutate({
      commitNow: true,
      mutations: [
        {
          setNquads: `
_:n1 <dgraph.type> "Note" .
_:n1 <dgraph.type> "Doc" .
_:n1 <Doc.title> "ann's note" .
_:n1 <Note.author> "ann" .
_:n2 <dgraph.type> "Note" .
_:n2 <dgraph.type> "Doc" .
_:n2 <Doc.title> "ben's note" .
_:n2 <Note.author> "ben" .
_:m <dgraph.type> "Memo" .
_:m <dgraph.type> "Doc" .
_:m <Doc.title> "memo" .`,
        },
      ],
    });
    const run = async (query: string, claims: Record<string, unknown>) =>
      (
        JSON.parse(
          JSON.stringify(
            await service.execute(0, { query, headers: { "x-test-auth": await hsToken(claims) } }),
          ),
        ) as Result
      ).data;
    expect(await run("{ queryNote { title } }", { USER: "ann", ROLE: "READER" })).toEqual({
      queryNote: [{ title: "ann's note" }],
    });
    expect(await run("{ queryNote { title } }", { USER: "ann" })).toEqual({ queryNote: [] });
    expect(await run("{ queryMemo { title } }", { ROLE: "READER" })).toEqual({
      queryMemo: [{ title: "memo" }],
    });
    expect(await run("{ queryMemo { title } }", { USER: "ann" })).toEqual({ queryMemo: [] });
    const docs = await run("{ queryDoc(order: { asc: title }) { title __typename } }", {
      USER: "ben",
      ROLE: "READER",
    });
    expect(docs).toEqual({
      queryDoc: [
        { title: "ben's note", __typename: "Note" },
        { title: "memo", __typename: "Memo" },
      ],
    });
    await db.close();
  });
});

describe("ClosedByDefault", () => {
  it("refuses every operation without a token, and serves types without rules with one", async () => {
    const sdl = `type Note { id: ID!  text: String }\n${hsConfig({ ClosedByDefault: true })}\n`;
    const { db, service } = await serviceWith(sdl);
    const run = async (query: string, token?: string) =>
      JSON.parse(
        JSON.stringify(
          await service.execute(0, { query, headers: token === undefined ? {} : { "x-test-auth": token } }),
        ),
      ) as Result;
    const anon = await run("{ queryNote { text } }");
    expect(anon.errors?.[0].message).toBe(
      "couldn't rewrite query queryNote because a valid JWT is required but was not provided",
    );
    const add = await run(`mutation { addNote(input: [{ text: "hi" }]) { numUids } }`);
    expect(add.errors?.[0].message).toBe(
      "couldn't rewrite mutation addNote because a valid JWT is required but was not provided",
    );
    const token = await hsToken({ USER: "x" });
    expect((await run(`mutation { addNote(input: [{ text: "hi" }]) { numUids } }`, token)).data).toEqual({
      addNote: { numUids: 1 },
    });
    expect((await run("{ queryNote { text } }", token)).data).toEqual({ queryNote: [{ text: "hi" }] });
    await db.close();
  });
});

describe("over HTTP", () => {
  it("reads the JWT from the configured header", async () => {
    const handle = createGraphDB({ dir: tempDir() });
    const server = createHttpServer(handle.engine);
    const { port } = await server.listen(0, "127.0.0.1");
    const base = `http://127.0.0.1:${port}`;
    try {
      const schema = await fetch(`${base}/admin/schema`, {
        method: "POST",
        headers: { "content-type": "application/graphql" },
        body: `${TYPES}\n${hsConfig()}\n`,
      });
      expect(await schema.json()).toEqual({ data: { code: "Success", message: "Done" } });
      const post = async (query: string, token?: string) => {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (token !== undefined) headers["X-Test-Auth"] = token;
        const res = await fetch(`${base}/graphql`, {
          method: "POST",
          headers,
          body: JSON.stringify({ query }),
        });
        return (await res.json()) as Result;
      };
      const alice = await hsToken({ USER: "alice" });
      const added = await post(
        `mutation { addTodo(input: [{ text: "via http", owner: { username: "alice" } }]) { numUids } }`,
        alice,
      );
      expect(added).toEqual({ data: { addTodo: { numUids: 2 } } }); // the todo and its new owner
      expect((await post("{ queryTodo { text } }", alice)).data).toEqual({
        queryTodo: [{ text: "via http" }],
      });
      expect((await post("{ queryTodo { text } }", await hsToken({ USER: "bob" }))).data).toEqual({
        queryTodo: [],
      });
      expect((await post("{ queryTodo { text } }")).data).toEqual({ queryTodo: [] });
    } finally {
      await server.close();
      await handle.close();
    }
  });
});
