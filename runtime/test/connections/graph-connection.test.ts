import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGraphDB, createGrpcServer, type GraphDBHandle, type GrpcServer } from "@trellis/graphdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostDispatcher, type HostDispatcher } from "../../src/capabilities/host-dispatcher.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";

const ctx = { executionId: "exec-4", functionName: "addPerson" };
const ACL_SECRET = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");

/** The embedded graph database behind a gRPC server on a free loopback port. */
async function startGraph(
  acl: boolean,
  aclAccessTtlMs?: number,
): Promise<{ db: GraphDBHandle; server: GrpcServer; address: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "trellis-graphconn-"));
  const db = createGraphDB({ dir, acl });
  const server = createGrpcServer(db.engine, acl ? { acl: true, aclSecret: ACL_SECRET, aclAccessTtlMs } : {});
  const { port } = await server.listen(0, "127.0.0.1");
  return { db, server, address: `127.0.0.1:${port}`, dir };
}

async function stopGraph(g: Awaited<ReturnType<typeof startGraph>> | undefined) {
  if (!g) return;
  await g.server.close();
  await g.db.close();
  rmSync(g.dir, { recursive: true, force: true });
}

describe("graph connections", () => {
  let open: Awaited<ReturnType<typeof startGraph>>;
  let secured: Awaited<ReturnType<typeof startGraph>>;
  let dispatcher: HostDispatcher;

  beforeAll(async () => {
    [open, secured] = await Promise.all([startGraph(false), startGraph(true)]);
    const manifest = parseManifest(
      JSON.stringify({
        connections: {
          graph: { type: "graphdb", grpcTarget: "{{TARGET}}", key: "{{KEY}}" },
          acl: { type: "dgraph", connString: `dgraph://groot:{{PASSWORD}}@${secured.address}` },
          "acl-anon": { type: "graphdb", grpcTarget: secured.address },
          down: { type: "graphdb", grpcTarget: "127.0.0.1:1" },
        },
        limits: { timeoutMs: 3000 },
      }),
    );
    dispatcher = createHostDispatcher({
      manifest,
      env: { TRELLIS_GRAPH_TARGET: open.address, TRELLIS_GRAPH_KEY: "k1", TRELLIS_ACL_PASSWORD: "password" },
      egress: { allow: [open.address, secured.address, "127.0.0.1:1"] },
    });
  });

  afterAll(async () => {
    await dispatcher?.close();
    await Promise.all([stopGraph(open), stopGraph(secured)]);
  });

  it("alters the schema, mutates with commit-now and queries with variables", async () => {
    expect(
      JSON.parse(await dispatcher.graphAlter(ctx, "graph", "name: string @index(exact) .\nage: int .")),
    ).toEqual({
      code: "Success",
      message: "Done",
    });
    const mutated = JSON.parse(
      await dispatcher.graphMutate(
        ctx,
        "graph",
        JSON.stringify({
          mutations: [
            { setJson: { uid: "_:ann", name: "Ann", age: 31 } },
            { setNquads: '_:bob <name> "Bob" .\n_:bob <age> "42"^^<xs:int> .' },
          ],
        }),
      ),
    );
    expect(mutated.json).toBeNull();
    expect(Object.keys(mutated.uids).sort()).toEqual(["ann", "bob"]);
    const data = JSON.parse(
      await dispatcher.graphQuery(
        ctx,
        "graph",
        "query q($n: string) { people(func: eq(name, $n)) { uid name age } }",
        JSON.stringify({ $n: "Bob" }),
      ),
    );
    expect(data).toEqual({ people: [{ uid: mutated.uids.bob, name: "Bob", age: 42 }] });
  });

  it("runs an upsert: the query's variables drive a conditional mutation", async () => {
    const upsert = (name: string) =>
      dispatcher.graphMutate(
        ctx,
        "graph",
        JSON.stringify({
          query: "query q($n: string) { p as var(func: eq(name, $n)) found(func: eq(name, $n)) { uid } }",
          vars: { $n: name },
          mutations: [
            { cond: "@if(eq(len(p), 0))", setJson: { uid: "_:new", name } },
            { cond: "@if(gt(len(p), 0))", setJson: { uid: "uid(p)", age: 32 } },
          ],
        }),
      );
    const created = JSON.parse(await upsert("Cleo"));
    expect(created.json).toEqual({ found: [] });
    expect(Object.keys(created.uids)).toEqual(["new"]);
    const updated = JSON.parse(await upsert("Ann"));
    expect(updated.json.found).toHaveLength(1);
    const ann = JSON.parse(
      await dispatcher.graphQuery(ctx, "graph", '{ a(func: eq(name, "Ann")) { age } }', "{}"),
    );
    expect(ann).toEqual({ a: [{ age: 32 }] });
  });

  it("logs in with the user of a dgraph:// connection string (ACL)", async () => {
    await dispatcher.graphAlter(ctx, "acl", "title: string @index(term) .");
    await dispatcher.graphMutate(
      ctx,
      "acl",
      JSON.stringify({ mutations: [{ setJson: { title: "secured" } }] }),
    );
    const data = JSON.parse(await dispatcher.graphQuery(ctx, "acl", "{ t(func: has(title)) { title } }", ""));
    expect(data).toEqual({ t: [{ title: "secured" }] });
  });

  it("logs in again with the refresh token once the access token has expired", async () => {
    const shortLived = await startGraph(true, 1000);
    const d = createHostDispatcher({
      manifest: parseManifest(
        JSON.stringify({
          connections: {
            g: { type: "dgraph", connString: `dgraph://groot:{{PASSWORD}}@${shortLived.address}` },
          },
        }),
      ),
      env: { TRELLIS_G_PASSWORD: "password" },
      egress: { allow: [shortLived.address] },
    });
    try {
      await d.graphAlter(ctx, "g", "t: string .");
      await d.graphMutate(ctx, "g", JSON.stringify({ mutations: [{ setJson: { uid: "_:a", t: "one" } }] }));
      await new Promise((resume) => setTimeout(resume, 2100));
      const written = JSON.parse(
        await d.graphMutate(ctx, "g", JSON.stringify({ mutations: [{ setJson: { uid: "_:b", t: "two" } }] })),
      );
      expect(Object.keys(written.uids)).toEqual(["b"]);
      await new Promise((resume) => setTimeout(resume, 2100));
      expect(JSON.parse(await d.graphQuery(ctx, "g", "{ q(func: has(t), orderasc: t) { t } }", ""))).toEqual({
        q: [{ t: "one" }, { t: "two" }],
      });
    } finally {
      await d.close();
      await stopGraph(shortLived);
    }
  });

  it("reports DQL errors and bad requests with the connection named", async () => {
    await expect(dispatcher.graphQuery(ctx, "graph", "{ broken(func: ", "{}")).rejects.toThrow(
      /^graph query on connection "graph" failed: /,
    );
    await expect(dispatcher.graphMutate(ctx, "graph", '{"mutations": 1}')).rejects.toThrow(
      'graph mutate on connection "graph" failed: request.mutations must be an array',
    );
    await expect(
      dispatcher.graphQuery(ctx, "graph", "{ q(func: uid(0x1)) { uid } }", '{"$x": {}}'),
    ).rejects.toThrow("variable $x must be a string, number or boolean");
  });

  it("tests connections with a uid query: ok, unauthenticated, unreachable", async () => {
    const statuses = await dispatcher.testConnections();
    const by = (name: string) => statuses.find((s) => s.name === name)!;
    expect(by("graph")).toMatchObject({ type: "graphdb", reachable: true, authenticated: true });
    expect(by("acl")).toMatchObject({ reachable: true, authenticated: true });
    expect(by("acl-anon")).toMatchObject({ reachable: true, authenticated: false });
    expect(by("down")).toMatchObject({ reachable: false, authenticated: false });
  });
});

