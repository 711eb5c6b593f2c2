/**
 * Issue 20's attacks on a running platform with the real WebAssembly runtime, as a tenant holding only its
 * own credentials tried them: its app's `http` and `relationaldb` connections, a `@custom(http:)` field of
 * its graph schema and its users' JWKS endpoint all name this machine's services (the platform's token-less
 * /metrics, PostgreSQL, MariaDB, a loopback API) or the networks around it. Under the default egress
 * policy each is refused with the error that says who may allow it, and no byte reaches the service; once
 * the operator allows exactly that address and port, the same call goes through (and nothing else does).
 * Every target is on loopback; the private and metadata addresses are refused before any connection.
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { pino } from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWasmAppRuntime,
  type PlatformOptions,
  type RunningPlatform,
  startPlatform,
} from "../../platform/src/index.ts";
import { buildApp } from "../../runtime/src/index.ts";
import { freePort } from "../support/loopback-apis.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
type Json = any;

const TENANT_SOURCE = `import { http, sql } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
/** GET through whichever http connection allows the URL. */
export function fetchUrl(url: string): string {
  const r = http.fetch(url);
  return r.status.toString() + " " + r.text();
}
/** SELECT 1 on a relationaldb connection. */
export function sqlOne(connection: string): string {
  return JSON.stringify(sql.query(connection, "select 1 as n"));
}
`;

const ALLOW_HINT =
  "which deployed apps may not reach; the platform operator can allow it with --egress-allow / TRELLIS_EGRESS_ALLOW";

/** A loopback server answering a JSON string naming the path; `requests` counts what reached it. */
async function secretServer(
  host: "127.0.0.1" | "::1",
): Promise<{ server: Server; port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`secret ${req.url}`));
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

describe("egress: a tenant's connections cannot reach this machine or its networks", () => {
  let tmp: string;
  let platform: RunningPlatform;
  let v4: Awaited<ReturnType<typeof secretServer>>;
  let v6: Awaited<ReturnType<typeof secretServer>>;
  let jwks: Server;
  let jwksPort: number;
  let jwksFetches = 0;
  let signer: Awaited<ReturnType<typeof generateKeyPair>>;
  let tenantKey: string;
  let options: PlatformOptions;
  const targets = {} as Record<
    "metrics" | "loopback" | "name" | "ipv6" | "mapped" | "metadata" | "private" | "otherPort",
    string
  >;

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

  async function gql(query: string, bearer = tenantKey): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${platform.url}/apps/tenant/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() };
  }

  const fetchUrl = async (url: string) => gql(`{ fetchUrl(url: ${JSON.stringify(url)}) }`);
  const errorOf = (r: { body: Json }): string =>
    r.body.errors?.[0]?.message ?? `no error: ${JSON.stringify(r.body)}`;
  const customField = async () =>
    (await api("POST", "/api/apps/tenant/graph/graphql", { query: "{ leak }" })).body;
  const userToken = () =>
    new SignJWT({ sub: "user-1" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setExpirationTime("5m")
      .sign(signer.privateKey);

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-egress-attacks-"));
    [v4, v6] = await Promise.all([secretServer("127.0.0.1"), secretServer("::1")]);
    signer = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(signer.publicKey)), kid: "k1", alg: "ES256" };
    jwks = createServer((_req, res) => {
      jwksFetches++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
    jwksPort = (jwks.address() as AddressInfo).port;

    const metricsPort = await freePort();
    Object.assign(targets, {
      metrics: `http://127.0.0.1:${metricsPort}/metrics`,
      loopback: `http://127.0.0.1:${v4.port}/a`,
      name: `http://localhost:${v4.port}/b`,
      ipv6: `http://[::1]:${v6.port}/c`,
      mapped: `http://[::ffff:127.0.0.1]:${v4.port}/d`,
      metadata: "http://169.254.169.254/latest/meta-data/",
      private: "http://10.0.0.1/admin",
      otherPort: `http://127.0.0.1:${v4.port + 1}/x`,
    });
    const dir = join(tmp, "tenant");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(
      join(dir, "trellis.json"),
      JSON.stringify({
        endpoints: { default: { type: "graphql", path: "/graphql", auth: "jwt" } },
        connections: {
          ...Object.fromEntries(
            Object.entries(targets).map(([name, url]) => [name, { type: "http", endpoint: url }]),
          ),
          pg: { type: "relationaldb", connStr: "postgres://postgres@127.0.0.1:5432/test" },
          maria: { type: "relationaldb", connStr: "mysql://root@127.0.0.1:3306/test" },
        },
        limits: { timeoutMs: 10_000 },
      }),
    );
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "tenant", private: true }));
    await writeFile(join(dir, "src/index.ts"), TENANT_SOURCE);
    const { outDir } = await buildApp(dir);

    options = {
      port: await freePort(),
      host: "127.0.0.1",
      dataDir: join(tmp, "data"),
      adminToken: `admin-${randomBytes(24).toString("hex")}`,
      graphdb: { httpPort: await freePort(), grpcPort: await freePort() },
      metrics: { port: metricsPort },
      logger: pino({ level: "silent" }),
      runtime: createWasmAppRuntime(),
    };
    platform = await startPlatform(options);
    expect((await api("POST", "/api/apps", { name: "tenant" })).status).toBe(201);
    const chunks: Buffer[] = [];
    for await (const chunk of tar.c({ gzip: true, cwd: outDir, portable: true }, ["."]))
      chunks.push(Buffer.from(chunk));
    const deployed = await fetch(`${platform.url}/api/apps/tenant/deployments`, {
      method: "POST",
      headers: { authorization: `Bearer ${platform.adminToken}`, "content-type": "application/gzip" },
      body: Buffer.concat(chunks),
    });
    expect(deployed.status).toBe(201);
    tenantKey = (await api("POST", "/api/apps/tenant/keys", { name: "k" })).body.secret;
    const jwksUrl = `http://127.0.0.1:${jwksPort}/jwks`;
    expect(
      (await api("PUT", "/api/apps/tenant/env/TRELLIS_JWT_JWKS_ENDPOINTS", { value: jwksUrl })).status,
    ).toBe(200);
    const schema = `type Note { id: ID! text: String }
type Query { leak: String @custom(http: { url: "http://127.0.0.1:${v4.port}/custom", method: GET }) }`;
    expect((await api("PUT", "/api/apps/tenant/graph/graphql-schema", { schema })).status).toBe(200);
    expect((await gql('{ sayHello(name: "t") }')).body.data).toEqual({ sayHello: "Hello, t!" });
  }, 240_000);

  afterAll(async () => {
    await platform?.close();
    for (const server of [v4?.server, v6?.server, jwks]) server?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  describe("under the default (deployed) policy", () => {
    it.each([
      [
        "metrics",
        () => targets.metrics,
        () =>
          `HTTP GET ${targets.metrics} refused: 127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. ${new URL(targets.metrics).host})`,
      ],
      [
        "loopback",
        () => targets.loopback,
        () =>
          `HTTP GET ${targets.loopback} refused: 127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. 127.0.0.1:${v4.port})`,
      ],
      [
        "name",
        () => targets.name,
        () =>
          /HTTP GET http:\/\/localhost:\d+\/b refused: localhost \((127\.0\.0\.1|::1)\) is a loopback address/,
      ],
      [
        "ipv6",
        () => targets.ipv6,
        () => `refused: ::1 is a loopback address, ${ALLOW_HINT} (e.g. [::1]:${v6.port})`,
      ],
      [
        "mapped",
        () => targets.mapped,
        () => "refused: ::ffff:7f00:1 is an IPv4-mapped form of 127.0.0.1, a loopback address",
      ],
      [
        "metadata",
        () => targets.metadata,
        () =>
          `refused: 169.254.169.254 is the cloud metadata service's address, ${ALLOW_HINT} (e.g. 169.254.169.254:80)`,
      ],
      [
        "private",
        () => targets.private,
        () => `refused: 10.0.0.1 is a private address, ${ALLOW_HINT} (e.g. 10.0.0.1:80)`,
      ],
    ])("refuses http to %s, sending nothing", async (_name, url, expected) => {
      const before = v4.requests.length + v6.requests.length;
      const message = errorOf(await fetchUrl(url()));
      const want = expected();
      if (typeof want === "string") expect(message).toContain(want);
      else expect(message).toMatch(want);
      expect(v4.requests.length + v6.requests.length).toBe(before);
    });

    it("refuses the host's PostgreSQL and MariaDB", async () => {
      expect(errorOf(await gql('{ sqlOne(connection: "pg") }'))).toContain(
        `sql query on connection "pg" failed: 127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. 127.0.0.1:5432)`,
      );
      expect(errorOf(await gql('{ sqlOne(connection: "maria") }'))).toContain(
        `sql query on connection "maria" failed: 127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. 127.0.0.1:3306)`,
      );
    });

    it("refuses a @custom(http:) field of the tenant's graph schema", async () => {
      const before = v4.requests.length;
      const answer = await customField();
      expect(answer.data).toEqual({ leak: null });
      expect(answer.errors[0].message).toBe(
        `Evaluation of custom field failed because external request to http://127.0.0.1:${v4.port}/custom failed: ` +
          `127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. 127.0.0.1:${v4.port})`,
      );
      expect(v4.requests.length).toBe(before);
    });

    it("fetches no key set from a JWKS endpoint on loopback", async () => {
      const before = jwksFetches;
      const r = await gql('{ sayHello(name: "u") }', await userToken());
      expect(r.status).toBe(401);
      expect(errorOf(r)).toContain(
        `fetching the key set at http://127.0.0.1:${jwksPort}/jwks failed: 127.0.0.1 is a loopback address, ${ALLOW_HINT}`,
      );
      expect(jwksFetches).toBe(before);
    });
  });

  describe("once the operator allows exactly those addresses and ports", () => {
    beforeAll(async () => {
      await platform.close();
      platform = await startPlatform({
        ...options,
        egress: {
          allow: [
            new URL(targets.metrics).host,
            `127.0.0.1:${v4.port}`,
            `[::1]:${v6.port}`,
            "127.0.0.1:5432",
            "127.0.0.1:3306",
            `127.0.0.1:${jwksPort}`,
          ],
        },
      });
    }, 120_000);

    it("lets the allowed http calls through: metrics, loopback, by name, IPv6 and IPv4-mapped", async () => {
      expect((await fetchUrl(targets.metrics)).body.data.fetchUrl).toMatch(/^200 [\s\S]*# HELP/);
      expect((await fetchUrl(targets.loopback)).body.data).toEqual({ fetchUrl: '200 "secret /a"' });
      expect((await fetchUrl(targets.name)).body.data).toEqual({ fetchUrl: '200 "secret /b"' });
      expect((await fetchUrl(targets.ipv6)).body.data).toEqual({ fetchUrl: '200 "secret /c"' });
      expect((await fetchUrl(targets.mapped)).body.data).toEqual({ fetchUrl: '200 "secret /d"' });
    });

    it("still refuses what was not allowed: another port, the metadata service, a private network", async () => {
      expect(errorOf(await fetchUrl(targets.metadata))).toContain("169.254.169.254 is the cloud metadata");
      expect(errorOf(await fetchUrl(targets.private))).toContain("10.0.0.1 is a private address");
      expect(errorOf(await fetchUrl(targets.otherPort))).toContain(
        `127.0.0.1 is a loopback address, ${ALLOW_HINT} (e.g. 127.0.0.1:${v4.port + 1})`,
      );
    });

    it("lets the allowed databases answer", async () => {
      expect((await gql('{ sqlOne(connection: "pg") }')).body.data).toEqual({ sqlOne: '[{"n":1}]' });
      expect((await gql('{ sqlOne(connection: "maria") }')).body.data).toEqual({ sqlOne: '[{"n":1}]' });
    });

    it("resolves the @custom(http:) field", async () => {
      expect(await customField()).toEqual({ data: { leak: "secret /custom" } });
    });

    it("verifies users' JWTs against the allowed JWKS endpoint", async () => {
      const r = await gql('{ sayHello(name: "u") }', await userToken());
      expect(r.body.data).toEqual({ sayHello: "Hello, u!" });
      expect(jwksFetches).toBeGreaterThan(0);
    });

    it("stops reading an allowed @custom(http:) answer at the operator's --graphdb-max-remote-answer", async () => {
      await platform.close();
      // "secret /custom" is 16 bytes of JSON: past a 10-byte bound.
      platform = await startPlatform({
        ...options,
        egress: { allow: [`127.0.0.1:${v4.port}`] },
        graphdb: { ...options.graphdb, limits: { remoteAnswerBytes: 10 } },
      });
      expect(JSON.stringify(await customField())).toContain("is larger than the limit of 10 bytes");
    }, 120_000);
  });
});
