/**
 * The embedded graph database runs in a worker thread of its own: heavy graph work occupies that thread,
 * never the gateway, the console or the control plane; and when the worker runs out of its heap it is
 * started again, on the same ports, with every committed write and every login intact.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import * as dgraphHttp from "dgraph-js-http-23";
import { afterEach, describe, expect, it } from "vitest";
import { duringNeighbourLoad } from "../../test/platform/neighbour-latency.ts";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** Long random strings: a trigram index over them is seconds of work for the database. */
function longNames(count: number, length: number): string {
  const lines = ['_:needle <name> "a needle in the haystack" .'];
  for (let i = 0; i < count; i++) {
    const letters = Array.from(randomBytes(length), (b) => String.fromCharCode(97 + (b % 26)));
    lines.push(`_:n${i} <name> "${letters.join("")}" .`);
  }
  return lines.join("\n");
}

async function operatorClient(t: TestPlatform): Promise<dgraphHttp.DgraphClient> {
  const password = (await readFile(t.platform.graphdb.grootPasswordFile, "utf8")).trim();
  const client = new dgraphHttp.DgraphClient(new dgraphHttp.DgraphClientStub(t.platform.graphdb.httpUrl));
  await client.loginIntoNamespace("groot", password, 0);
  return client;
}

describe("the graph database's worker thread", () => {
  let t: TestPlatform | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("keeps the gateway, the console and other apps answering while an index build runs", async () => {
    t = await startTestPlatform();
    const platform = t;
    const { apiKey } = await platform.deployedApp("neighbour");
    const client = await operatorClient(platform);
    await client.newTxn().mutate({ setNquads: longNames(60_000, 200), commitNow: true });

    // One request to each part of the platform, each in turn: none may wait for the database.
    const neighbour = async (): Promise<true | string> => {
      const health = await fetch(`${platform.platform.url}/health`);
      if (health.status !== 200) return `/health answered ${health.status}`;
      const apps = await platform.api("GET", "/api/apps");
      if (apps.status !== 200) return `/api/apps answered ${apps.status}`;
      const res = await platform.gql("neighbour", "{ version }", apiKey);
      return res.body?.data?.version === "v1" ? true : JSON.stringify(res.body);
    };
    let buildMs = 0;
    const report = await duringNeighbourLoad(
      neighbour,
      async () => {
        const started = performance.now();
        await client.alter({ schema: "name: string @index(trigram) ." });
        buildMs = performance.now() - started;
      },
      { answerWithinMs: 3_000 },
    );
    // The build was long enough to freeze a platform that ran the database on its own thread.
    expect(buildMs).toBeGreaterThan(3_000);
    expect(report.failures).toEqual([]);
    expect(report.latencies.length).toBeGreaterThan(5);
    const found = await client
      .newTxn({ readOnly: true })
      .query("{ q(func: regexp(name, /needle/)) { name } }");
    expect(found.data).toEqual({ q: [{ name: "a needle in the haystack" }] });
  }, 180_000);

  it("starts the database again when it runs out of its heap, with its data and logins intact", async () => {
    t = await startTestPlatform({ graphdb: { httpPort: 0, grpcPort: 0, memoryMb: 96 } });
    const platform = t;
    const { apiKey } = await platform.deployedApp("neighbour");
    const client = await operatorClient(platform);
    await client.alter({ schema: "kept: string @index(exact) ." });
    await client.newTxn().mutate({ setNquads: '_:k <kept> "before the crash" .', commitNow: true });

    // Millions of tiny objects in one JSON mutation: parsing them needs far more than 96 MiB.
    const huge = `{"set":[${Array.from({ length: 2_000_000 }, (_, i) => `{"n":${i}}`).join(",")}]}`;
    const crashed = await fetch(`${platform.platform.graphdb.httpUrl}/mutate?commitNow=true`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-dgraph-accesstoken": await accessJwt(platform) },
      body: huge,
    }).then(
      async (res) => `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`,
      (e: Error) => e.message,
    );
    expect(crashed).not.toMatch(/^HTTP 200/);
    // The platform itself never stopped.
    expect((await fetch(`${platform.platform.url}/health`)).status).toBe(200);
    expect((await platform.gql("neighbour", "{ version }", apiKey)).body.data).toEqual({ version: "v1" });

    // The database comes back on the same port; the operator logs in again and finds the data.
    const again = await eventually(async () => {
      const c = await operatorClient(platform);
      return (await c.newTxn({ readOnly: true }).query('{ q(func: eq(kept, "before the crash")) { kept } }'))
        .data;
    });
    expect(again).toEqual({ q: [{ kept: "before the crash" }] });
    // Apps' namespaces are still there: the console's graph routes answer.
    expect((await platform.api("GET", "/api/apps/neighbour/graph/schema")).status).toBe(200);
    const metrics = await platform.metrics();
    expect(metrics.text).toMatch(/^trellis_platform_graphdb_restarts_total [1-9]/m);
  }, 120_000);
});

async function accessJwt(t: TestPlatform): Promise<string> {
  const password = (await readFile(t.platform.graphdb.grootPasswordFile, "utf8")).trim();
  const res = await fetch(`${t.platform.graphdb.httpUrl}/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userid: "groot", password, namespace: 0 }),
  });
  const body = (await res.json()) as { data: { accessJWT: string } };
  return body.data.accessJWT;
}

/** Retries `attempt` until it resolves (the database is starting again), for up to 30 s. */
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
