/**
 * `@custom(http:)` fields against a loopback REST and GraphQL API: URL and body templates over arguments and
 * parent fields, SINGLE and BATCH modes, a GraphQL endpoint, forwarded headers, and failures kept to the
 * field.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { fillBody, fillUrl } from "../../src/graphql/execution/custom-http.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

let dir: string;
let db: GraphDB;
let service: GraphQLService;
let api: Server;
const seen: { method: string; url: string; body: unknown; auth?: string }[] = [];
/** What the endless endpoint sent, and whether the client closed the connection. */
const endless = { bytes: 0, closed: false };

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => resolve(text));
  });
}

beforeAll(async () => {
  api = createServer(async (req, res) => {
    if (req.url === "/endless") return streamForever(res);
    const text = await read(req);
    const body = text === "" ? undefined : JSON.parse(text);
    seen.push({ method: req.method ?? "", url: req.url ?? "", body, auth: req.headers.authorization });
    const url = new URL(req.url ?? "/", "http://x");
    const send = (v: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(v));
    if (url.pathname === "/weather") return send({ city: url.searchParams.get("city"), celsius: 21 });
    if (url.pathname.startsWith("/greeting/"))
      return send(`hello ${decodeURIComponent(url.pathname.slice(10))}`);
    if (url.pathname === "/scores") return send((body as { name: string }[]).map((b) => b.name.length));
    if (url.pathname === "/graphql") return send({ data: { double: (body.variables.n as number) * 2 } });
    res.writeHead(503).end("down");
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "graphql-custom-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(
    0,
    `
type Weather @remote { city: String  celsius: Int }
type Person {
  id: ID!
  name: String! @search(by: [hash])
  greeting: String @custom(http: { url: "${base}/greeting/$name", method: GET })
  score: Int @custom(http: { url: "${base}/scores", method: POST, body: "{ name: $name }", mode: BATCH })
  broken: String @custom(http: { url: "${base}/down", method: GET })
}
type Query {
  weather(city: String!): Weather @custom(http: { url: "${base}/weather?city=$city", method: GET, forwardHeaders: ["Authorization"] })
  endless: String @custom(http: { url: "${base}/endless", method: GET })
  double(n: Int!): Int @custom(http: { url: "${base}/graphql", method: POST, graphql: "query($n: Int!) { double(n: $n) }", skipIntrospection: true })
}`,
  );
  await db.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads:
          '_:a <dgraph.type> "Person" .\n_:a <Person.name> "ann" .\n_:b <dgraph.type> "Person" .\n_:b <Person.name> "robert" .',
      },
    ],
  });
});

afterAll(async () => {
  await db.close();
  api.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A JSON string that never ends, in 64 KiB chunks as fast as the client reads them. */
function streamForever(res: import("node:http").ServerResponse): void {
  endless.bytes = 0;
  endless.closed = false;
  res.writeHead(200, { "content-type": "application/json" });
  res.write('"');
  const chunk = Buffer.alloc(64 * 1024, "x");
  const pump = () => {
    while (!res.destroyed) {
      endless.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
  };
  res.on("close", () => {
    endless.closed = true;
  });
  pump();
}

const run = async (query: string, headers?: Record<string, string>) =>
  JSON.parse(JSON.stringify(await service.execute(0, { query, headers })));

describe("@custom(http:) fields", () => {
  it("fills URL templates from arguments and forwards the named headers", async () => {
    seen.length = 0;
    const r = await run('{ weather(city: "São Paulo") { city celsius } }', { authorization: "Bearer t" });
    expect(r).toEqual({ data: { weather: { city: "São Paulo", celsius: 21 } } });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/weather?city=S%C3%A3o+Paulo", auth: "Bearer t" });
  });

  it("calls a type's field once per parent (SINGLE) or once per level (BATCH)", async () => {
    seen.length = 0;
    const r = await run("{ queryPerson(order: { asc: name }) { name greeting score } }");
    expect(r).toEqual({
      data: {
        queryPerson: [
          { name: "ann", greeting: "hello ann", score: 3 },
          { name: "robert", greeting: "hello robert", score: 6 },
        ],
      },
    });
    expect(seen.filter((s) => s.url.startsWith("/greeting/"))).toHaveLength(2);
    const batch = seen.filter((s) => s.url === "/scores");
    expect(batch).toHaveLength(1);
    expect(batch[0].body).toEqual([{ name: "ann" }, { name: "robert" }]);
  });

  it("sends {query, variables} to a GraphQL endpoint and takes data.<field>", async () => {
    expect(await run("{ double(n: 21) }")).toEqual({ data: { double: 42 } });
  });

  it("fails only the field whose endpoint fails", async () => {
    const r = await run('{ queryPerson(filter: { name: { eq: "ann" } }) { name broken } }');
    expect(r.data).toEqual({ queryPerson: [{ name: "ann", broken: null }] });
    expect(r.errors[0].path).toEqual(["queryPerson", 0, "broken"]);
    expect(r.errors[0].message).toMatch(
      /^Evaluation of custom field failed because external request returned an error: 503/,
    );
  });

  it("fills templates: path and query values encoded, missing query values dropped, body as a GraphQL value", () => {
    expect(fillUrl("http://h/a/$x?b=$y&c=$z&d=1", { x: "a b", y: "1&2" })).toBe(
      "http://h/a/a%20b?b=1%262&d=1",
    );
    expect(fillBody("{ id: $id, tags: [$a, $b], fixed: 3 }", { id: "0x1", a: "x", b: "y" })).toEqual({
      id: "0x1",
      tags: ["x", "y"],
      fixed: 3,
    });
  });
});

describe("@custom(http:) answers and outbound requests", () => {
  it("reads an answer as it streams in and cuts it off at 32 MiB, closing the connection", async () => {
    const r = await run("{ endless }");
    expect(r.data).toEqual({ endless: null });
    expect(r.errors[0].message).toMatch(
      /^the answer of http:\/\/127\.0\.0\.1:\d+\/endless is larger than the limit of 33554432 bytes$/,
    );
    await expect.poll(() => endless.closed, { timeout: 10_000 }).toBe(true);
    // Cut off near the limit, not read to the end (socket buffers hold a few MiB at most).
    expect(endless.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("takes its limit from maxRemoteAnswerBytes", async () => {
    const small = new GraphQLService(db, { maxRemoteAnswerBytes: 1024 * 1024 });
    const r = JSON.parse(JSON.stringify(await small.execute(0, { query: "{ endless }" })));
    expect(r.errors[0].message).toMatch(/is larger than the limit of 1048576 bytes$/);
  });

  it("sends through the fetch the host hands in, and words its refusal", async () => {
    const asked: string[] = [];
    const refusing = new GraphQLService(db, {
      fetch: async (input) => {
        asked.push(String(input));
        throw new TypeError("fetch failed", {
          cause: new Error("127.0.0.1 is a loopback address, which deployed apps may not reach"),
        });
      },
    });
    seen.length = 0;
    const r = JSON.parse(
      JSON.stringify(await refusing.execute(0, { query: '{ weather(city: "Oslo") { city } }' })),
    );
    expect(r.errors[0].message).toMatch(
      /^Evaluation of custom field failed because external request to http:\/\/127\.0\.0\.1:\d+\/weather\?city=Oslo failed: 127\.0\.0\.1 is a loopback address, which deployed apps may not reach$/,
    );
    expect(asked).toHaveLength(1);
    expect(seen).toEqual([]);
  });
});
