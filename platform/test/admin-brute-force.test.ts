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

/**
 * Only 127.0.0.1 is the platform's own address here, so that the other loopback addresses (Linux routes
 * all of 127.0.0.0/8 to lo) stand for outside clients; by default all of loopback is the platform's own.
 */
const outsideLoopback = {
  isOwnAddress: (address: string) => address === "127.0.0.1",
  // The per-credential count is tested on its own below: out of the way here.
  credential: { freeFailures: 100_000 },
};

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
    t = await startTestPlatform({ logger: pino({ level: "warn" }, sink), authThrottle: outsideLoopback });
  });
  afterAll(() => t?.close());

  it("answers 429 after 5 failures from one address, with a Retry-After that doubles", async () => {
    const attacker = "127.0.0.11";
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
      address: "127.0.0.11",
      route: "GET /api/session",
      credential: "admin",
      reason: "invalid admin token",
      failures: 1,
      lockedForSeconds: 0,
    });
    expect(failures[4]).toMatchObject({ failures: 5, lockedForSeconds: 1 });
    expect(failures.some((l) => l.address === "127.0.0.2")).toBe(true);
    const refused = logs.filter((l) => l.msg === "authentication refused");
    expect(refused[0]).toMatchObject({
      level: 40,
      address: "127.0.0.11",
      route: "GET /api/session",
      reason: "too many failed attempts from this address",
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
    // Every neighbour request was answered (how fast is for bench/, not for a test on a shared machine).
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

describe("wrong tokens from the platform's own addresses (a tenant's outbound calls)", () => {
  let t: TestPlatform;
  let deployToken = "";
  const from = "127.0.0.1";
  const wrongAdmin = (i: number) =>
    call(`${t.platform.url}/api/session`, from, { headers: { authorization: `Bearer guess-${i}` } });
  const deployWith = (token: string) =>
    call(`${t.platform.url}/api/apps/shop/deployments`, from, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
    });
  const slashWith = (token: string) =>
    call(`${t.platform.url}/apps/shop/admin/slash`, from, {
      method: "POST",
      headers: { "x-auth-token": token, "content-type": "application/graphql" },
      body: "{ health }",
    });

  beforeAll(async () => {
    // A long first wait of the credentials, so that no step of the test can outlast it.
    t = await startTestPlatform({ authThrottle: { credential: { baseDelayMs: 60_000 } } });
    ({ deployToken } = await t.deployedApp("shop"));
  });
  afterAll(() => t?.close());

  it("answer 401, then 429 for the credential once it is over 10 failures from all addresses", async () => {
    for (let i = 1; i <= 10; i++) expect((await wrongAdmin(i)).status).toBe(401);
    const refused = await wrongAdmin(11);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("60");
    expect(refused.body.error).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(
        /^too many wrong tokens for the admin token \(from all addresses\): .*the right token is always accepted/,
      ),
    });
    for (let i = 1; i <= 10; i++) expect((await deployWith(`trd_guess-${i}`)).status).toBe(401);
    const deployRefused = await slashWith("trd_guess-11");
    expect(deployRefused.status).toBe(429);
    expect(deployRefused.body.errors[0].message).toMatch(
      /^too many wrong tokens for app "shop"'s deploy token/,
    );
  });

  it("never stop the admin token nor the app's deploy token from working", async () => {
    for (let i = 0; i < 60; i++) {
      expect([401, 429]).toContain((await wrongAdmin(100 + i)).status);
      expect([401, 429]).toContain((await deployWith(`trd_more-${i}`)).status);
      expect([401, 429]).toContain((await slashWith(`guess-${i}`)).status);
    }
    const session = await call(`${t.platform.url}/api/session`, from, {
      headers: { authorization: `Bearer ${t.platform.adminToken}` },
    });
    expect(session.body).toEqual({ ok: true });
    const deployed = await t.deploy("shop", await t.archive(), deployToken);
    expect(deployed.status).toBe(201);
    expect((await slashWith(deployToken)).body).toEqual({ data: { health: "ok" } });
    expect((await slashWith(t.platform.adminToken)).body).toEqual({ data: { health: "ok" } });
  });

  it("counts the refused attempts per credential kind in the metrics", async () => {
    const { text } = await t.metrics();
    const count = (labels: string) =>
      Number(
        new RegExp(`^trellis_platform_auth_throttled_total\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1],
      );
    expect(count('credential="admin",by="credential"')).toBeGreaterThanOrEqual(60);
    expect(count('credential="deploy",by="credential"')).toBeGreaterThanOrEqual(60);
    expect(text).not.toMatch(/by="address"/);
    expect(text).toMatch(/^trellis_platform_auth_failures_total\{credential="admin"\} \d+$/m);
  });
});

describe("admin token brute force behind a trusted proxy", () => {
  let t: TestPlatform;
  beforeAll(async () => {
    // Only the per-address count is looked at here.
    t = await startTestPlatform({
      trustProxy: "127.0.0.1",
      authThrottle: { credential: { freeFailures: 100_000 } },
    });
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

  it("counts a spoofed X-Forwarded-For against the right-most hop, never the address it names", async () => {
    // The client writes the victim's address; the proxy appends the address it saw.
    const spoofing = (token: string) =>
      call(`${t.platform.url}/api/session`, "127.0.0.1", {
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "198.51.100.7, 203.0.113.20" },
      });
    for (let i = 0; i < 5; i++) expect((await spoofing(`guess-${i}`)).status).toBe(401);
    expect((await spoofing("guess")).status).toBe(429);
    const victim = (token: string) =>
      call(`${t.platform.url}/api/session`, "127.0.0.1", {
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "198.51.100.7" },
      });
    expect((await victim("typo")).status).toBe(401);
    expect((await victim(t.platform.adminToken)).status).toBe(200);
  });
});
