/**
 * SIGKILL of the `trellis-platform` launcher: the server it started under Node's permission model notices
 * (its IPC channel to the launcher closes), shuts down and frees its ports, instead of living on as an
 * orphan holding them and the store.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/loopback-apis.ts";

const BIN = join(import.meta.dirname, "../../platform/bin/trellis-platform.mjs");

/** Whether `port` on 127.0.0.1 can be bound (nobody holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("trellis-platform when its launcher is killed", () => {
  let tmp = "";
  let launcher: ChildProcess | undefined;
  let server = 0;

  afterAll(async () => {
    if (launcher?.exitCode === null) launcher.kill("SIGKILL");
    if (server && alive(server)) process.kill(server, "SIGKILL");
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("stops the server child and frees its ports within seconds", async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-orphan-"));
    const ports = { http: await freePort(), graphdb: await freePort(), grpc: await freePort() };
    let output = "";
    launcher = spawn(
      process.execPath,
      [
        BIN,
        ...["--port", String(ports.http), "--host", "127.0.0.1", "--data", join(tmp, "data"), "--no-demo"],
        ...["--graphdb-port", String(ports.graphdb), "--graphdb-grpc-port", String(ports.grpc)],
      ],
      {
        env: { ...process.env, TRELLIS_ADMIN_TOKEN: `admin-${randomBytes(24).toString("hex")}` },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    launcher.stdout?.on("data", (d) => (output += d));
    launcher.stderr?.on("data", (d) => (output += d));
    const deadline = Date.now() + 60_000;
    while (!output.includes("trellis platform listening")) {
      if (Date.now() > deadline || launcher.exitCode !== null)
        throw new Error(`the platform did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain('"enabled":true'); // the server runs as a child under the permission model
    server = Number(execFileSync("pgrep", ["-P", String(launcher.pid)], { encoding: "utf8" }).trim());
    expect(server).toBeGreaterThan(0);
    expect(await portFree(ports.http)).toBe(false);

    launcher.kill("SIGKILL");
    const until = Date.now() + 15_000;
    while ((alive(server) || !(await portFree(ports.http))) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    expect(alive(server)).toBe(false);
    for (const port of Object.values(ports)) expect(await portFree(port)).toBe(true);
  }, 120_000);
});
