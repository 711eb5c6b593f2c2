/**
 * Issue 20's graph database attacks from inside a tenant's functions, on a running platform with the real
 * WebAssembly runtime: its connection (the starter app's `localhost:9080`, logged in as its namespace's
 * groot by the platform) may not write reserved predicates, may not send a mutation past the platform's
 * bound, and the graph work a function starts ends with the function's timeout. A neighbour app keeps
 * getting its answers meanwhile.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraphHttp from "dgraph-js-http-23";
import { pino } from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWasmAppRuntime, type RunningPlatform, startPlatform } from "../../platform/src/index.ts";
import { deriveSecret } from "../../platform/src/secrets/derived-secret.ts";
import { buildApp } from "../../runtime/src/index.ts";
import { duringNeighbourLoad } from "./neighbour-latency.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

const SOURCE = `import { graph, type i32 } from "@trellis/sdk";
/** Any DQL query through the app's connection; the JSON answer. */
export function dql(query: string): string {
  return JSON.stringify(graph.query("graph", query));
}
/** N-Quads written through the app's connection. */
export function write(nquads: string): string {
  graph.mutate("graph", { setNquads: nquads });
  return "written";
}
/** n generated N-Quads, written in one mutation. */
export function many(n: i32): i32 {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push("_:n" + i + ' <name> "n' + i + '" .');
  graph.mutate("graph", { setNquads: lines.join("\\n") });
  return n;
}
/** A DQL schema applied through the app's connection. */
export function alter(schema: string): string {
  graph.alter("graph", schema);
  return "altered";
}
`;

const GRAPH = { graph: { type: "graphdb", grpcTarget: "localhost:9080" } };

describe("graph work from a tenant's functions is bounded on the platform", () => {
  let tmp: string;
  let platform: RunningPlatform;
  const keys: Record<string, string> = {};

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

  async function gql(app: string, query: string): Promise<Json> {
    const res = await fetch(`${platform.url}/apps/${app}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${keys[app]}` },
      body: JSON.stringify({ query, variables: {} }),
    });
    return res.json();
  }
  const errorOf = (body: Json): string => body?.errors?.[0]?.message ?? `no error: ${JSON.stringify(body)}`;

  /** One build, deployed under several names with their own limits. */
  async function deploy(name: string, build: string, limits: object): Promise<void> {
    const dir = join(tmp, `deploy-${name}`);
    await cp(build, dir, { recursive: true });
    await writeFile(join(dir, "trellis.json"), JSON.stringify({ connections: GRAPH, limits }));
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: dir, portable: true }, ["."]))
      chunks.push(Buffer.from(chunk));
    expect((await api("POST", "/api/apps", { name })).status).toBe(201);
    const res = await fetch(`${platform.url}/api/apps/${name}/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
      body: Buffer.concat(chunks),
    });
    expect(res.status).toBe(201);
    keys[name] = (await api("POST", `/api/apps/${name}/keys`, { name: "k" })).body.secret;
  }

  /** A client logged into an app's namespace as its groot, as the platform logs in for the app. */
  async function namespaceClient(app: string): Promise<dgraphHttp.DgraphClient> {
    const dataDir = join(tmp, "data");
    const namespace = JSON.parse(await readFile(join(dataDir, "graph-namespaces.json"), "utf8")).apps[app];
    const key = Buffer.from((await readFile(join(dataDir, "master.key"), "utf8")).trim(), "base64");
    const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(platform.graphdb.httpUrl));
    await client.loginIntoNamespace(
      "groot",
      deriveSecret(key, `graphdb-namespace-${namespace}-groot`),
      namespace,
    );
    return client;
  }

  const neighbour = async (): Promise<true | string> => {
    const body = await gql("neighbour", '{ dql(query: "{ q(func: has(name)) { name } }") }');
    return body?.data?.dql === '{"q":[{"name":"Alice"}]}' ? true : JSON.stringify(body);
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-graph-bounds-"));
    const src = join(tmp, "src-app");
    await mkdir(join(src, "src"), { recursive: true });
    await writeFile(join(src, "trellis.json"), JSON.stringify({ connections: GRAPH }));
    await writeFile(join(src, "package.json"), JSON.stringify({ name: "bounds", private: true }));
    await writeFile(join(src, "src/index.ts"), SOURCE);
    const { outDir } = await buildApp(src);
    platform = await startPlatform({
      port: 0,
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(24).toString("hex")}`,
      graphdb: { httpPort: 0, grpcPort: 0 },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    });
    await deploy("neighbour", outDir, { timeoutMs: 10_000 });
    await deploy("tenant", outDir, { timeoutMs: 10_000 });
    await deploy("hasty", outDir, { timeoutMs: 2_000 });
    expect((await gql("neighbour", '{ write(nquads: "_:a <name> \\"Alice\\" .") }')).data).toEqual({
      write: "written",
    });
    expect(await neighbour()).toBe(true);
  }, 240_000);

  afterAll(async () => {
    await platform?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("refuses a tenant's DQL writes to its groot's password and to the stored GraphQL schema", async () => {
    const groot = JSON.parse(
      (await gql("tenant", '{ dql(query: "{ q(func: eq(dgraph.xid, \\"groot\\")) { uid } }") }')).data.dql,
    ).q[0].uid;
    const password = await gql(
      "tenant",
      `{ write(nquads: "<${groot}> <dgraph.password> \\"chosen-by-me\\" .") }`,
    );
    expect(errorOf(password)).toMatch(/dgraph\.password/);
    const schema = await gql(
      "tenant",
      '{ write(nquads: "_:s <dgraph.graphql.schema> \\"type T { id: ID! }\\" .") }',
    );
    expect(errorOf(schema)).toMatch(/Cannot mutate graphql reserved predicate dgraph\.graphql\.schema/);
    // Nothing changed: the chosen password opens nothing.
    const namespace = JSON.parse(await readFile(join(tmp, "data", "graph-namespaces.json"), "utf8")).apps
      .tenant;
    const stub = new dgraphHttp.DgraphClientStub(platform.graphdb.httpUrl);
    await expect(stub.loginIntoNamespace("groot", "chosen-by-me", namespace)).rejects.toThrow(
      /invalid username or password/,
    );
    expect((await api("GET", "/api/apps/tenant/graph/graphql-schema")).body.schema).toBeNull();
  });

  it("refuses a mutation of more N-Quads than the platform allows, before writing any", async () => {
    const report = await duringNeighbourLoad(neighbour, () => gql("tenant", "{ many(n: 150000) }"));
    expect(errorOf(report.result)).toMatch(/NQuad count in the request: \d+, is more that threshold: 100000/);
    expect(report.failures).toEqual([]);
    const count = JSON.parse(
      (await gql("tenant", '{ dql(query: "{ q(func: has(name)) { count(uid) } }") }')).data.dql,
    );
    expect(count).toEqual({ q: [{ count: 0 }] });
  }, 120_000);

  it("stops the index build a function started when the function times out", async () => {
    const client = await namespaceClient("hasty");
    await client.alter({ schema: "name: string ." });
    // 80,000 values of 200 letters (16M trigrams): a build of 4-5 s on a quiet machine, well past the
    // function's 2 s (30,000 once took only 1.7 s). Written 40,000 at a time (the 16 MiB request bound).
    for (let batch = 0; batch < 2; batch++) {
      const lines = batch === 0 ? ['_:needle <name> "a needle in the haystack" .'] : [];
      for (let i = 0; i < 40_000; i++) {
        const letters = Array.from(randomBytes(200), (b) => String.fromCharCode(97 + (b % 26)));
        lines.push(`_:n${i} <name> "${letters.join("")}" .`);
      }
      await client.newTxn().mutate({ setNquads: lines.join("\n"), commitNow: true });
    }

    const report = await duringNeighbourLoad(neighbour, () =>
      gql("hasty", 'mutation { alter(schema: "name: string @index(trigram) .") }'),
    );
    expect(errorOf(report.result)).toMatch(/2000 ms timeout|deadline/i);
    expect(report.failures).toEqual([]);
    // The build was stopped, not left running: once the namespace's next alter (alters of a namespace run
    // one at a time) is through, the predicate still has its old schema, without the index.
    await client.alter({ schema: "other: string ." });
    const schema = await api("GET", "/api/apps/hasty/graph/schema");
    const name = schema.body.schema.find((p: { predicate: string }) => p.predicate === "name");
    expect(name.tokenizer ?? []).toEqual([]);
    await expect(
      client.newTxn({ readOnly: true }).query("{ q(func: regexp(name, /needle/)) { name } }"),
    ).rejects.toThrow(/does not have trigram index/);
  }, 180_000);
});
