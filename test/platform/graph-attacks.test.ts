/**
 * Issue 11's graph database attacks on a running platform with the real WebAssembly runtime. Two apps
 * declare the starter app's connection (`graphdb` at `localhost:9080`); the platform gives each its own
 * namespace and logs in for it. The tenant then tries to reach the victim's data through its graph
 * connection and through an `http` connection to the database's HTTP port, and to freeze the process
 * with a recursive query and a backtracking regular expression — through its connection and through
 * the port. Each attempt fails with a clear error or finishes quickly; the victim keeps getting its
 * answers meanwhile and its data stays whole.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraphHttp from "dgraph-js-http-23";
import { pino } from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { buildApp } from "../../runtime/src/index.ts";
import { freePort } from "../support/loopback-apis.ts";
import { duringNeighbourLoad } from "./neighbour-latency.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

/** Both apps: the starter app's graph connection; the tenant also reaches the database's HTTP port. */
const GRAPH_SOURCE = `import { graph, http, type i32 } from "@trellis/sdk";
/** Writes names (and the schema) into the app's graph. */
export function seed(names: string[]): i32 {
  graph.alter("graph", "name: string @index(exact, trigram) .\\nfriend: [uid] .");
  graph.mutate("graph", { setJson: names.map((name) => ({ name })) });
  return names.length;
}
/** Every name the app's graph has. */
export function names(): string[] {
  const res = graph.query<{ q: { name: string }[] }>("graph", "{ q(func: has(name), orderasc: name) { name } }");
  return res.q.map((n) => n.name);
}
/** Any DQL through the app's connection; the JSON answer. */
export function dql(query: string): string {
  return JSON.stringify(graph.query("graph", query));
}
/** A ring of n nodes, each linked to the next k. */
export function ring(n: i32, k: i32): i32 {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push("_:r" + i + ' <name> "r' + i + '" .');
    for (let j = 1; j <= k; j++) lines.push("_:r" + i + " <friend> _:r" + ((i + j) % n) + " .");
  }
  graph.mutate("graph", { setNquads: lines.join("\\n") });
  return n;
}
/** A POST to the graph database's HTTP port through the http connection: status and body. */
export function raw(path: string, contentType: string, body: string): string {
  const res = http.fetch("{{BASE}}" + path, { method: "POST", headers: { "Content-Type": contentType }, body });
  return res.status + " " + res.body;
}
`;

