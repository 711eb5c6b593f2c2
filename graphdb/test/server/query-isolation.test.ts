/**
 * One query cannot take the process down or hold it, over real HTTP and gRPC servers on loopback:
 * `@recurse` on rings answers (or refuses an exponential result) fast with bounded memory, the
 * query-edge limit fails a walk that passes it, a query past its timeout is stopped within ~100 ms of it
 * while other queries keep answering promptly, the server's own timeout caps what a request asks, and
 * regular expressions match in linear time with RE2's syntax.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDBHandle, type GraphDBOptions } from "../../src/index.ts";
import { createGrpcServer, type GrpcServer } from "../../src/server/grpc/grpc-server.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import { post } from "./http-client.ts";

interface Servers {
  db: GraphDBHandle;
  http: string;
  client: dgraph.DgraphClient;
  close(): Promise<void>;
}

async function startServers(options: Partial<GraphDBOptions> = {}): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), "trellis-isolation-"));
  const db = createGraphDB({ dir, ...options });
  const http: HttpServer = createHttpServer(db.engine, { keepAlive: true });
  const grpc: GrpcServer = createGrpcServer(db.engine);
  const httpPort = (await http.listen(0, "127.0.0.1")).port;
  const grpcPort = (await grpc.listen(0, "127.0.0.1")).port;
  const stub = new dgraph.DgraphClientStub(`127.0.0.1:${grpcPort}`);
  return {
    db,
    http: `http://127.0.0.1:${httpPort}`,
    client: new dgraph.DgraphClient(stub),
    async close() {
      stub.close();
      await grpc.close();
      await http.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Envelope {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string } }[];
}

/** POST /query, with the time it took. */
async function httpQuery(base: string, query: string, params = ""): Promise<Envelope & { ms: number }> {
  const started = performance.now();
  const res = await post(base, `/query${params}`, "application/dql", query);
  return { ...(res.json() as Envelope), ms: performance.now() - started };
}

/** A gRPC query's data, or its failure as a gRPC status. */
async function grpcQuery(
  client: dgraph.DgraphClient,
  query: string,
  deadlineMs?: number,
): Promise<{ data?: unknown; code?: number; details?: string; ms: number }> {
  const started = performance.now();
  try {
    const options = deadlineMs === undefined ? undefined : { deadline: Date.now() + deadlineMs };
    const res = await client.newTxn({ readOnly: true }).query(query, undefined, options);
    return { data: res.getJson(), ms: performance.now() - started };
  } catch (e) {
    const err = e as { code?: number; details?: string };
    if (typeof err.code !== "number") throw e;
    return { code: err.code, details: err.details, ms: performance.now() - started };
  }
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1];

/** 10,000 texts of 300 letters; a fuzzy match against a 300-letter string reads them for seconds. */
const TEXTS = 10_000;
const SLOW_QUERY = `{ q(func: has(text)) @filter(match(text, "${"ba".repeat(150)}", 300)) { uid } }`;

function textNquads(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = "";
    for (let k = 0; k < 300; k++) s += (i * 7 + k * 13) % 5 < 2 ? "a" : "b";
    lines.push(`_:t${i} <text> "${s}" .`);
  }
  return lines.join("\n");
}

/** A cycle of `n` nodes: c0 → c1 → … → c(n-1) → c0. */
function cycleNquads(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`_:c${i} <name> "c${i}" .`, `_:c${i} <next> _:c${(i + 1) % n} .`);
  return lines.join("\n");
}

/** A ring of `layers` two-node layers, each node linked to both nodes of the next layer. */
function diamondNquads(layers: number, prefix: string): string {
  const lines: string[] = [];
  for (let i = 0; i < layers; i++) {
    for (const side of ["a", "b"]) {
      lines.push(`_:${prefix}${i}${side} <name> "${prefix}${i}${side}" .`);
      for (const to of ["a", "b"])
        lines.push(`_:${prefix}${i}${side} <link> _:${prefix}${(i + 1) % layers}${to} .`);
    }
  }
  return lines.join("\n");
}

/** A complete graph of `n` nodes over `knows`. */
function cliqueNquads(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if (i !== j) lines.push(`_:k${i} <knows> _:k${j} .`);
  return lines.join("\n");
}

let s: Servers;
const uids: Record<string, string> = {};

