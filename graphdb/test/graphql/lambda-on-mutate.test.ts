/**
 * `@lambdaOnMutate` over HTTP with `graphql-request` and a loopback lambda server: after each committed
 * root add/update/delete of a type asking for it, Dgraph's webhook payload is POSTed to `--lambda-url`
 * (`{source, namespace, resolver: "$webhook", authHeader, event: {__typename, operation, commitTs, …}}`);
 * nothing for operations not asked for, nested adds or failed mutations; a slow, failing or absent lambda
 * server neither slows nor fails the mutation; an in-process lambda caller gets the event too; and a
 * server without a lambda server refuses the schema with Dgraph's text.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ClientError, GraphQLClient } from "graphql-request";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LambdaRequest } from "../../src/graphql/execution/lambda-caller.ts";
import { createGraphDB, type GraphDBHandle, GraphQLService } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

const SECRET = "a-test-secret-of-enough-length-0123456789";
const AUTH = `# Dgraph.Authorization {"VerificationKey":"${SECRET}","Header":"X-Test-Auth","Namespace":"https://xyz.io/jwt/claims","Algo":"HS256"}`;

const SCHEMA = `
type Author @lambdaOnMutate(add: true, update: true, delete: true) {
  id: ID!
  name: String! @search(by: [hash])
  posts: [Post] @hasInverse(field: author)
}
type Post @lambdaOnMutate(add: true, update: false) {
  id: ID!
  title: String! @search(by: [hash])
  author: Author
}
type Tag {
  name: String! @id
}
${AUTH}
`;

interface Webhook {
  source: string;
  namespace: number;
  resolver: string;
  authHeader?: { key: string; value: string };
  event: { __typename: string; operation: string; commitTs: number } & Record<string, unknown>;
}

const dirs: string[] = [];
const closers: (() => Promise<unknown>)[] = [];

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => resolve(text));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A graph database HTTP server with the given GraphQL options; its GraphQL client and base URL. */
async function graphServer(graphql: {
  lambdaUrl?: string;
}): Promise<{ db: GraphDBHandle; base: string; client: GraphQLClient }> {
  const dir = mkdtempSync(join(tmpdir(), "graphql-webhook-"));
  dirs.push(dir);
  const db = createGraphDB({ dir });
  const server: HttpServer = createHttpServer(db.engine, { graphql });
  const { port } = await server.listen(0, "127.0.0.1");
  closers.push(async () => {
    await server.close();
    await db.close();
  });
  const base = `http://127.0.0.1:${port}`;
  return { db, base, client: new GraphQLClient(`${base}/graphql`) };
}

async function uploadSchema(base: string, sdl: string): Promise<unknown> {
  return (await fetch(`${base}/admin/schema`, { method: "POST", body: sdl })).json();
}

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("@lambdaOnMutate webhooks", () => {
  const received: Webhook[] = [];
  let client: GraphQLClient;

  /** The next `n` webhooks received after `from` (waits up to 5 s). */
  async function webhooks(from: number, n: number): Promise<Webhook[]> {
    for (let i = 0; i < 250 && received.length < from + n; i++) await new Promise((r) => setTimeout(r, 20));
    return received.slice(from, from + n);
  }

  beforeAll(async () => {
    const lambdaUrl = await listen(
      createServer(async (req, res) => {
        received.push(JSON.parse(await read(req)) as Webhook);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      }),
    );
    const graph = await graphServer({ lambdaUrl: `${lambdaUrl}/graphql-worker` });
    client = graph.client;
    expect(await uploadSchema(graph.base, SCHEMA)).toEqual({ data: { code: "Success", message: "Done" } });
  });

  let authorId = "";
  let postId = "";
  let addTs = 0;

  it("sends Dgraph's add event for the root nodes, with the input as given, after the commit", async () => {
    const from = received.length;
    const r = await client.request<{ addAuthor: { author: { id: string; posts: { id: string }[] }[] } }>(
      `mutation { addAuthor(input: [{ name: "ann", posts: [{ title: "first" }] }]) { author { id posts { id } } } }`,
    );
    authorId = r.addAuthor.author[0].id;
    postId = r.addAuthor.author[0].posts[0].id;
    const [hook] = await webhooks(from, 1);
    addTs = hook.event.commitTs;
    expect(addTs).toBeGreaterThan(0);
    expect(hook).toEqual({
      source: "",
      namespace: 0,
      resolver: "$webhook",
      authHeader: { key: "x-test-auth", value: "" },
      event: {
        __typename: "Author",
        operation: "add",
        commitTs: addTs,
        add: { rootUIDs: [authorId], input: [{ name: "ann", posts: [{ title: "first" }] }] },
      },
    });
    // The nested Post was added by an Author mutation: no Post event.
    await new Promise((r) => setTimeout(r, 100));
    expect(received.slice(from).map((h) => h.event.__typename)).toEqual(["Author"]);
  });

  it("sends the update event with the set and remove patches, and the request's JWT", async () => {
    const from = received.length;
    const jwt = await new SignJWT({ USER: "ann" })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(SECRET));
    await client.request(
      `mutation($p: ID!) { updateAuthor(input: { filter: { name: { eq: "ann" } }, set: { name: "anna" }, remove: { posts: [{ id: $p }] } }) { numUids } }`,
      { p: postId },
      { "X-Test-Auth": `Bearer ${jwt}` },
    );
    const [hook] = await webhooks(from, 1);
    expect(hook.event.commitTs).toBeGreaterThan(addTs);
    expect(hook.authHeader).toEqual({ key: "x-test-auth", value: jwt });
    expect(hook.event).toEqual({
      __typename: "Author",
      operation: "update",
      commitTs: hook.event.commitTs,
      update: { rootUIDs: [authorId], setPatch: { name: "anna" }, removePatch: { posts: [{ id: postId }] } },
    });
  });

  it("sends the delete event with the deleted root nodes", async () => {
    const from = received.length;
    await client.request(`mutation($a: [ID!]) { deleteAuthor(filter: { id: $a }) { numUids } }`, {
      a: [authorId],
    });
    const [hook] = await webhooks(from, 1);
    expect(hook.event).toEqual({
      __typename: "Author",
      operation: "delete",
      commitTs: hook.event.commitTs,
      delete: { rootUIDs: [authorId] },
    });
  });

  it("sends nothing for operations not asked for, types without it, or failed mutations", async () => {
    const from = received.length;
    await client.request(`mutation { addTag(input: [{ name: "news" }]) { numUids } }`);
    await client.request(
      `mutation { updatePost(input: { filter: {}, set: { title: "renamed" } }) { numUids } }`,
    );
    const failed = await client
      .request(`mutation { addTag(input: [{ name: "news" }]) { numUids } }`)
      .catch((e: ClientError) => e.response);
    expect((failed as { errors: unknown[] }).errors).toHaveLength(1);
    await client.request(`mutation { addPost(input: [{ title: "second" }]) { numUids } }`);
    const [hook] = await webhooks(from, 1);
    expect(hook.event).toMatchObject({ __typename: "Post", operation: "add" });
    await new Promise((r) => setTimeout(r, 100));
    expect(received.length).toBe(from + 1);
  });
});

