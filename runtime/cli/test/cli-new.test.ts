/**
 * `trellis new` puts the app where the user asks: a name makes ./<name>, a path makes that folder (named
 * after its last part); through the repository's `npm run trellis -- new …`, relative to where the user
 * typed it (npm's INIT_CWD), not the repository. The printed `cd` works from there.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/trellis.mjs", import.meta.url));

describe("trellis new", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "trellis-new-"));
    await mkdir(join(root, "here"));
    await mkdir(join(root, "elsewhere"));
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  const trellis = (cwd: string, env: Record<string, string>, ...args: string[]) => {
    // Not inheriting an outer npm script's INIT_CWD (npm test's): only what each case sets.
    const { INIT_CWD: _i, npm_lifecycle_event: _e, ...base } = process.env;
    return spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env }, encoding: "utf8" });
  };
  const nameIn = async (dir: string) =>
    (JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name: string }).name;

  it("makes ./<name> from a name", async () => {
    const run = trellis(join(root, "here"), {}, "new", "by-name");
    expect(run.status).toBe(0);
    expect(await nameIn(join(root, "here", "by-name"))).toBe("by-name");
    expect(run.stdout).toMatch(/cd by-name\n/);
    // It carries its CLI (.trellis/packages): installed, the app runs its own.
    expect(run.stdout).toMatch(/\n {2}npm install\n {2}npx trellis dev /);
  });

  it("without vendoring, from this checkout, says to run this checkout's bin", async () => {
    const run = trellis(join(root, "here"), {}, "new", "unvendored", "--no-vendor");
    expect(run.status).toBe(0);
    expect(existsSync(join(root, "here", "unvendored", ".trellis"))).toBe(false);
    // From this checkout: its own bin, by a path that works from the app's folder.
    const bin = /node (\S+) dev/.exec(run.stdout)?.[1];
    expect(bin).toMatch(/runtime\/cli\/bin\/trellis\.mjs$/);
    expect(existsSync(join(root, "here", "unvendored", bin!))).toBe(true);
  });

  it("makes the folder a path names, the app named after its last part", async () => {
    const run = trellis(join(root, "here"), {}, "new", "../elsewhere/by-path", "--no-vendor");
    expect(run.status).toBe(0);
    expect(await nameIn(join(root, "elsewhere", "by-path"))).toBe("by-path");
    expect(run.stdout).toMatch(/cd \.\.\/elsewhere\/by-path\n/);
  });

  it("through `npm run trellis`, resolves paths from where the user typed the command", async () => {
    // npm runs the script from the repository's root (cwd), with INIT_CWD where the user was.
    const run = trellis(
      root,
      { npm_lifecycle_event: "trellis", INIT_CWD: join(root, "elsewhere") },
      "new",
      "typed",
      "--no-vendor",
    );
    expect(run.status).toBe(0);
    expect(existsSync(join(root, "elsewhere", "typed", "trellis.json"))).toBe(true);
    expect(existsSync(join(root, "typed"))).toBe(false);
  });

  it("refuses a path whose last part is no app name", () => {
    const run = trellis(join(root, "here"), {}, "new", "../elsewhere/Not_A_Name");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/invalid app name "Not_A_Name"/);
  });
});
