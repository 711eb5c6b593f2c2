/**
 * `trellis --help` and `trellis --version` answer without loading any command (the runtime, its compilers
 * and the graph database take over a second to load): checked by running the bin with a module hook that
 * refuses those modules.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/trellis.mjs", import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Registers a resolve hook that throws on the runtime package and on every command module. */
const REFUSE_COMMANDS = `
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(`
export async function resolve(specifier, context, next) {
  if (specifier === "@trellis/runtime" || /-command\\.(ts|js)$/.test(specifier)) {
    throw new Error("loaded " + specifier);
  }
  return next(specifier, context);
}`)}));
`;

function trellis(...args: string[]) {
  return spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(REFUSE_COMMANDS)}`, BIN, ...args],
    { encoding: "utf8" },
  );
}

describe("trellis startup", () => {
  it("prints its version with --version and -v, loading no command", () => {
    for (const flag of ["--version", "-v"]) {
      const run = trellis(flag);
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe(VERSION);
      expect(run.status).toBe(0);
    }
  });

  it("prints its help, loading no command", () => {
    const run = trellis("--help");
    expect(run.stdout).toMatch(/Usage: trellis/);
    expect(run.stdout).toMatch(/deploy \[options\] \[path\]/);
    expect(run.status).toBe(0);
  });

  it("loads a command's modules when that command runs (the hook does see them)", () => {
    const run = trellis("build", "/nonexistent-app");
    expect(run.stderr).toMatch(/loaded (\.\/build-command\.js|@trellis\/runtime)/);
    expect(run.status).toBe(1);
  });
});
