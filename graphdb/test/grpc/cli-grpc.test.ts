/** The `trellis-graphdb` bin serves gRPC next to HTTP, on one engine, and shuts both down cleanly. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import * as dgraph from "dgraph-js";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs, USAGE } from "../../src/cli.ts";
import { mutation } from "./harness.ts";

const BIN = resolve(import.meta.dirname, "../../bin/trellis-graphdb.mjs");

describe("CLI gRPC options", () => {
  it("--grpc-port, TRELLIS_GRAPHDB_GRPC_PORT, default 9080", () => {
    expect(parseCliArgs([], {}).grpcPort).toBe(9080);
    expect(parseCliArgs([], { TRELLIS_GRAPHDB_GRPC_PORT: "9181" }).grpcPort).toBe(9181);
    expect(parseCliArgs(["--grpc-port", "9182"], { TRELLIS_GRAPHDB_GRPC_PORT: "9181" }).grpcPort).toBe(9182);
    expect(() => parseCliArgs(["--grpc-port", "grpc"], {})).toThrow("--grpc-port: not a port number: grpc");
    expect(USAGE).toContain("TRELLIS_GRAPHDB_GRPC_PORT");
    // The gRPC port was once documented as reserved (not served).
    expect(USAGE).not.toMatch(/grpc[^\n]*reserved/i);
  });
});

describe("trellis-graphdb bin over gRPC", () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    if (dir) rmSync(dir, { recursive: true, force: true });
    child = undefined;
    dir = undefined;
  });

  it("logs the gRPC port, serves dgraph-js with ACL on the same engine as HTTP, stops on SIGTERM", async () => {
    dir = mkdtempSync(join(tmpdir(), "trellis-cli-grpc-"));
    const proc = spawn(
      process.execPath,
      [BIN, "--data", dir, "--port", "0", "--host", "127.0.0.1", "--acl"],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, TRELLIS_GRAPHDB_GRPC_PORT: "0" },
      },
    );
    child = proc;
    const lines: Record<string, unknown>[] = [];
    const rl = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    const listening = await new Promise<Record<string, unknown>>((done, fail) => {
      rl.on("line", (line) => {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        if (entry.msg === "trellis-graphdb listening") done(entry);
      });
      proc.on("exit", (code) => fail(new Error(`exited early with ${code}: ${JSON.stringify(lines)}`)));
    });
    const grpcPort = listening.grpcPort as number;
    expect(grpcPort).toBeGreaterThan(0);
    expect(grpcPort).not.toBe(listening.port);

    const stub = new dgraph.DgraphClientStub(`127.0.0.1:${grpcPort}`);
    try {
      await stub.login("groot", "password");
      const client = new dgraph.DgraphClient(stub);
      const op = new dgraph.Operation();
      op.setSchema("name: string .");
      await client.alter(op);
      const res = await client
        .newTxn()
        .mutate(mutation({ setJson: { uid: "_:a", name: "via gRPC" }, commitNow: true }));
      const uid = res.getUidsMap().get("a");

      // The HTTP side (same process, same engine) sees it.
      const base = `http://127.0.0.1:${listening.port}`;
      const login = await fetch(`${base}/login`, {
        method: "POST",
        body: '{"userid":"groot","password":"password"}',
      });
      const token = ((await login.json()) as { data: { accessJWT: string } }).data.accessJWT;
      const q = await fetch(`${base}/query`, {
        method: "POST",
        headers: { "content-type": "application/dql", "x-dgraph-accesstoken": token },
        body: `{ q(func: uid(${uid})) { name } }`,
      });
      expect(((await q.json()) as { data: unknown }).data).toEqual({ q: [{ name: "via gRPC" }] });
    } finally {
      stub.close();
    }

    const exitCode = await new Promise<number | null>((done) => {
      proc.on("exit", (code) => done(code));
      proc.kill("SIGTERM");
    });
    expect(exitCode).toBe(0);
    expect(lines.map((l) => l.msg)).toContain("stopped");
  });
});
