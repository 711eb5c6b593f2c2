import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Script } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuildStatus, ConnectionTestResult } from "../../src/dev/dev-server.ts";
import { type DevApp, type DevServer, startDevServer } from "../../src/dev/dev-server.ts";
import type { ExplorerCatalog } from "../../src/dev/explorer-catalog.ts";
import { explorerScript } from "../../src/dev/explorer-page.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "../graphql/app-functions.ts";
import type { GraphQLBody } from "../graphql/graphql-response.ts";

interface HealthBody {
  status: string;
  app: string | null;
  environment: string;
  version: string;
  build?: { ok: boolean };
}
type FunctionsBody = ExplorerCatalog & { app?: string; error?: string };

let upstream: Server;
let upstreamUrl: string;
let dev: DevServer;
let app: DevApp | undefined;
let build: BuildStatus = {
  ok: false,
  message: "src/index.ts(3,1): error TS1005: ';' expected.",
  at: new Date().toISOString(),
};

beforeAll(async () => {
  // A real HTTP service standing in for an app connection: 401 unless the right token is sent.
  upstream = createServer((req, res) => {
    res.writeHead(req.headers.authorization === "Bearer good" ? 200 : 401).end();
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  dev = await startDevServer({ port: 0, getApp: () => app, buildStatus: () => build, version: "9.9.9" });
});

afterAll(async () => {
  await dev.close();
  await new Promise((r) => upstream.close(r));
});

function loadApp(paths = ["/graphql"]): void {
  const handler = createGraphQLHandler({
    world: testWorld,
    invoker: newTestInvoker(),
    onExecution: (e) => dev.recordExecution(e),
  });
  app = {
    name: "people-app",
    world: testWorld,
    sdl: handler.sdl,
    graphql: { fetch: (request, auth) => handler.fetch(request, auth) },
    endpoints: paths.map((path, i) => ({ name: `ep${i}`, path, auth: "none" as const })),
    async testConnections() {
      const probe = async (name: string, token: string) => {
        const t0 = performance.now();
        const res = await fetch(upstreamUrl, { headers: { authorization: `Bearer ${token}` } });
        return {
          name,
          type: "http",
          reachable: true,
          authenticated: res.status !== 401,
          detail: `HTTP ${res.status}`,
          ms: Math.round(performance.now() - t0),
        };
      };
      return [await probe("good-api", "good"), await probe("bad-api", "bad")];
    },
  };
  build = { ok: true, at: new Date().toISOString() };
}

const gql = (query: string, path = "/graphql") =>
  fetch(`${dev.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      origin: dev.url,
    },
    body: JSON.stringify({ query }),
  });

describe("dev server before an app is loaded", () => {
  it("answers GraphQL requests with an error saying the build failed and what to do", async () => {
    const res = await gql("{ getter }");
    expect(res.status).toBe(503);
    const body = (await res.json()) as GraphQLBody;
    expect(body.errors![0]!.message).toMatch(
      /No app is loaded: the last build failed: .*TS1005.*Fix the error and save/,
    );
    expect(body.errors![0]!.extensions!.code).toBe("APP_NOT_LOADED");
  });

  it("reports health without an app", async () => {
    const body = (await (await fetch(`${dev.url}/health`)).json()) as HealthBody;
    expect(body).toMatchObject({
      status: "ok",
      app: null,
      environment: "dev",
      version: "9.9.9",
      build: { ok: false },
    });
  });

  it("explains in the explorer API that no app is loaded", async () => {
    const res = await fetch(`${dev.url}/explorer/api/functions`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as FunctionsBody).error).toMatch(/No app is loaded/);
  });
});

describe("dev server with an app", () => {
  beforeAll(() => loadApp());

  it("listens on loopback", () => {
    expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("serves GraphQL with invocations and no CORS headers", async () => {
    const res = await gql("{ getter }");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const body = (await res.json()) as GraphQLBody;
    expect(body.data).toEqual({ getter: "got" });
    expect(body.extensions!.invocations.getter.executionId).toMatch(/^[0-9a-v]{20}$/);
  });

  it("counts function executions and HTTP requests in /metrics", async () => {
    await gql("{ getter failSoftly }");
    const res = await fetch(`${dev.url}/metrics`);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/trellis_function_executions_total\{function="getter",status="success"\} [1-9]/);
    expect(text).toMatch(/trellis_function_executions_total\{function="failSoftly",status="error"\} 1/);
    expect(text).toMatch(/trellis_function_execution_duration_milliseconds_count\{function="getter"\} [1-9]/);
    expect(text).toMatch(/trellis_http_requests_total\{method="POST",route="\/graphql",status="200"\} [1-9]/);
    expect(text).toContain("trellis_http_requests_in_flight");
    expect(text).not.toMatch(/route="\/metrics"/);
  });

  it("reports the app in /health", async () => {
    const body = (await (await fetch(`${dev.url}/health`)).json()) as HealthBody;
    expect(body).toMatchObject({ status: "ok", app: "people-app", environment: "dev", build: { ok: true } });
  });

  it("redirects a browser opening the endpoint or the root to the explorer", async () => {
    const ep = await fetch(`${dev.url}/graphql`, { headers: { accept: "text/html" }, redirect: "manual" });
    expect(ep.status).toBe(302);
    expect(ep.headers.get("location")).toBe("/explorer/");
    const root = await fetch(`${dev.url}/`, { redirect: "manual" });
    expect(root.headers.get("location")).toBe("/explorer/");
    const api = await fetch(`${dev.url}/graphql?query=%7Bgetter%7D`, {
      headers: { accept: "application/json" },
    });
    expect(((await api.json()) as GraphQLBody).data).toEqual({ getter: "got" });
  });

  it("serves the explorer page with a script that parses", async () => {
    for (const path of ["/explorer", "/explorer/"]) {
      const res = await fetch(`${dev.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      const html = await res.text();
      expect(html).toContain("<title>Trellis API Explorer</title>");
      expect(html).toContain('id="test-connections"');
    }
    expect(() => new Script(explorerScript())).not.toThrow();
  });

  it("lists functions with their arguments and types", async () => {
    const body = (await (await fetch(`${dev.url}/explorer/api/functions`)).json()) as FunctionsBody;
    expect(body.app).toBe("people-app");
    const person = body.functions.find((f) => f.name === "person");
    expect(person).toEqual({
      name: "person",
      witName: "get-person",
      rootType: "Query",
      description: "Finds a person by id.",
      args: [{ name: "id", type: "Int64!" }],
      returnType: "Person",
      selection: "{ id firstName age nickname tags favoriteColor address { street city } }",
    });
    expect(body.functions.find((f) => f.name === "addPerson")!.rootType).toBe("Mutation");
    expect(body.enums).toEqual({ Color: ["RED", "DARK_GREEN", "BLUE"] });
  });

  it("lists endpoints and tests connections", async () => {
    const eps = (await (await fetch(`${dev.url}/explorer/api/endpoints`)).json()) as { endpoints: unknown[] };
    expect(eps.endpoints).toEqual([{ type: "GraphQL", name: "ep0", path: "/graphql", auth: "none" }]);
    const conns = (await (await fetch(`${dev.url}/explorer/api/connections`)).json()) as {
      connections: ConnectionTestResult[];
    };
    expect(conns.connections.map((c) => [c.name, c.reachable, c.authenticated])).toEqual([
      ["good-api", true, true],
      ["bad-api", true, false],
    ]);
  });

  it("allows only GET and POST, and refuses cross-origin CORS preflights", async () => {
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const res = await fetch(`${dev.url}/graphql`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST, OPTIONS");
    }
    const options = await fetch(`${dev.url}/graphql`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, POST, OPTIONS");
    const pre = await fetch(`${dev.url}/graphql`, {
      method: "OPTIONS",
      headers: {
        origin: "http://example.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-time-zone",
      },
    });
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    expect(pre.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("serves the manifest's endpoint paths, and only those", async () => {
    loadApp(["/api/graphql"]);
    try {
      const ok = await gql("{ getter }", "/api/graphql");
      expect(((await ok.json()) as GraphQLBody).data).toEqual({ getter: "got" });
      expect((await gql("{ getter }", "/graphql")).status).toBe(404);
    } finally {
      loadApp();
    }
  });
});