/** 10,000 texts of 300 letters: a fuzzy match against a 300-letter string reads them for seconds. */
function slowTexts(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    let text = "";
    for (let k = 0; k < 300; k++) text += (i * 7 + k * 13) % 5 < 2 ? "a" : "b";
    lines.push(`_:t${i} <text> "${text}" .`);
  }
  return lines.join("\n");
}
const SLOW_QUERY = `{ q(func: has(text)) @filter(match(text, "${"ba".repeat(150)}", 300)) { uid } }`;

describe("the platform's graph database behind loopback targets", () => {
  let g: Awaited<ReturnType<typeof startGraph>>;
  let dispatcher: HostDispatcher;
  let namespace: number;

  beforeAll(async () => {
    g = await startGraph(true);
    namespace = await g.db.engine.createNamespace({ grootPassword: "app-secret-1" });
    await g.db.engine.mutate({ commitNow: true, mutations: [{ setNquads: '_:x <name> "galaxy only" .' }] });
    await g.db.engine.alter({ namespace, schema: "text: string @index(trigram) ." });
    await g.db.engine.mutate({ namespace, commitNow: true, mutations: [{ setNquads: slowTexts(10_000) }] });
    const manifest = parseManifest(
      JSON.stringify({
        connections: {
          graph: { type: "graphdb", grpcTarget: "localhost:9080" },
          ipv4: { type: "graphdb", grpcTarget: "dgraph://127.0.0.1:9080?sslmode=disable" },
          elsewhere: { type: "graphdb", grpcTarget: "dgraph://unreachable.invalid:9080" },
        },
        limits: { timeoutMs: 10_000 },
      }),
    );
    dispatcher = createHostDispatcher({
      manifest,
      env: {},
      // As the platform gives it: this app's namespace, its groot, the real port.
      loopbackGraphdb: `dgraph://groot:app-secret-1@${g.address}?sslmode=disable&namespace=${namespace}`,
    });
  }, 60_000);

  afterAll(async () => {
    await dispatcher?.close();
    await stopGraph(g);
  });

  it("sends graphdb connections to a loopback address into the app's own namespace, logged in", async () => {
    for (const connection of ["graph", "ipv4"]) {
      await dispatcher.graphMutate(
        ctx,
        connection,
        JSON.stringify({ mutations: [{ setNquads: `_:n <name> "from ${connection}" .` }] }),
      );
    }
    const mine = JSON.parse(
      await dispatcher.graphQuery(ctx, "graph", "{ q(func: has(name), orderasc: name) { name } }", "{}"),
    );
    expect(mine).toEqual({ q: [{ name: "from graph" }, { name: "from ipv4" }] });
    // They landed in the namespace, not in the galaxy (whose node the app never sees).
    const galaxy = await g.db.engine.query({ query: "{ q(func: has(name)) { name } }" });
    expect(JSON.parse(galaxy.json)).toEqual({ q: [{ name: "galaxy only" }] });
  });

  it("leaves connections to other addresses as declared", async () => {
    const statuses = await dispatcher.testConnections();
    expect(statuses.find((s) => s.name === "elsewhere")).toMatchObject({ reachable: false });
    expect(statuses.find((s) => s.name === "graph")).toMatchObject({ reachable: true, authenticated: true });
  });

  it("ends a graph query when the function call's time is up, not the connection's", async () => {
    const started = performance.now();
    const deadline = Date.now() + 300;
    await expect(dispatcher.graphQuery({ ...ctx, deadline }, "graph", SLOW_QUERY, "{}")).rejects.toThrow(
      /deadline/i,
    );
    expect(performance.now() - started).toBeLessThan(1500);
  }, 30_000);
});

