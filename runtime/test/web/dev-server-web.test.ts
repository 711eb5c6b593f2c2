/**
 * `trellis dev` with a front end: the dev server hands every path that is not its own (GraphQL, explorer,
 * health, metrics) to Vite's dev server in middleware mode, on one port, with Vite's hot-reload websocket
 * on the same HTTP server. The page is the template's (app-template/web), its types generated for the
 * test app's schema.
 */

import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../src/dev/dev-server.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { TEMPLATE_ROOT } from "../../src/scaffold/create-app.ts";
import { generateWebTypes } from "../../src/web/web-graphql-types.ts";
import { newTestInvoker, testWorld } from "../graphql/app-functions.ts";

let dir: string;
let dev: DevServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trellis-dev-web-"));
  const webRoot = join(dir, "web");
  await cp(join(TEMPLATE_ROOT, "web"), webRoot, { recursive: true });
  const handler = createGraphQLHandler({ world: testWorld, invoker: newTestInvoker() });
  // The template page asks for `sayHello`; the test app answers it with its logStuff function.
  await writeFile(
    join(webRoot, "src/hello.graphql"),
    "query SayHello($name: String!) { sayHello: logStuff(name: $name) }\n",
  );
  await generateWebTypes(webRoot, handler.sdl);
  dev = await startDevServer({
    port: 0,
    web: { root: webRoot },
    getApp: () => ({
      name: "web-app",
      world: testWorld,
      sdl: handler.sdl,
      graphql: { fetch: (request, auth) => handler.fetch(request, auth) },
      endpoints: [{ name: "default", path: "/graphql", auth: "none" }],
      testConnections: async () => [],
    }),
  });
});

afterAll(async () => {
  await dev?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("trellis dev with a front end", () => {
  it("serves the page at / through Vite (index.html with its client injected)", async () => {
    const res = await fetch(`${dev.url}/`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/@vite/client"></script>');
    expect(html).toContain('src="/src/main.ts"');
  });

  it("falls back to the page for client-side routes", async () => {
    const res = await fetch(`${dev.url}/people/42`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("/@vite/client");
  });

  it("serves the page's modules transformed to JavaScript, generated types included", async () => {
    const main = await fetch(`${dev.url}/src/main.ts`);
    expect(main.status).toBe(200);
    expect(main.headers.get("content-type")).toMatch(/javascript/);
    const code = await main.text();
    expect(code).toContain("/src/generated/graphql.ts");
    expect(code).not.toMatch(/:\s*Promise<void>/); // TypeScript stripped
    const types = await (await fetch(`${dev.url}/src/generated/graphql.ts`)).text();
    expect(types).toContain("sayHello: logStuff(name: $name)");
  });

  it("keeps /graphql, /explorer and /health its own, on the page's origin", async () => {
    const res = await fetch(`${dev.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: dev.url },
      body: JSON.stringify({ query: '{ sayHello: logStuff(name: "Web") }' }),
    });
    expect(await res.json()).toMatchObject({ data: { sayHello: "done Web" } });
    const explorer = await fetch(`${dev.url}/explorer/`);
    expect(await explorer.text()).toContain("<title>");
    expect(await (await fetch(`${dev.url}/health`)).json()).toMatchObject({ status: "ok", app: "web-app" });
  });

  it("accepts Vite's hot-reload websocket on the same port and says connected", async () => {
    const client = await (await fetch(`${dev.url}/@vite/client`)).text();
    const token = /const wsToken = "([^"]+)"/.exec(client)?.[1];
    expect(token).toBeTruthy();
    const { status, socket, firstMessage } = await openWebSocket(`${dev.url}/?token=${token}`, dev.url);
    expect(status).toBe(101);
    expect(JSON.parse(firstMessage)).toEqual({ type: "connected" });
    socket.destroy();
  });

  it("answers 404 for unknown paths when the manifest turns the SPA fallback off", async () => {
    const mpa = await startDevServer({
      port: 0,
      web: { root: join(dir, "web"), spaFallback: false },
      getApp: () => undefined,
    });
    try {
      const res = await fetch(`${mpa.url}/people/42`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(404);
      expect(await (await fetch(`${mpa.url}/`)).text()).toContain("/@vite/client");
    } finally {
      await mpa.close();
    }
  });

  it("refuses the websocket to another page (no token)", async () => {
    await expect(openWebSocket(`${dev.url}/`, "http://evil.example")).rejects.toThrow(/refused/);
  });
});

/** A websocket handshake with Vite's `vite-hmr` protocol, and the first (unmasked, short) text frame. */
function openWebSocket(
  url: string,
  origin: string,
): Promise<{ status: number; socket: Duplex; firstMessage: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        origin,
        "sec-websocket-version": "13",
        "sec-websocket-key": Buffer.from("trellis-dev-test").toString("base64"),
        "sec-websocket-protocol": "vite-hmr",
      },
    });
    req.on("upgrade", (res, socket, head) => {
      const frame = (data: Buffer) => {
        const length = (data[1] ?? 0) & 0x7f;
        resolve({
          status: res.statusCode ?? 0,
          socket,
          firstMessage: data.subarray(2, 2 + length).toString(),
        });
      };
      if (head.length > 0) frame(head);
      else socket.once("data", frame);
    });
    req.on("response", (res) => reject(new Error(`refused: HTTP ${res.statusCode}`)));
    req.on("error", (e) => reject(new Error(`refused: ${e.message}`)));
    req.end();
  });
}
