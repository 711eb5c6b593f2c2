import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../../src/dev/dev-server.ts";
import { createGraphQLHandler } from "../../src/graphql/graphql-handler.ts";
import { newTestInvoker, testWorld } from "../graphql/app-functions.ts";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that Host, Origin and Sec-Fetch-* are exactly what the test says. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** `trellis dev` answers its own pages and Origin-less clients only (other web pages can neither call nor read it). */
describe("dev server origin checks", () => {
  let dev: DevServer;
  let port: number;
  const mutation = JSON.stringify({ query: 'mutation { addPerson(firstName: "Eve", age: 1) }' });
  const query = JSON.stringify({ query: "{ getter }" });
  const post = (headers: Record<string, string>, body = query) =>
    send(
      `${dev.url}/graphql`,
      "POST",
      { "content-type": "application/json", accept: "application/json", ...headers },
      body,
    );

  beforeAll(async () => {
    const handler = createGraphQLHandler({ world: testWorld, invoker: newTestInvoker() });
    dev = await startDevServer({
      port: 0,
      getApp: () => ({
        name: "people-app",
        world: testWorld,
        sdl: handler.sdl,
        graphql: { fetch: (request, auth) => handler.fetch(request, auth) },
        endpoints: [{ name: "main", path: "/graphql", auth: "none" }],
        testConnections: async () => [],
      }),
    });
    port = Number(new URL(dev.url).port);
  });
  afterAll(() => dev?.close());

  it("listens on loopback by default", () => {
    expect(dev.url).toBe(`http://127.0.0.1:${port}`);
  });

  it("refuses a cross-origin POST to /graphql with 403, a clear message and no CORS headers", async () => {
    const res = await post({ origin: "http://evil.example" }, mutation);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(
      /^cross-origin request from http:\/\/evil\.example refused: trellis dev answers only its own pages/,
    );
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    for (const origin of [
      "null",
      `http://localhost:${port + 1}`, // another local dev server (same site, other origin)
      `https://localhost:${port}`,
      `http://evil.example:${port}`,
    ]) {
      expect((await post({ origin }, mutation)).status, origin).toBe(403);
    }
  });

  it("answers same-origin POSTs from each of its own origins", async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const res = await post({ origin });
      expect(res.status, origin).toBe(200);
      expect(JSON.parse(res.body).data).toEqual({ getter: "got" });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
  });

  it("answers clients that send no Origin (curl, server-side code)", async () => {
    const res = await post({});
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toEqual({ getter: "got" });
    expect((await send(`${dev.url}/health`, "GET", {})).status).toBe(200);
  });

  it("refuses cross-site browser requests without Origin, but not a navigation to the explorer", async () => {
    const img = await send(`${dev.url}/graphql?query=%7Bgetter%7D`, "GET", {
      accept: "application/json",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "no-cors",
      "sec-fetch-dest": "image",
    });
    expect(img.status).toBe(403);
    const link = await send(`${dev.url}/explorer/`, "GET", {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
    });
    expect(link.status).toBe(200);
    const own = await send(`${dev.url}/explorer/api/functions`, "GET", { "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
  });

  it("refuses requests addressed to a host name other than localhost (DNS rebinding)", async () => {
    const rebound = await post({
      host: `attacker.example:${port}`,
      origin: `http://attacker.example:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toMatch(/addressed to "attacker\.example:\d+" are refused/);
    const noOrigin = await send(`${dev.url}/explorer/api/sdl`, "GET", { host: `attacker.example:${port}` });
    expect(noOrigin.status).toBe(403);
    for (const host of [`localhost:${port}`, `app.localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await post({ host })).status, host).toBe(200);
    }
  });

  it("forbids framing and content sniffing on its pages", async () => {
    const page = await send(`${dev.url}/explorer/`, "GET", {});
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
  });
});
