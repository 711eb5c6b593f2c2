/**
 * Subscriptions of `@withSubscription` types over WebSocket: graphql-ws's own client
 * (`graphql-transport-ws`) and the legacy `graphql-ws` protocol; a new answer after each commit that
 * changes it, none for commits that do not, and the end of the stream when the schema changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";

const SCHEMA =
  "type Task @withSubscription { id: ID!  title: String! @search(by: [term])  done: Boolean }\ntype Note { id: ID!  text: String }";
const SUBSCRIPTION = "subscription { queryTask(order: { asc: title }) { title done } }";

let dir: string;
let db: GraphDBHandle;
let server: HttpServer;
let base: string;

async function graphql(query: string) {
  const res = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return res.json();
}

/** Collects a stream's messages; `until(n)` waits for the n-th. */
function collector<T>() {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  return {
    items,
    push(item: T) {
      items.push(item);
      wake?.();
    },
    async until(n: number, ms = 5000) {
      const deadline = Date.now() + ms;
      while (items.length < n) {
        if (Date.now() > deadline) throw new Error(`waited for ${n} messages, got ${JSON.stringify(items)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return items;
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-subs-"));
  db = createGraphDB({ dir });
  server = createHttpServer(db.engine);
  const { port } = await server.listen(0, "127.0.0.1");
  base = `http://127.0.0.1:${port}`;
  await fetch(`${base}/admin/schema`, {
    method: "POST",
    body: SCHEMA,
    headers: { "content-type": "application/graphql" },
  });
});

afterAll(async () => {
  await server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GraphQL subscriptions", () => {
  it("generates Subscription fields only for @withSubscription types", async () => {
    const r = await graphql('{ __type(name: "Subscription") { fields { name } } }');
    expect(r.data.__type.fields.map((f: { name: string }) => f.name)).toEqual([
      "getTask",
      "queryTask",
      "aggregateTask",
    ]);
  });

  it("sends a new answer after a commit that changes it (graphql-transport-ws, graphql-ws's client)", async () => {
    const client = createClient({
      url: `${base.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      lazy: true,
      retryAttempts: 0,
    });
    const got = collector<unknown>();
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: SUBSCRIPTION },
        { next: (v) => got.push(v), error: reject, complete: resolve },
      );
    });
    await got.until(1);
    expect(got.items[0]).toEqual({ data: { queryTask: [] } });
    await graphql('mutation { addTask(input: [{ title: "write tests", done: false }]) { numUids } }');
    await got.until(2);
    expect(got.items[1]).toEqual({ data: { queryTask: [{ title: "write tests", done: false }] } });
    // A commit elsewhere in the namespace that leaves the answer unchanged sends nothing.
    await graphql('mutation { addNote(input: [{ text: "n" }]) { numUids } }');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.items).toHaveLength(2);
    // A schema change ends the subscription.
    await fetch(`${base}/admin/schema`, {
      method: "POST",
      body: `${SCHEMA}\ntype Extra { id: ID!  x: Int }`,
      headers: { "content-type": "application/graphql" },
    });
    await graphql('mutation { addTask(input: [{ title: "again" }]) { numUids } }');
    await done;
    await client.dispose();
  });

  it("speaks the legacy graphql-ws protocol too", async () => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/graphql`, "graphql-ws");
    const got = collector<{
      id?: string;
      type: string;
      payload?: { data?: { queryTask: { title: string }[] } };
    }>();
    ws.on("message", (data) => got.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.once("open", resolve));
    ws.send(JSON.stringify({ type: "connection_init", payload: {} }));
    ws.send(
      JSON.stringify({
        id: "1",
        type: "start",
        payload: {
          query: 'subscription { queryTask(filter: { title: { anyofterms: "legacy" } }) { title } }',
        },
      }),
    );
    const dataOf = () => got.items.filter((m) => m.type === "data");
    await got.until(3);
    expect(got.items[0].type).toBe("connection_ack");
    expect(dataOf()[0]?.payload).toEqual({ data: { queryTask: [] } });
    await graphql('mutation { addTask(input: [{ title: "legacy client" }]) { numUids } }');
    const deadline = Date.now() + 5000;
    while (dataOf().length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dataOf()[1]?.payload).toEqual({ data: { queryTask: [{ title: "legacy client" }] } });
    ws.send(JSON.stringify({ id: "1", type: "stop" }));
    ws.close();
  });

  it("bounds one connection to 100 running subscriptions, and counts a stopped one off", async () => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/graphql`, "graphql-ws");
    const got = collector<{ id?: string; type: string; payload?: { message?: string } }>();
    ws.on("message", (data) => got.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.once("open", resolve));
    ws.send(JSON.stringify({ type: "connection_init", payload: {} }));
    const start = (id: string) =>
      ws.send(
        JSON.stringify({ id, type: "start", payload: { query: "subscription { queryTask { title } }" } }),
      );
    for (let i = 0; i < 101; i++) start(`s${i}`);
    const errorOf = (id: string) => got.items.find((m) => m.id === id && m.type === "error");
    const deadline = Date.now() + 10_000;
    while (errorOf("s100") === undefined && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(errorOf("s100")?.payload?.message).toBe(
      "too many subscriptions: at most 100 per connection and 10000 in all; close some first",
    );
    expect(got.items.filter((m) => m.type === "error")).toHaveLength(1);
    ws.send(JSON.stringify({ id: "s0", type: "stop" }));
    start("again");
    while (!got.items.some((m) => m.id === "again" && m.type === "data") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(errorOf("again")).toBeUndefined();
    expect(got.items.some((m) => m.id === "again" && m.type === "data")).toBe(true);
    ws.close();
  });

  it("never accepts more than the bounds, however many subscribes arrive at once", async () => {
    const capped = createHttpServer(db.engine, { subscriptionLimits: { perConnection: 8, total: 20 } });
    const { port } = await capped.listen(0, "127.0.0.1");
    /** One graphql-transport-ws connection sending `n` subscribes at once; the ids accepted and refused. */
    const connection = async (name: string, n: number) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
      const got = collector<{ id?: string; type: string; payload?: { message?: string }[] }>();
      ws.on("message", (data) => got.push(JSON.parse(String(data))));
      await new Promise((resolve) => ws.once("open", resolve));
      ws.send(JSON.stringify({ type: "connection_init", payload: {} }));
      await got.until(1);
      for (let i = 0; i < n; i++) {
        const payload = { query: "subscription { queryTask { title } }" };
        ws.send(JSON.stringify({ id: `${name}-${i}`, type: "subscribe", payload }));
      }
      const answered = () => new Set(got.items.filter((m) => m.id).map((m) => m.id)).size;
      const deadline = Date.now() + 20_000;
      while (answered() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const accepted = new Set(got.items.filter((m) => m.type === "next").map((m) => m.id));
      const refused = got.items.filter((m) => m.type === "error");
      return { ws, accepted: accepted.size, refused };
    };
    try {
      const one = await connection("one", 30);
      expect(one.accepted).toBe(8);
      expect(one.refused).toHaveLength(22);
      expect(one.refused[0].payload?.[0]?.message).toBe(
        "too many subscriptions: at most 8 per connection and 20 in all; close some first",
      );
      const many = await Promise.all(Array.from({ length: 6 }, (_, i) => connection(`c${i}`, 8)));
      expect(many.reduce((n, c) => n + c.accepted, 0)).toBe(12);
      for (const c of [one, ...many]) c.ws.close();
    } finally {
      await capped.close();
    }
  }, 60_000);
});