beforeAll(async () => {
  s = await startServers();
  await s.db.engine.alter({
    schema: [
      "name: string .",
      "next: uid .",
      "link: [uid] .",
      "knows: [uid] .",
      "text: string @index(trigram) .",
      "word: string @index(trigram) .",
    ].join("\n"),
  });
  const words = [`${"a".repeat(28)}b`, `${"a".repeat(29)}b`, `${"a".repeat(30)}c`, "aaaaaa", "banana"]
    .map((w, i) => `_:w${i} <word> "${w}" .`)
    .join("\n");
  for (const nquads of [
    cycleNquads(300),
    diamondNquads(40, "big"),
    diamondNquads(6, "small"),
    cliqueNquads(40),
    words,
    textNquads(TEXTS),
  ]) {
    const res = await s.db.engine.mutate({ mutations: [{ setNquads: nquads }], commitNow: true });
    Object.assign(uids, res.uids);
  }
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe("@recurse on rings", () => {
  const cycle = () => `{ q(func: uid(${uids.c0})) @recurse(depth: 100, loop: false) { name next } }`;

  /** Names along the `next` chain of a cycle's answer. */
  function chain(data: unknown): string[] {
    const names: string[] = [];
    let node = (data as { q: { name: string; next?: unknown }[] }).q[0] as { name: string; next?: unknown };
    for (;;) {
      names.push(node.name);
      if (node.next === undefined) return names;
      node = node.next as { name: string; next?: unknown };
    }
  }
  const expectedChain = Array.from({ length: 100 }, (_, i) => `c${i}`);

  it("answers a 300-node cycle to depth 100 over HTTP, fast", async () => {
    const res = await httpQuery(s.http, cycle());
    expect(res.errors).toBeUndefined();
    expect(chain(res.data)).toEqual(expectedChain);
    expect(res.ms).toBeLessThan(1000);
  });

  it("answers the same over gRPC (dgraph-js)", async () => {
    const res = await grpcQuery(s.client, cycle());
    expect(res.code).toBeUndefined();
    expect(chain(res.data)).toEqual(expectedChain);
    expect(res.ms).toBeLessThan(1000);
  });

  it("answers a small ring of diamonds path by path, as Dgraph writes it", async () => {
    const q = `{ q(func: uid(${uids.small0a})) @recurse(depth: 100, loop: false) { name link } }`;
    const res = await httpQuery(s.http, q);
    expect(res.errors).toBeUndefined();
    // Every edge is followed once, but a node reached from both nodes of the layer before is written under
    // each: the first round of six layers writes 2 + 4 + 8 + 16 + 32 + 64 nodes below the root.
    const count = (nodes: { link?: unknown[] }[] | undefined): number =>
      (nodes ?? []).reduce((n, x) => n + 1 + count(x.link as { link?: unknown[] }[] | undefined), 0);
    expect(count((res.data as { q: { link: { link?: unknown[] }[] }[] }).q[0].link)).toBeGreaterThanOrEqual(
      126,
    );
    const grpc = await grpcQuery(s.client, q);
    expect(grpc.data).toEqual(res.data);
  });

  it("refuses a 40-layer ring of diamonds (2^40 paths) at once, with bounded memory, over HTTP and gRPC", async () => {
    const q = `{ q(func: uid(${uids.big0a})) @recurse(depth: 100, loop: false) { name link } }`;
    const heapBefore = process.memoryUsage().heapUsed;
    const res = await httpQuery(s.http, q);
    expect(res.data).toBeNull();
    expect(res.errors?.[0].message).toMatch(
      /^while running ToJson: estimated response size: \d+ is bigger than threshold: 134217728\. Ask for fewer nodes/,
    );
    expect(res.ms).toBeLessThan(1000);
    const grpc = await grpcQuery(s.client, q);
    expect(grpc.code).toBe(status.UNKNOWN);
    expect(grpc.details).toMatch(
      /^while running ToJson: estimated response size: \d+ is bigger than threshold/,
    );
    expect(grpc.ms).toBeLessThan(1000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 2 ** 20);
  });
});

describe("query-edge limit", () => {
  it("fails a walk past 1,000,000 edges with Dgraph's error, before it runs away", async () => {
    const q = `{ q(func: uid(${uids.k0})) @recurse(depth: 5000, loop: true) { knows } }`;
    const res = await httpQuery(s.http, q);
    expect(res.data).toBeNull();
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: "ErrorInvalidRequest" } });
    expect(res.errors?.[0].message).toMatch(/^: Exceeded query edge limit = 1000000\. Found 10\d{5} edges\./);
    expect(res.ms).toBeLessThan(10_000);
    const grpc = await grpcQuery(s.client, q);
    expect(grpc.code).toBe(status.UNKNOWN);
    expect(grpc.details).toMatch(/^: Exceeded query edge limit = 1000000\. Found/);
  }, 30_000);
});