describe("@lambdaOnMutate never holds up a mutation", () => {
  it("answers at once, without errors, while the lambda server hangs and fails, or is not there", async () => {
    let hits = 0;
    const slow = await listen(
      createServer((_req, res) => {
        hits++;
        setTimeout(() => res.writeHead(500).end("down"), 3000);
      }),
    );
    const graph = await graphServer({ lambdaUrl: slow });
    await uploadSchema(graph.base, SCHEMA);
    const started = Date.now();
    const r = await graph.client.request<{ addAuthor: { numUids: number } }>(
      `mutation { addAuthor(input: [{ name: "bo" }]) { numUids } }`,
    );
    expect(r.addAuthor.numUids).toBe(1);
    expect(Date.now() - started).toBeLessThan(1500);
    for (let i = 0; i < 100 && hits === 0; i++) await new Promise((res) => setTimeout(res, 20));
    expect(hits).toBe(1);

    // Nothing listening at the URL at all: the same.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolve) => gone.close(resolve));
    const unreachable = await graphServer({ lambdaUrl: `http://127.0.0.1:${port}/` });
    await uploadSchema(unreachable.base, SCHEMA);
    const r2 = await unreachable.client.request<{ addAuthor: { numUids: number } }>(
      `mutation { addAuthor(input: [{ name: "cy" }]) { numUids } }`,
    );
    expect(r2.addAuthor.numUids).toBe(1);
  });
});

describe("@lambdaOnMutate configuration", () => {
  it("hands the event to an in-process lambda caller as a $webhook request", async () => {
    const dir = mkdtempSync(join(tmpdir(), "graphql-webhook-"));
    dirs.push(dir);
    const db = createGraphDB({ dir });
    closers.push(() => db.close());
    const requests: (LambdaRequest & { event?: Webhook["event"] })[] = [];
    const service = new GraphQLService(db.engine, {
      lambda: async (request) => {
        requests.push(request);
        throw new Error("not a resolver this caller knows");
      },
    });
    await service.updateSchema(0, SCHEMA);
    const r = await service.execute(0, {
      query: `mutation { addAuthor(input: [{ name: "di" }]) { numUids } }`,
    });
    expect(r.errors).toBeUndefined();
    for (let i = 0; i < 100 && requests.length === 0; i++) await new Promise((res) => setTimeout(res, 20));
    expect(requests[0]).toMatchObject({
      resolver: "$webhook",
      parents: null,
      args: {},
      namespace: 0,
      event: { __typename: "Author", operation: "add", add: { input: [{ name: "di" }] } },
    });
  });

  it("refuses and fails validation of the schema on a server without a lambda server, with Dgraph's text", async () => {
    const graph = await graphServer({});
    expect(await uploadSchema(graph.base, SCHEMA)).toEqual({
      errors: [
        {
          message:
            "input:2: Type Author: has the @lambdaOnMutate directive, but the `--graphql lambda-url` flag wasn't specified during alpha startup.\ninput:7: Type Post: has the @lambdaOnMutate directive, but the `--graphql lambda-url` flag wasn't specified during alpha startup.",
          extensions: { code: "Error" },
        },
      ],
    });
    const checked = await fetch(`${graph.base}/admin/schema/validate`, { method: "POST", body: SCHEMA });
    expect(checked.status).toBe(400);
    expect(((await checked.json()) as { errors: { message: string }[] }).errors[0].message).toBe(
      "input:2: Type Author: has the @lambdaOnMutate directive, but the `--graphql lambda-url` flag wasn't specified during alpha startup.",
    );
  });
});
