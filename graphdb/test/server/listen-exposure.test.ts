/**
 * The standalone server keeps Dgraph's defaults (all interfaces, no ACL) but says so out loud: a warning
 * (structured, at warn level, with a sentence saying what to do) when it listens beyond loopback with
 * neither --acl nor --auth-token.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseCliArgs, startServer } from "../../src/cli.ts";
import { isLoopbackHost, warnIfExposed } from "../../src/listen-exposure.ts";

/** A pino logger whose lines are collected, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), lines };
}

describe("listening beyond loopback without access control", () => {
  it("tells loopback addresses from the others", () => {
    for (const host of [
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
      "localhost",
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "[::]",
      "10.1.2.3",
      "::ffff:10.1.2.3",
      "192.168.1.5",
      "db.example.com",
      "128.0.0.1",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it("warns, structured and in words, when neither --acl nor --auth-token protects an exposed server", () => {
    const { logger, lines } = capture();
    expect(
      warnIfExposed(logger, { host: "0.0.0.0", port: 8080, grpcPort: 9080, acl: false, authToken: false }),
    ).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      host: "0.0.0.0",
      port: 8080,
      grpcPort: 9080,
      acl: false,
      authToken: false,
      exposure: "unauthenticated",
    });
    expect(lines[0].msg).toBe(
      "trellis-graphdb listens on 0.0.0.0 (ports 8080 and 9080) without --acl or --auth-token: anyone who can " +
        "reach this machine can read, change and drop all data. Start it with --acl (logins and access " +
        "tokens), or with --host 127.0.0.1 to accept local connections only.",
    );
    for (const protectedBy of [
      { acl: true, authToken: false },
      { acl: false, authToken: true },
    ]) {
      expect(warnIfExposed(logger, { host: "0.0.0.0", port: 1, grpcPort: 2, ...protectedBy })).toBe(false);
    }
    expect(
      warnIfExposed(logger, { host: "127.0.0.1", port: 1, grpcPort: 2, acl: false, authToken: false }),
    ).toBe(false);
    expect(lines).toHaveLength(1);
  });

  it("keeps Dgraph's defaults: all interfaces, no ACL, --host to change the address", () => {
    expect(parseCliArgs([], {})).toMatchObject({ host: "0.0.0.0", acl: false });
    expect(parseCliArgs(["--host", "127.0.0.1"], {}).host).toBe("127.0.0.1");
    expect(parseCliArgs([], { TRELLIS_GRAPHDB_HOST: "::1" }).host).toBe("::1");
  });

  it("starts quietly on loopback", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-exposure-"));
    const { logger, lines } = capture();
    const config = parseCliArgs(
      ["--data", dir, "--port", "0", "--grpc-port", "0", "--host", "127.0.0.1"],
      {},
    );
    const running = await startServer(config, logger);
    try {
      expect(lines.map((l) => l.msg)).toContain("trellis-graphdb listening");
      expect(lines.filter((l) => l.level === 40)).toEqual([]);
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