describe("time budget", () => {
  it("stops a query past its 200 ms timeout within ~100 ms, while other queries answer promptly", async () => {
    const attacks: { ms: number; message?: string }[] = [];
    let attacking = true;
    const attacker = (async () => {
      const until = performance.now() + 2000;
      while (performance.now() < until) {
        const res = await httpQuery(s.http, SLOW_QUERY, "?timeout=200ms");
        attacks.push({ ms: res.ms, message: res.errors?.[0].message });
      }
      attacking = false;
    })();
    const latencies: number[] = [];
    while (attacking) {
      const res = await httpQuery(s.http, `{ q(func: uid(${uids.c0})) { name } }`);
      expect(res.data).toEqual({ q: [{ name: "c0" }] });
      latencies.push(res.ms);
    }
    await attacker;
    expect(attacks.length).toBeGreaterThanOrEqual(5);
    for (const a of attacks) {
      expect(a.message).toBe(": context deadline exceeded");
      expect(a.ms).toBeLessThan(400);
    }
    expect(latencies.length).toBeGreaterThanOrEqual(30);
    expect(percentile(latencies, 99)).toBeLessThan(100);
  }, 30_000);

  it("stops it at a gRPC deadline too: DEADLINE_EXCEEDED, and the server does no more work on it", async () => {
    const res = await grpcQuery(s.client, SLOW_QUERY, 200);
    expect(res.code).toBe(status.DEADLINE_EXCEEDED);
    expect(res.ms).toBeLessThan(400);
    // The query would run for seconds: had the engine gone on, it would keep a core busy now.
    await new Promise((resume) => setTimeout(resume, 150));
    const cpu = process.cpuUsage();
    await new Promise((resume) => setTimeout(resume, 300));
    const spent = process.cpuUsage(cpu);
    expect((spent.user + spent.system) / 1000).toBeLessThan(100);
  });

  it("caps a request's timeout by the server's own (--query-timeout)", async () => {
    const capped = await startServers({ queryTimeoutMs: 300 });
    try {
      await capped.db.engine.alter({ schema: "text: string @index(trigram) ." });
      await capped.db.engine.mutate({ mutations: [{ setNquads: textNquads(4000) }], commitNow: true });
      const res = await httpQuery(capped.http, SLOW_QUERY, "?timeout=600s");
      expect(res.errors?.[0].message).toBe(": context deadline exceeded");
      expect(res.ms).toBeGreaterThanOrEqual(300);
      expect(res.ms).toBeLessThan(500);
    } finally {
      await capped.close();
    }
  }, 30_000);
});

describe("regexp: RE2, linear time", () => {
  it("answers /aaa(a+)+$/ in well under a second, at the root and in a filter", async () => {
    for (const q of [
      "{ q(func: regexp(word, /aaa(a+)+$/)) { word } }",
      "{ q(func: has(word)) @filter(regexp(word, /aaa(a+)+$/)) { word } }",
    ]) {
      const res = await httpQuery(s.http, q);
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ q: [{ word: "aaaaaa" }] });
      expect(res.ms).toBeLessThan(500);
    }
    const grpc = await grpcQuery(s.client, "{ q(func: regexp(word, /aaa(a+)+$/)) { word } }");
    expect(grpc.data).toEqual({ q: [{ word: "aaaaaa" }] });
    expect(grpc.ms).toBeLessThan(500);
  });

  it("refuses RE2-invalid syntax with Go's error and what to do", async () => {
    const res = await httpQuery(s.http, "{ q(func: regexp(word, /a(?=b)/)) { word } }");
    expect(res).toMatchObject({
      data: null,
      errors: [
        {
          message:
            ": error parsing regexp: invalid or unsupported Perl syntax: `(?=`" +
            " (DQL regular expressions use Go's RE2 syntax: no lookahead, lookbehind or backreferences)",
          extensions: { code: "ErrorInvalidRequest" },
        },
      ],
    });
    const grpc = await grpcQuery(s.client, "{ q(func: has(word)) @filter(regexp(word, /(a)\\1/)) { word } }");
    expect(grpc.code).toBe(status.UNKNOWN);
    expect(grpc.details).toContain(": error parsing regexp: invalid escape sequence: `\\1`");
  });
});
