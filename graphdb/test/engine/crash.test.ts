import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { createGraphDB } from "../../src/index.ts";

const dir = mkdtempSync(join(tmpdir(), "trellis-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the worker, lets it commit for `ms` after it is ready, SIGKILLs it; returns acknowledged markers. */
async function runAndKill(ms: number): Promise<string[]> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "crash-worker.ts"), dir],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const acks: string[] = [];
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line === "READY") setTimeout(() => child.kill("SIGKILL"), ms);
      else if (line.startsWith("ACK ")) acks.push(line.slice(4));
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`worker exited with ${code}: ${stderr}`));
    });
  });
  await exited;
  return acks;
}

describe("crash safety", () => {
  it("after repeated SIGKILLs every acknowledged commit is present and no partial transfer is visible", async () => {
    const acknowledged: string[] = [];
    for (const ms of [150, 400, 60, 700, 250]) {
      acknowledged.push(...(await runAndKill(ms)));
      const db = createGraphDB({ dir });
      try {
        const markers = JSON.parse(
          (await db.engine.query({ query: "{ q(func: has(marker)) { marker } }" })).json,
        ).q as { marker: string }[];
        const present = new Set(markers.map((m) => m.marker));
        const missing = acknowledged.filter((m) => !present.has(m));
        expect(missing).toEqual([]);
        const total = JSON.parse(
          (await db.engine.query({ query: "{ var(func: has(acct)) { b as bal } t() { s: sum(val(b)) } }" }))
            .json,
        );
        expect(total).toEqual({ t: [{ s: 1000 }] });
      } finally {
        await db.close();
      }
    }
    expect(acknowledged.length).toBeGreaterThan(20);
  }, 120_000);
});
