import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlatformArgs } from "../src/cli-args.ts";
import { startTestPlatform, type TestPlatform } from "./support/test-platform.ts";

/** GET over HTTPS trusting exactly `ca`. */
function httpsGet(url: string, ca: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { ca, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("platform server", () => {
  let t: TestPlatform;
  let cert: string;
  let dir: string;
  beforeAll(async () => {
    dir = join(await import("node:os").then((os) => os.tmpdir()), `trellis-tls-${process.pid}-${Date.now()}`);
    await mkdir(join(dir, "console"), { recursive: true });
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    await writeFile(join(dir, "console", "index.html"), "<!doctype html><title>Trellis console</title>");
    cert = await import("node:fs/promises").then((fs) => fs.readFile(join(dir, "cert.pem"), "utf8"));
    t = await startTestPlatform({
      postgres: true,
      tls: { cert: join(dir, "cert.pem"), key: join(dir, "key.pem") },
      consoleDir: join(dir, "console"),
    });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves HTTPS when a certificate and key are configured", async () => {
    expect(t.platform.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await httpsGet(`${t.platform.url}/api/session`, cert, {
      Authorization: `Bearer ${t.platform.adminToken}`,
    });
    expect(res).toEqual({ status: 200, body: '{"ok":true}' });
  });

  it("serves the console, with index.html for its client-side routes, and JSON 404s for APIs", async () => {
    expect((await httpsGet(`${t.platform.url}/`, cert)).body).toContain("Trellis console");
    expect((await httpsGet(`${t.platform.url}/apps/shop/activity`, cert)).status).toBe(404);
    expect((await httpsGet(`${t.platform.url}/some/console/page`, cert)).body).toContain("Trellis console");
    const api = await httpsGet(`${t.platform.url}/api/nothing-here`, cert, {
      Authorization: `Bearer ${t.platform.adminToken}`,
    });
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body).error.code).toBe("NOT_FOUND");
  });

  it("reads its command line and environment", () => {
    const parsed = parsePlatformArgs(["--port", "9999", "--idle-timeout", "1000"], {
      TRELLIS_DATABASE_URL: "postgres://db/x",
      TRELLIS_TLS_CERT: "c.pem",
      TRELLIS_TLS_KEY: "k.pem",
    });
    expect(parsed).toMatchObject({
      port: 9999,
      idleMs: 1000,
      databaseUrl: "postgres://db/x",
      tls: { cert: "c.pem", key: "k.pem" },
    });
    expect(parsePlatformArgs([], {})).toMatchObject({
      port: 8787,
      host: "0.0.0.0",
      idleMs: undefined,
      tls: undefined,
    });
    expect(() => parsePlatformArgs(["--tls-cert", "c.pem"], {})).toThrow(/go together/);
    expect(() => parsePlatformArgs(["--port", "x"], {})).toThrow(/not a number/);
  });
});
