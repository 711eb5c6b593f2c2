import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostDispatcher, type HostDispatcher } from "../../src/capabilities/host-dispatcher.ts";
import { findHttpConnection } from "../../src/connections/http-connection.ts";
import { parseManifest } from "../../src/manifest/parse-manifest.ts";
import { loadEnvFiles } from "../../src/secrets/env-files.ts";
import { MissingSecretsError } from "../../src/secrets/missing-secrets-error.ts";

const ctx = { executionId: "exec-1", functionName: "callApi" };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A loopback server recording each request; the path picks the behaviour. */
function startServer(): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const path = req.url!.split("?")[0];
      if (path === "/v1/slow") {
        setTimeout(() => res.end("late"), 2000);
      } else if (path === "/v1/big") {
        res.end("x".repeat(64 * 1024));
      } else if (path === "/v1/redirect") {
        res.writeHead(302, { location: "http://example.invalid/elsewhere" }).end();
      } else if (path === "/v1/missing") {
        res.writeHead(404, { "content-type": "text/plain" }).end("no such thing");
      } else if (path.startsWith("/locked/")) {
        res.writeHead(401).end();
      } else {
        res.writeHead(200, { "content-type": "application/json", "x-server": "loopback" });
        res.end(JSON.stringify({ ok: true, path }));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, seen });
    }),
  );
}

