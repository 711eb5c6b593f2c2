/**
 * `@lambda` fields against a loopback server speaking Dgraph's lambda protocol: Query fields, a type's
 * fields batched per level with their parents, results read by field name, and a failing lambda failing
 * only its field. In-process callers also learn the namespace, and may fail one parent's field alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { httpLambdaCaller, type LambdaRequest } from "../../src/graphql/execution/lambda-caller.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

const SCHEMA = `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  reputation: Int
  rank: Int @lambda
  motto: String @lambda
}
type Query {
  authorsByName(name: String!): [Author] @lambda
}`;

interface LambdaBody {
  namespace?: unknown;
  resolver: string;
  parents: { name: string; reputation?: number; id: string }[] | null;
  args: Record<string, unknown>;
}

let dir: string;
let db: GraphDB;
let service: GraphQLService;
let lambda: Server;
const calls: LambdaBody[] = [];

beforeAll(async () => {
  lambda = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as LambdaBody;
      calls.push(body);
      let answer: unknown;
      switch (body.resolver) {
        case "Author.rank":
          answer = body.parents?.map((p) => (p.reputation ?? 0) * 10);
          break;
        case "Author.motto":
          res.writeHead(500).end("motto server down");
          return;
        case "Query.authorsByName":
          answer = [{ id: "0x999", name: `${body.args.name} (remote)`, reputation: 1 }];
          break;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => lambda.listen(0, "127.0.0.1", resolve));
  const { port } = lambda.address() as AddressInfo;
  dir = mkdtempSync(join(tmpdir(), "graphql-lambda-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db, { lambdaUrl: `http://127.0.0.1:${port}/graphql-worker` });
  await service.updateSchema(0, SCHEMA);
  await db.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads:
          '_:a <dgraph.type> "Author" .\n_:a <Author.name> "ann" .\n_:a <Author.reputation> "7" .\n' +
          '_:b <dgraph.type> "Author" .\n_:b <Author.name> "bob" .\n_:b <Author.reputation> "2" .',
      },
    ],
  });
});

afterAll(async () => {
  await db.close();
  lambda.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (query: string) => JSON.parse(JSON.stringify(await service.execute(0, { query })));

describe("@lambda fields", () => {
  it("calls a type's lambda once per level with every parent's stored fields", async () => {
    calls.length = 0;
    const r = await run("{ queryAuthor(order: { asc: name }) { name r: rank } }");
    expect(r).toEqual({
      data: {
        queryAuthor: [
          { name: "ann", r: 70 },
          { name: "bob", r: 20 },
        ],
      },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].resolver).toBe("Author.rank");
    expect(calls[0].parents?.map((p) => ({ name: p.name, reputation: p.reputation }))).toEqual([
      { name: "ann", reputation: 7 },
      { name: "bob", reputation: 2 },
    ]);
    expect(calls[0].parents?.[0].id).toMatch(/^0x[0-9a-f]+$/);
    // Dgraph's body: the namespace never leaves the process.
    expect(Object.keys(calls[0]).sort()).toEqual(["args", "parents", "resolver"]);
  });

  it("answers a Query lambda with the server's objects, aliases included", async () => {
    const r = await run('{ authorsByName(name: "zed") { who: name reputation } }');
    expect(r).toEqual({ data: { authorsByName: [{ who: "zed (remote)", reputation: 1 }] } });
    expect(calls.at(-1)).toMatchObject({
      resolver: "Query.authorsByName",
      parents: null,
      args: { name: "zed" },
    });
  });

  it("fails only the field whose lambda fails", async () => {
    const r = await run('{ queryAuthor(filter: { name: { eq: "ann" } }) { name motto } }');
    expect(r.data).toEqual({ queryAuthor: [{ name: "ann", motto: null }] });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/^lambda Author\.motto answered HTTP 500: motto server down/);
    expect(r.errors[0].path).toEqual(["queryAuthor", 0, "motto"]);
  });

  it("says what to configure when no lambda server is set", async () => {
    const bare = new GraphQLService(db);
    const r = JSON.parse(JSON.stringify(await bare.execute(0, { query: "{ queryAuthor { rank } }" })));
    expect(r.errors[0].message).toBe("Author.rank is a @lambda field but no lambda server is configured");
  });

  it("tells an in-process caller the namespace, and fails only the parents it answers with an Error", async () => {
    const requests: LambdaRequest[] = [];
    const inProcess = new GraphQLService(db, {
      lambda: async (request) => {
        requests.push(request);
        return (request.parents ?? []).map((p) =>
          p.name === "bob" ? new Error(`no rank for ${String(p.name)}`) : Number(p.reputation) * 10,
        );
      },
    });
    const r = JSON.parse(
      JSON.stringify(
        await inProcess.execute(0, { query: "{ queryAuthor(order: { asc: name }) { name rank } }" }),
      ),
    );
    expect(r.data).toEqual({
      queryAuthor: [
        { name: "ann", rank: 70 },
        { name: "bob", rank: null },
      ],
    });
    expect(r.errors).toEqual([
      expect.objectContaining({ message: "no rank for bob", path: ["queryAuthor", 1, "rank"] }),
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ resolver: "Author.rank", namespace: 0 });
  });
});

describe("a lambda server's answer", () => {
  it("is read as it streams in and cut off at its limit, the connection closed", async () => {
    let sent = 0;
    let closed = false;
    const endless = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      res.on("close", () => {
        closed = true;
      });
      pump();
    });
    await new Promise<void>((r) => endless.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/`;
    const call = httpLambdaCaller(url, { maxResponseBytes: 1024 * 1024 });
    await expect(call({ resolver: "Query.big", parents: null, args: {} })).rejects.toThrow(
      "lambda answer for Query.big is larger than the limit of 1048576 bytes",
    );
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    endless.close();
  });
});
