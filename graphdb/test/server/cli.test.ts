import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs, parseSize, UsageError } from "../../src/cli.ts";
import { request } from "./http-client.ts";

const BIN = resolve(import.meta.dirname, "../../bin/trellis-graphdb.mjs");

describe("CLI arguments", () => {
  it("uses Dgraph-like defaults", () => {
    const config = parseCliArgs([], {});
    expect(config).toMatchObject({
      dataDir: resolve("./data/graphdb"),
      port: 8080,
      grpcPort: 9080,
      host: "0.0.0.0",
      acl: false,
      bodyLimit: 32 * 1024 * 1024,
      logLevel: "info",
      help: false,
    });
  });

  it("reads the environment, and flags win over it", () => {
    const env = { TRELLIS_GRAPHDB_DATA: "/tmp/x", TRELLIS_GRAPHDB_PORT: "9000" };
    expect(parseCliArgs([], env)).toMatchObject({ dataDir: "/tmp/x", port: 9000 });
    expect(parseCliArgs(["--port", "7000", "--data", "/tmp/y"], env)).toMatchObject({
      dataDir: "/tmp/y",
      port: 7000,
    });
  });

  it("parses every option", () => {
    const config = parseCliArgs(
      [
        "--host=127.0.0.1",
        "--grpc-port",
        "9999",
        "--acl",
        "--acl-secret-file",
        "s.key",
        "--auth-token",
        "tok",
        "--body-limit",
        "64MiB",
        "--log-level",
        "debug",
      ],
      {},
    );
    expect(config).toMatchObject({
      host: "127.0.0.1",
      grpcPort: 9999,
      acl: true,
      aclSecretFile: "s.key",
      authToken: "tok",
      bodyLimit: 64 * 1024 * 1024,
      logLevel: "debug",
    });
  });

  it("rejects unknown flags and bad values", () => {
    expect(() => parseCliArgs(["--nope"], {})).toThrow(UsageError);
    expect(() => parseCliArgs(["--port", "http"], {})).toThrow("--port: not a port number: http");
    expect(() => parseCliArgs(["extra"], {})).toThrow(UsageError);
    expect(() => parseCliArgs(["--lambda-url", "ftp://x/"], {})).toThrow(
      "--lambda-url: only http and https URLs, got ftp:",
    );
    expect(parseCliArgs([], { TRELLIS_GRAPHDB_LAMBDA_URL: "http://127.0.0.1:8686/lambda" }).lambdaUrl).toBe(
      "http://127.0.0.1:8686/lambda",
    );
  });

  it("parses sizes", () => {
    expect(parseSize("1024")).toBe(1024);
    expect(parseSize("512k")).toBe(512 * 1024);
    expect(parseSize("2MB")).toBe(2 * 1024 * 1024);
    expect(parseSize("1GiB")).toBe(1024 ** 3);
    expect(() => parseSize("lots")).toThrow("--body-limit: not a size: lots");
  });
});

describe("trellis-graphdb bin", () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    if (dir) rmSync(dir, { recursive: true, force: true });
    child = undefined;
    dir = undefined;
  });

  it("prints usage for --help", async () => {
    const out = await new Promise<string>((done) => {
      const p = spawn(process.execPath, [BIN, "--help"]);
      let text = "";
      p.stdout.on("data", (c) => (text += c));
      p.on("close", () => done(text));
    });
    expect(out).toContain("Usage: trellis-graphdb");
    expect(out).toContain("--acl-secret-file");
  });

  it("exits with 2 on a bad flag", async () => {
    const code = await new Promise<number | null>((done) => {
      const p = spawn(process.execPath, [BIN, "--bogus"], { stdio: "ignore" });
      p.on("close", done);
    });
    expect(code).toBe(2);
  });

  it("serves with ACL, persists a generated secret and shuts down cleanly on SIGTERM", async () => {
    dir = mkdtempSync(join(tmpdir(), "trellis-cli-"));
    const proc = spawn(
      process.execPath,
      [BIN, "--data", dir, "--port", "0", "--grpc-port", "0", "--host", "127.0.0.1", "--acl"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    child = proc;
    const lines: Record<string, unknown>[] = [];
    const rl = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    const port = await new Promise<number>((done, fail) => {
      rl.on("line", (line) => {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        if (entry.msg === "trellis-graphdb listening") done(entry.port as number);
      });
      proc.on("exit", (code) => fail(new Error(`exited early with ${code}: ${JSON.stringify(lines)}`)));
    });
    const listening = lines.find((l) => l.msg === "trellis-graphdb listening");
    expect(listening).toMatchObject({ level: 30, host: "127.0.0.1", data: dir, acl: true });
    expect(listening?.grpcPort).toBeGreaterThan(0);

    const secretFile = join(dir, "acl-secret");
    expect(existsSync(secretFile)).toBe(true);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretFile, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);

    const base = `http://127.0.0.1:${port}`;
    const health = await request(base, "/health", { method: "GET" });
    expect((health.json() as { status: string }[])[0].status).toBe("healthy");
    const login = await request(base, "/login", { body: '{"userid":"groot","password":"password"}' });
    expect(login.json()).toHaveProperty("data.accessJWT");

    const exitCode = await new Promise<number | null>((done) => {
      proc.on("exit", (code) => done(code));
      proc.kill("SIGTERM");
    });
    expect(exitCode).toBe(0);
    expect(lines.map((l) => l.msg)).toContain("stopped");
  });
});