describe("graph connections under the default (deployed) egress policy", () => {
  let g: Awaited<ReturnType<typeof startGraph>>;

  beforeAll(async () => {
    g = await startGraph(false);
  });
  afterAll(() => stopGraph(g));

  function dispatcherFor(grpcTarget: string, allow?: string[]): HostDispatcher {
    const manifest = parseManifest(
      JSON.stringify({ connections: { graph: { type: "graphdb", grpcTarget } } }),
    );
    return createHostDispatcher({ manifest, env: {}, egress: { allow } });
  }

  it("refuses a loopback target when the host has no graph database of its own to send it to", async () => {
    const port = g.address.split(":")[1];
    for (const target of [g.address, `localhost:${port}`, `[::ffff:127.0.0.1]:${port}`]) {
      const d = dispatcherFor(target);
      await expect(
        d.graphQuery(ctx, "graph", "{ q(func: has(name)) { name } }", "{}"),
        target,
      ).rejects.toThrow(
        /is (a loopback address|an IPv4-mapped form of 127\.0\.0\.1, a loopback address), which deployed apps may not reach/,
      );
      await d.close();
    }
  });

  it("pins the channel to the address the policy checked, the name kept as the authority", async () => {
    // Only 127.0.0.1 is opened: `localhost` may also resolve to ::1, which stays refused, so the channel
    // must go to the checked IPv4 address rather than let grpc-js resolve the name again.
    const port = g.address.split(":")[1];
    const d = dispatcherFor(`localhost:${port}`, [g.address]);
    await d.graphMutate(
      ctx,
      "graph",
      JSON.stringify({ mutations: [{ setNquads: '_:n <name> "pinned" .' }] }),
    );
    expect(JSON.parse(await d.graphQuery(ctx, "graph", "{ q(func: has(name)) { name } }", "{}"))).toEqual({
      q: [{ name: "pinned" }],
    });
    await d.close();
  });
});
