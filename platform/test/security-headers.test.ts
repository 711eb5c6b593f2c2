import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

const CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self';font-src 'self';connect-src 'self';" +
  "object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none';frame-src *.localhost:*";

/** The headers every browser-facing answer must carry, over HTTP. */
function expectSecurityHeaders(headers: Headers | IncomingHttpHeaders, what: string): void {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : ((headers[name] as string | undefined) ?? null);
  expect(get("x-frame-options"), what).toBe("DENY");
  expect(get("x-content-type-options"), what).toBe("nosniff");
  expect(get("referrer-policy"), what).toBe("no-referrer");
  expect(get("x-powered-by"), what).toBeNull();
}

/** CSP, framing, sniffing and referrer headers on the console and the API, HSTS only over HTTPS. */
describe("security headers", () => {
  let dir: string;
  let t: TestPlatform;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-headers-"));
    await mkdir(join(dir, "console"));
    await writeFile(join(dir, "console", "index.html"), "<!doctype html><title>Trellis console</title>");
    t = await startTestPlatform({ consoleDir: join(dir, "console") });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("sends the CSP, X-Frame-Options, nosniff and Referrer-Policy with the console", async () => {
    for (const path of ["/", "/index.html", "/some/console/route"]) {
      const res = await fetch(`${t.platform.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain("Trellis console");
      expect(res.headers.get("content-security-policy"), path).toBe(CSP);
      expectSecurityHeaders(res.headers, path);
    }
  });

  it("sends them with API answers, errors and /health too", async () => {
    const answers = {
      session: await fetch(`${t.platform.url}/api/session`, {
        headers: { authorization: `Bearer ${t.platform.adminToken}` },
      }),
      unauthorized: await fetch(`${t.platform.url}/api/apps`),
      notFound: await fetch(`${t.platform.url}/api/nothing-here`),
      health: await fetch(`${t.platform.url}/health`),
    };
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers.get("content-security-policy"), what).toBe(CSP);
      expectSecurityHeaders(res.headers, what);
    }
  });

  it("sends no HSTS and no upgrade-insecure-requests over plain HTTP", async () => {
    const res = await fetch(`${t.platform.url}/`);
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });
});

describe("security headers over HTTPS", () => {
  let dir: string;
  let cert: string;
  let t: TestPlatform;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "trellis-headers-tls-"));
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
        ...["-addext", "subjectAltName=IP:127.0.0.1"],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    cert = await readFile(join(dir, "cert.pem"), "utf8");
    t = await startTestPlatform({ tls: { cert: join(dir, "cert.pem"), key: join(dir, "key.pem") } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("adds HSTS for this host only, and upgrade-insecure-requests", async () => {
    const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      request(`${t.platform.url}/health`, { ca: cert }, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on("error", reject)
        .end();
    });
    expect(headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(headers["content-security-policy"]).toBe(`${CSP};upgrade-insecure-requests`);
    expectSecurityHeaders(headers, "https");
  });
});