describe("graph database attacks through a tenant's connections fail, and neighbours do not notice", () => {
  let tmp: string;
  let platform: RunningPlatform;
  let victimKey: string;
  let tenantKey: string;

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(platform.url + path, {
      method,
      headers: {
        authorization: `Bearer ${platform.adminToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function gql(app: string, key: string, query: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${platform.url}/apps/${app}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() };
  }

  const tenant = (query: string) => gql("tenant", tenantKey, query);
  const victimNames = async () => (await gql("victim", victimKey, "{ names }")).body.data?.names;
  const victim = async (): Promise<true | string> => {
    const r = await gql("victim", victimKey, "{ names }");
    return JSON.stringify(r.body?.data?.names) === '["Alice","Bob"]' ? true : JSON.stringify(r.body);
  };

  async function deploy(name: string, manifest: object, base: string): Promise<string> {
    const dir = join(tmp, name);
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(join(dir, "trellis.json"), JSON.stringify(manifest));
    await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true }));
    await writeFile(join(dir, "src/index.ts"), GRAPH_SOURCE.replace("{{BASE}}", base));
    const { outDir } = await buildApp(dir);
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: outDir, portable: true }, ["."])) {
      chunks.push(Buffer.from(chunk));
    }
    expect((await api("POST", "/api/apps", { name })).status).toBe(201);
    const res = await fetch(`${platform.url}/api/apps/${name}/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
      body: Buffer.concat(chunks),
    });
    expect(res.status).toBe(201);
    return (await api("POST", `/api/apps/${name}/keys`, { name: "k" })).body.secret;
  }

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-graph-attacks-"));
    // The apps' http connection goes to the graph database's HTTP port on this machine: the operator
    // opens exactly that port.
    const graphHttpPort = await freePort();
    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(24).toString("hex")}`,
      graphdb: { httpPort: graphHttpPort, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
      egress: { allow: [`127.0.0.1:${graphHttpPort}`] },
    });
    const base = `${platform.graphdb.httpUrl}/`;
    const manifest = {
      connections: {
        graph: { type: "graphdb", grpcTarget: "localhost:9080" },
        dgraph: { type: "http", baseUrl: base },
      },
      limits: { timeoutMs: 10_000 },
    };
    victimKey = await deploy("victim", manifest, base);
    tenantKey = await deploy("tenant", manifest, base);
    const seeded = await gql("victim", victimKey, '{ seed(names: ["Alice", "Bob"]) }');
    expect(seeded.body.data).toEqual({
      seed: 2,
    });
    expect((await tenant('{ seed(names: ["Mallory"]) }')).body.data).toEqual({ seed: 1 });
  }, 240_000);

  afterAll(async () => {
    await platform?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("gives the tenant's graph connection its own namespace: the victim's nodes are not there", async () => {
    expect((await tenant("{ names }")).body.data).toEqual({ names: ["Mallory"] });
    const all = JSON.parse(
      (await tenant('{ dql(query: "{ q(func: has(name)) { uid name } }") }')).body.data.dql,
    );
    expect(all.q.map((n: { name: string }) => n.name)).toEqual(["Mallory"]);
    expect(await victimNames()).toEqual(["Alice", "Bob"]);
  });

  it("refuses the tenant's http connection to the database port: no query, no drop_all", async () => {
    const query = (
      await tenant(
        '{ raw(path: "query", contentType: "application/dql", body: "{ q(func: has(name)) { name } }") }',
      )
    ).body.data.raw;
    expect(query).toContain("no accessJwt available");
    expect(query).not.toContain("Alice");
    const drop = (
      await tenant('{ raw(path: "alter", contentType: "application/json", body: "{\\"drop_all\\": true}") }')
    ).body.data.raw;
    expect(drop).toContain("no accessJwt available");
    const plain = (
      await tenant('{ raw(path: "alter", contentType: "text/plain", body: "{\\"drop_all\\": true}") }')
    ).body.data.raw;
    expect(plain).toMatch(/no accessJwt available|refuses/);
    // A default-password login opens nothing either.
    const login = (
      await tenant(
        '{ raw(path: "login", contentType: "application/json", body: "{\\"userid\\": \\"groot\\", \\"password\\": \\"password\\"}") }',
      )
    ).body.data.raw;
    expect(login).toContain("invalid username or password");
    expect(await victimNames()).toEqual(["Alice", "Bob"]);
  });

  it("ends a runaway @recurse through the tenant's connection without hurting the victim", async () => {
    expect((await tenant("{ ring(n: 40, k: 4) }")).body.data).toEqual({ ring: 40 });
    // Without loops (Dgraph's default), the ring is walked once: every node, quickly.
    const once = '{ q(func: eq(name, \\"r0\\")) @recurse(depth: 100, loop: false) { name friend } }';
    const walked = await duringNeighbourLoad(victim, () => tenant(`{ dql(query: "${once}") }`));
    const seen = new Set<string>();
    const visit = (n: { name?: string; friend?: unknown[] }) => {
      if (n.name) seen.add(n.name);
      for (const f of (n.friend ?? []) as { name?: string }[]) visit(f);
    };
    for (const n of JSON.parse(walked.result.body.data.dql).q) visit(n);
    expect(seen.size).toBe(40);
    expect(walked.failures).toEqual([]);
    const rssBefore = process.memoryUsage().rss;
    const query = '{ q(func: eq(name, \\"r0\\")) @recurse(depth: 100, loop: true) { name friend } }';
    const report = await duringNeighbourLoad(victim, () => tenant(`{ dql(query: "${query}") }`));
    const message = report.result.body.errors?.[0]?.message ?? "";
    expect(message).toMatch(/query edge limit|response size|deadline exceeded/i);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);
    expect(report.failures).toEqual([]);
  }, 120_000);

  it("answers a backtracking regexp through the tenant's connection in linear time", async () => {
    const long = "a".repeat(30);
    await tenant(`{ seed(names: ["${long}b", "${long}"]) }`);
    const query = "{ q(func: regexp(name, /aaa(a+)+$/)) { name } }";
    const started = performance.now();
    const report = await duringNeighbourLoad(victim, () => tenant(`{ dql(query: "${query}") }`));
    expect(performance.now() - started).toBeLessThan(5_000);
    const found = JSON.parse(report.result.body.data.dql).q.map((n: { name: string }) => n.name);
    expect(found).toEqual([long]);
    expect(report.failures).toEqual([]);
  }, 60_000);

  it("ends the same queries sent to the database port by a logged-in client", async () => {
    const password = (await readFile(platform.graphdb.grootPasswordFile, "utf8")).trim();
    const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(platform.graphdb.httpUrl));
    await client.loginIntoNamespace("groot", password, 0);
    await client.alter({ schema: "name: string @index(exact, trigram) .\nfriend: [uid] ." });
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      lines.push(`_:r${i} <name> "r${i}" .`);
      for (let j = 1; j <= 4; j++) lines.push(`_:r${i} <friend> _:r${(i + j) % 40} .`);
    }
    lines.push(`_:x <name> "${"a".repeat(30)}b" .`);
    await client.newTxn().mutate({ setNquads: lines.join("\n"), commitNow: true });
    const recurse = await duringNeighbourLoad(victim, () =>
      client
        .newTxn({ readOnly: true })
        .query('{ q(func: eq(name, "r0")) @recurse(depth: 100, loop: true) { name friend } }')
        .then(
          () => "answered",
          (e: Error) => e.message,
        ),
    );
    expect(recurse.result).toMatch(/query edge limit|response size|deadline exceeded/i);
    const regexp = await duringNeighbourLoad(victim, () =>
      client.newTxn({ readOnly: true }).query("{ q(func: regexp(name, /aaa(a+)+$/)) { name } }"),
    );
    expect(regexp.result.data).toEqual({ q: [] });
    expect(regexp.failures).toEqual([]);
    expect(recurse.failures).toEqual([]);
    expect(await victimNames()).toEqual(["Alice", "Bob"]);
  }, 120_000);
});
