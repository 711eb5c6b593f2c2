import { request } from "node:http";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { duringNeighbourLoad } from "../../test/platform/neighbour-latency.ts";
import { type Json, startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: Json;
}

/**
 * An HTTP request from a chosen loopback address (Linux routes all of 127.0.0.0/8 to lo), so that one
 * test can be several clients.
 */
function call(
  url: string,
  from: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: init.headers, localAddress: from },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"],
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Guessing the admin token (or a deploy token, or /admin/slash's X-Auth-Token) against a real platform. */
describe("admin token brute force", () => {
  let t: TestPlatform;
  const logs: Json[] = [];
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const session = (from: string, token: string, headers: Record<string, string> = {}) =>
    call(`${t.platform.url}/api/session`, from, { headers: { ...bearer(token), ...headers } });

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestPlatform({ logger: pino({ level: "warn" }, sink) });
  });
  afterAll(() => t?.close());

  it("answers 429 after 5 failures from one address, with a Retry-After that doubles", async () => {
    const attacker = "127.0.0.1";
    for (let i = 1; i <= 5; i++) expect((await session(attacker, `guess-${i}`)).status).toBe(401);
    const locked = await session(attacker, "guess-6");
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toBe("1");
    expect(locked.body.error).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^too many failed attempts from your address: try again in 1 s/),
    });
    // While it waits, even the right token from that address is refused …
    expect((await session(attacker, t.platform.adminToken)).status).toBe(429);
    // … but other clients, with the right token or their own few mistakes, are not slowed down.
    expect((await session("127.0.0.2", t.platform.adminToken)).body).toEqual({ ok: true });
    expect((await session("127.0.0.2", "typo")).status).toBe(401);

    await sleep(1100);
    expect((await session(attacker, "guess-7")).status).toBe(401);
    const longer = await session(attacker, "guess-8");
    expect(longer.status).toBe(429);
    expect(longer.retryAfter).toBe("2");

    await sleep(2100);
    expect((await session(attacker, t.platform.adminToken)).body).toEqual({ ok: true });
    expect((await session(attacker, "typo")).status).toBe(401); // the success reset the count
  });

  it("logs every failure as a warning with address, route and reason, never the token", async () => {
    const failures = logs.filter((l) => l.msg === "authentication failed");
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(failures[0]).toMatchObject({
      level: 40,
      address: "127.0.0.1",
      route: "GET /api/session",
      reason: "invalid admin token",
      failures: 1,
      lockedForSeconds: 0,
    });
    expect(failures[4]).toMatchObject({ failures: 5, lockedForSeconds: 1 });
    expect(failures.some((l) => l.address === "127.0.0.2")).toBe(true);
    const refused = logs.filter((l) => l.msg === "authentication refused");
    expect(refused[0]).toMatchObject({
      level: 40,
      address: "127.0.0.1",
      route: "GET /api/session",
      reason: "too many failed attempts",
      retryAfterSeconds: 1,
    });
    const text = JSON.stringify(logs);
    expect(text).not.toContain("guess-");
    expect(text).not.toContain(t.platform.adminToken);
  });

  it("counts wrong deploy tokens and /admin/slash tokens towards the same backoff", async () => {
    const from = "127.0.0.3";
    for (let i = 0; i < 3; i++) {
      const slash = await call(`${t.platform.url}/admin/slash`, from, {
        method: "POST",
        headers: { "x-auth-token": `slash-guess-${i}`, "content-type": "application/graphql" },
        body: "mutation { dropData(allData: true) { response { code } } }",
      });
      expect(slash.status).toBe(401);
    }
    for (let i = 0; i < 2; i++) {
      const deploy = await call(`${t.platform.url}/api/apps/shop/deployments`, from, {
        method: "POST",
        headers: { ...bearer(`trd_guess-${i}`), "content-type": "application/gzip" },
      });
      expect(deploy.status).toBe(401);
    }
    const slash = await call(`${t.platform.url}/admin/slash`, from, {
      method: "POST",
      headers: { "x-auth-token": t.platform.adminToken, "content-type": "application/graphql" },
      body: "{ health }",
    });
    expect(slash.status).toBe(429);
    expect(slash.retryAfter).toBe("1");
    expect(slash.body.errors[0].extensions.code).toBe("TOO_MANY_REQUESTS");
    expect(logs).toContainEqual(
      expect.objectContaining({ address: from, route: "POST /admin/slash", reason: "invalid X-Auth-Token" }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        address: from,
        route: "POST /api/apps/:app/deployments",
        reason: "invalid admin or deploy token",
      }),
    );
  });

  it("lets at most 5 of a parallel burst of guesses be checked", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(`${t.platform.url}/api/apps/shop/deployments`, "127.0.0.4", {
          method: "POST",
          headers: { ...bearer(`trd_burst-${i}`), "content-type": "application/gzip" },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(25);
  });

  it("keeps answering apps promptly while an address hammers the admin token", async () => {
    const { apiKey } = await t.deployedApp("neighbour");
    const neighbour = async () => {
      const res = await t.gql("neighbour", "{ version }", apiKey);
      return res.status === 200 ? true : `HTTP ${res.status}`;
    };
    expect(await neighbour()).toBe(true); // loaded before the flood: no cold start in the latencies
    const flood = await duringNeighbourLoad(neighbour, async () => {
      const statuses: number[] = [];
      for (let round = 0; round < 50; round++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => session("127.0.0.6", `flood-${round}`)),
        );
        statuses.push(...answers.map((a) => a.status));
      }
      return statuses;
    });
    expect(flood.result.filter((s) => s === 429).length).toBeGreaterThan(990);
    expect(flood.failures).toEqual([]);
  });

  it("does not believe X-Forwarded-For unless the proxy is trusted", async () => {
    for (let i = 0; i < 5; i++) {
      const spoofed = await session("127.0.0.5", "guess", { "x-forwarded-for": `203.0.113.${i}` });
      expect(spoofed.status).toBe(401);
    }
    expect((await session("127.0.0.5", "guess", { "x-forwarded-for": "203.0.113.99" })).status).toBe(429);
  });
});

describe("admin token brute force behind a trusted proxy", () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ trustProxy: "127.0.0.1" });
  });
  afterAll(() => t?.close());

  it("counts failures per forwarded client address", async () => {
    const via = (client: string, token: string) =>
      call(`${t.platform.url}/api/session`, "127.0.0.1", {
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": client },
      });
    for (let i = 0; i < 5; i++) expect((await via("203.0.113.7", "guess")).status).toBe(401);
    expect((await via("203.0.113.7", "guess")).status).toBe(429);
    expect((await via("203.0.113.8", t.platform.adminToken)).status).toBe(200);
  });
});
