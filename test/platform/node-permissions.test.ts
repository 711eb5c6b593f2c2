/**
 * The real `trellis-platform` bin serves under Node's permission model: its server process (and so the
 * function workers it starts) may write only the data directory, read only the code and the data, and
 * start no process — and a deployed app still works under it, its graph connection included. With
 * `TRELLIS_NODE_PERMISSIONS=off` it serves in one unrestricted process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, deployBuild } from "../../runtime/src/index.ts";
import { freePort } from "../support/loopback-apis.ts";

const BIN = join(import.meta.dirname, "../../platform/bin/trellis-platform.mjs");

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** The `node permission model` log line's fields. */
  permissions: Record<string, boolean>;
  /** Pid of the process that logged it (the server). */
  serverPid: number;
  stop(): Promise<number | null>;
}

async function startBin(
  dataDir: string,
  adminToken: string,
  env: Record<string, string> = {},
): Promise<Started> {
  const port = await freePort();
  let output = "";
  const child = spawn(
    process.execPath,
    [
      BIN,
      ...["--port", String(port), "--host", "127.0.0.1", "--data", dataDir, "--no-demo"],
      ...["--graphdb-port", String(await freePort()), "--graphdb-grpc-port", String(await freePort())],
    ],
    {
      env: { ...process.env, TRELLIS_ADMIN_TOKEN: adminToken, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const deadline = Date.now() + 90_000;
  let line: { pid: number; permissions: Record<string, boolean> } | undefined;
  while (!line) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the platform did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
    const found = output.split("\n").find((l) => l.includes('"msg":"node permission model"'));
    if (found) line = JSON.parse(found);
  }
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    permissions: line.permissions,
    serverPid: line.pid,
    async stop() {
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      child.kill("SIGTERM");
      return exited;
    },
  };
}

describe("trellis-platform under Node's permission model", () => {
  let tmp: string;
  let buildDir: string;
  const adminToken = `admin-${randomBytes(24).toString("hex")}`;
  const running: Started[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-permissions-"));
    const appDir = join(tmp, "app");
    await mkdir(join(appDir, "src"), { recursive: true });
    await writeFile(
      join(appDir, "trellis.json"),
      JSON.stringify({ connections: { graph: { type: "graphdb", grpcTarget: "localhost:9080" } } }),
    );
    await writeFile(join(appDir, "package.json"), '{ "name": "perm", "private": true }');
    await writeFile(
      join(appDir, "src/index.ts"),
      `import { graph, type i32 } from "@trellis/sdk";
export function sayHello(name: string): string { return "Hello, " + name + "!"; }
export function addName(name: string): i32 {
  graph.alter("graph", "name: string @index(exact) .");
  graph.mutate("graph", { setJson: { name } });
  return graph.query<{ q: unknown[] }>("graph", "{ q(func: has(name)) { name } }").q.length;
}
`,
    );
    buildDir = (await buildApp(appDir)).outDir;
  }, 120_000);

  afterAll(async () => {
    for (const r of running) {
      if (r.child.exitCode === null && r.child.pid) {
        try {
          process.kill(-r.child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("serves from a child that may write only its data and start no process, apps working", async () => {
    const dataDir = join(tmp, "data");
    const r = await startBin(dataDir, adminToken);
    running.push(r);
    expect(r.permissions).toEqual({
      enabled: true,
      writeData: true,
      writeElsewhere: false,
      readElsewhere: false,
      childProcess: false,
      worker: true,
    });
    // The server is a child of the launcher, started with the model's flags.
    expect(r.serverPid).not.toBe(r.child.pid);
    const cmdline = readFileSync(`/proc/${r.serverPid}/cmdline`, "utf8").split("\0");
    expect(cmdline).toContain(`--allow-fs-write=${dataDir}`);
    expect(cmdline.some((a) => a === "--permission" || a === "--experimental-permission")).toBe(true);
    expect(cmdline).not.toContain("--allow-child-process");

    const api = (method: string, path: string, body?: unknown) =>
      fetch(r.url + path, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((res) => res.json() as Promise<Record<string, never>>);
    const created = await api("POST", "/api/apps", { name: "perm" });
    await deployBuild({ url: r.url, app: "perm", token: created.deployToken, buildDir });
    const key = (await api("POST", "/api/apps/perm/keys", { name: "k" })).secret as string;
    const call = async (query: string) =>
      (await fetch(`${r.url}/apps/perm/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query }),
      }).then((res) => res.json())) as { data?: unknown; errors?: unknown };
    expect((await call('{ sayHello(name: "sandbox") }')).data).toEqual({ sayHello: "Hello, sandbox!" });
    expect((await call('mutation { addName(name: "Ada") }')).data).toEqual({ addName: 1 });
    expect(await r.stop()).toBe(0);
    expect(r.output()).toContain("shut down");
  }, 180_000);

  it("serves in one unrestricted process with TRELLIS_NODE_PERMISSIONS=off", async () => {
    const r = await startBin(join(tmp, "data-off"), adminToken, { TRELLIS_NODE_PERMISSIONS: "off" });
    running.push(r);
    expect(r.permissions).toEqual({ enabled: false });
    expect(r.serverPid).toBe(r.child.pid);
    expect(await r.stop()).toBe(0);
  }, 120_000);
});