describe("http connections", () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  let dispatcher: HostDispatcher;
  let dir: string;

  beforeAll(async () => {
    srv = await startServer();
    dir = mkdtempSync(join(tmpdir(), "trellis-http-"));
    writeFileSync(
      join(dir, ".env.dev.local"),
      'TRELLIS_MY_API_API_KEY="from-dev-local"\nTRELLIS_MY_API_TENANT=acme\nTRELLIS_APP_GREETING=hello\n',
    );
    writeFileSync(join(dir, ".env"), "TRELLIS_MY_API_API_KEY=from-dot-env\n");
    const manifest = parseManifest(
      JSON.stringify({
        connections: {
          "my-api": {
            type: "http",
            baseUrl: `${srv.base}/v1/`,
            headers: { Authorization: "Bearer {{API_KEY}}" },
            queryParameters: { tenant: "{{TENANT}}" },
          },
          hook: { type: "http", endpoint: `${srv.base}/hooks/one` },
          locked: { type: "http", baseUrl: `${srv.base}/locked/` },
        },
        limits: { timeoutMs: 300 },
      }),
    );
    dispatcher = createHostDispatcher({
      manifest,
      env: loadEnvFiles(dir, "dev", {}),
      maxResponseBytes: 32 * 1024,
      // The test server is on loopback: open exactly it.
      egress: { allow: [new URL(srv.base).host] },
    });
  });

  afterAll(async () => {
    await dispatcher?.close();
    srv?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("injects the bearer header from .env.dev.local and the query parameters, over the guest's", async () => {
    const res = await dispatcher.httpFetch(
      ctx,
      `${srv.base}/v1/items?x=1&tenant=guest`,
      "post",
      [
        ["Authorization", "Bearer guest-token"],
        ["X-Guest", "yes"],
      ],
      '{"a":1}',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, path: "/v1/items" });
    expect(res.headers).toContainEqual(["x-server", "loopback"]);
    const seen = srv.seen.at(-1)!;
    expect(seen.method).toBe("POST");
    expect(seen.headers.authorization).toBe("Bearer from-dev-local");
    expect(seen.headers["x-guest"]).toBe("yes");
    expect(new URL(seen.url, srv.base).searchParams.getAll("tenant")).toEqual(["acme"]);
    expect(new URL(seen.url, srv.base).searchParams.get("x")).toBe("1");
    expect(seen.body).toBe('{"a":1}');
  });

  it("returns non-2xx responses instead of failing", async () => {
    const res = await dispatcher.httpFetch(ctx, `${srv.base}/v1/missing`, "GET", [], undefined);
    expect(res).toMatchObject({ status: 404, statusText: "Not Found", body: "no such thing" });
  });

  it("allows an endpoint connection only at its exact URL (case-insensitive host)", async () => {
    const res = await dispatcher.httpFetch(
      ctx,
      `${srv.base.toUpperCase()}/hooks/one?q=1#frag`,
      "GET",
      [],
      undefined,
    );
    expect(res.status).toBe(200);
    await expect(
      dispatcher.httpFetch(ctx, `${srv.base}/hooks/one/more`, "GET", [], undefined),
    ).rejects.toThrow(
      `no http connection in trellis.json allows ${srv.base}/hooks/one/more; declare one whose baseUrl is a prefix of it`,
    );
  });

  it("refuses other hosts, prefix tricks and dot segments", async () => {
    const before = srv.seen.length;
    const port = new URL(srv.base).port;
    for (const url of [
      "http://example.com/v1/items",
      `${srv.base}/v1evil`,
      `${srv.base}/v1/../admin`,
      `${srv.base}/v1/%2e%2e/admin`,
      `http://localhost:${port}/v1/items`,
      `https://127.0.0.1:${port}/v1/items`,
    ]) {
      await expect(dispatcher.httpFetch(ctx, url, "GET", [], undefined)).rejects.toThrow(
        /^no http connection in trellis\.json allows .*; declare one whose baseUrl is a prefix of it$/,
      );
    }
    await expect(dispatcher.httpFetch(ctx, "not a url", "GET", [], undefined)).rejects.toThrow(
      'invalid URL "not a url"',
    );
    expect(srv.seen.length).toBe(before);
  });

  it("matches like Modus: without user info, query and fragment; longest baseUrl wins", () => {
    const conns = {
      a: { type: "http" as const, baseUrl: "https://API.example.com/", headers: {}, queryParameters: {} },
      b: { type: "http" as const, baseUrl: "https://api.example.com/v2/", headers: {}, queryParameters: {} },
    };
    expect(findHttpConnection(conns, "https://user:pw@api.example.com/v2/x?k=1#f")).toBe("b");
    expect(findHttpConnection(conns, "https://api.example.com/V1/x")).toBe("a");
    expect(findHttpConnection(conns, "https://api.example.com.evil.net/")).toBeUndefined();
  });

  it("does not follow redirects out of the allow-list", async () => {
    const res = await dispatcher.httpFetch(ctx, `${srv.base}/v1/redirect`, "GET", [], undefined);
    expect(res.status).toBe(302);
    expect(res.headers).toContainEqual(["location", "http://example.invalid/elsewhere"]);
  });

  it("times out slow responses and limits the body size", async () => {
    const start = performance.now();
    await expect(dispatcher.httpFetch(ctx, `${srv.base}/v1/slow`, "GET", [], undefined)).rejects.toThrow(
      `HTTP GET ${srv.base}/v1/slow failed: timed out after 300 ms`,
    );
    expect(performance.now() - start).toBeLessThan(1500);
    await expect(dispatcher.httpFetch(ctx, `${srv.base}/v1/big`, "GET", [], undefined)).rejects.toThrow(
      "response body is larger than the 32768 byte limit",
    );
  });

  it("tests connections: reachable, and not authenticated on 401", async () => {
    const statuses = await dispatcher.testConnections();
    expect(statuses.map(({ ms: _ms, ...s }) => s)).toEqual([
      { name: "my-api", type: "http", reachable: true, authenticated: true, detail: "HTTP 200 OK" },
      { name: "hook", type: "http", reachable: true, authenticated: true, detail: "HTTP 200 OK" },
      {
        name: "locked",
        type: "http",
        reachable: true,
        authenticated: false,
        detail: "HTTP 401 Unauthorized",
      },
    ]);
    expect(srv.seen.at(-1)!.method).toBe("HEAD");
  });

  it("gives app secrets only from TRELLIS_APP_*, naming the variable when unset", async () => {
    expect(await dispatcher.appSecret(ctx, "GREETING")).toBe("hello");
    await expect(dispatcher.appSecret(ctx, "OTHER")).rejects.toThrow(
      'app secret "OTHER" is not set: set TRELLIS_APP_OTHER in .env.dev.local',
    );
    await expect(dispatcher.appSecret(ctx, "MY_API_API_KEY")).rejects.toThrow("TRELLIS_APP_MY_API_API_KEY");
  });

  it("refuses to start with a missing secret, naming the variable", () => {
    const manifest = parseManifest(
      JSON.stringify({
        connections: {
          "openai-like": { type: "http", baseUrl: "http://h/", headers: { A: "Bearer {{API_KEY}}" } },
        },
      }),
    );
    expect(() => createHostDispatcher({ manifest, env: {} })).toThrow(MissingSecretsError);
    expect(() => createHostDispatcher({ manifest, env: {} })).toThrow(
      'missing environment variable TRELLIS_OPENAI_LIKE_API_KEY (connection "openai-like", headers.A)',
    );
  });

  it("fails a call to an unreachable server with the cause", async () => {
    const closed = await startServer();
    const base = closed.base;
    await new Promise((r) => closed.server.close(r));
    const manifest = parseManifest(
      JSON.stringify({ connections: { gone: { type: "http", baseUrl: `${base}/` } } }),
    );
    const d = createHostDispatcher({ manifest, env: {}, egress: { allow: [new URL(base).host] } });
    await expect(d.httpFetch(ctx, `${base}/x`, "GET", [], undefined)).rejects.toThrow(
      `HTTP GET ${base}/x failed: ECONNREFUSED`,
    );
    const [status] = await d.testConnections();
    expect(status).toMatchObject({ name: "gone", reachable: false, authenticated: false });
    await d.close();
  });

  it("refuses loopback under the default (deployed) egress policy, sending nothing, and says who can allow it", async () => {
    const manifest = parseManifest(
      JSON.stringify({ connections: { local: { type: "http", baseUrl: `${srv.base}/` } } }),
    );
    const d = createHostDispatcher({ manifest, env: {} });
    const seen = srv.seen.length;
    const port = new URL(srv.base).port;
    await expect(d.httpFetch(ctx, `${srv.base}/v1/x?secret=1`, "GET", [], undefined)).rejects.toThrow(
      `HTTP GET ${srv.base}/v1/x refused: 127.0.0.1 is a loopback address, which deployed apps may not reach; ` +
        `the platform operator can allow it with --egress-allow / TRELLIS_EGRESS_ALLOW (e.g. 127.0.0.1:${port})`,
    );
    const [status] = await d.testConnections();
    expect(status).toMatchObject({ name: "local", reachable: false });
    expect(status.detail).toContain("127.0.0.1 is a loopback address");
    expect(srv.seen.length).toBe(seen);
    await d.close();
  });
});
