/**
 * SIGTERM on the real `trellis-platform` bin: with an app loaded that holds MariaDB connections (reloaded a
 * few times: each reload retires an instance), the process drains and exits with 0, well within its
 * documented grace period.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHUTDOWN_GRACE_MS } from "../../platform/src/cli.ts";
import { buildApp, deployBuild } from "../../runtime/src/index.ts";
import { freePort } from "../support/loopback-apis.ts";

const BIN = join(import.meta.dirname, "../../platform/bin/trellis-platform.mjs");
const NOTES = `trellis_shutdown_notes_${process.pid}`;

describe("trellis-platform on SIGTERM", () => {
  let tmp: string;
  let child: ChildProcess;
  let output = "";
  let url = "";
  const adminToken = `admin-${randomBytes(24).toString("hex")}`;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), "trellis-shutdown-"));
    const appDir = join(tmp, "notes");
    await mkdir(join(appDir, "src"), { recursive: true });
    await writeFile(
      join(appDir, "trellis.json"),
      JSON.stringify({
        connections: { maria: { type: "relationaldb", connStr: "mysql://root@127.0.0.1:3306/test" } },
      }),
    );
    await writeFile(join(appDir, "package.json"), '{ "name": "notes", "private": true }');
    await writeFile(
      join(appDir, "src/index.ts"),
      `import { sql, type i32 } from "@trellis/sdk";
export function addNote(text: string): i32 {
  sql.execute("maria", "create table if not exists ${NOTES} (id int auto_increment primary key, text varchar(200))");
  sql.execute("maria", "insert into ${NOTES} (text) values (?)", [text]);
  return sql.query<{ n: number }>("maria", "select count(*) as n from ${NOTES}")[0]?.n ?? 0;
}
`,
    );
    await buildApp(appDir);
    const port = await freePort();
    child = spawn(
      process.execPath,
      [
        BIN,
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--data",
        join(tmp, "data"),
        "--no-demo",
        // The app's MariaDB is this machine's: opened explicitly.
        "--egress-allow",
        "127.0.0.1:3306",
        "--graphdb-port",
        String(await freePort()),
        "--graphdb-grpc-port",
        String(await freePort()),
      ],
      { env: { ...process.env, TRELLIS_ADMIN_TOKEN: adminToken }, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (!output.includes("trellis platform listening")) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`the platform did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const api = (method: string, path: string, body?: unknown) =>
      fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, never>>);
    const created = await api("POST", "/api/apps", { name: "notes" });
    await deployBuild({ url, app: "notes", token: created.deployToken, buildDir: join(appDir, "build") });
    const key = (await api("POST", "/api/apps/notes/keys", { name: "k" })).secret as string;
    for (let i = 0; i < 4; i++) {
      await api("PUT", "/api/apps/notes/env/TRELLIS_APP_ROUND", { value: String(i) });
      const res = await fetch(`${url}/apps/notes/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: `mutation { addNote(text: "n${i}") }` }),
      });
      expect((await res.json()) as object).toMatchObject({ data: { addNote: i + 1 } });
    }
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    const mysql = await import("mysql2/promise");
    const db = await mysql.createConnection({ host: "127.0.0.1", user: "root", database: "test" });
    await db.query(`DROP TABLE IF EXISTS ${NOTES}`);
    await db.end();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it("drains and exits with 0 within the grace period", async () => {
    const started = Date.now();
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    const code = await exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS / 2);
    expect(output).toContain("shut down");
  }, 30_000);
});
