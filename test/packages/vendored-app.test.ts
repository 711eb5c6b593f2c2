/**
 * An app made by this checkout's CLI works before any Trellis package is published: `trellis new` packs
 * the packages into the app (`.trellis/packages/*.tgz`, named as `file:` dependencies) and, for Go, the Go
 * SDK module (`.trellis/sdk-go`, named by a `replace` line). In a temporary directory outside the
 * repository, against a local registry that holds no @trellis package (everything else proxied):
 *   - a TypeScript app installs with no warning about install scripts, type-checks, and its own CLI
 *     (the vendored one) builds it;
 *   - a Go app's unit tests and build run with the Go module proxy off (nothing fetched).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const ROOT = join(import.meta.dirname, "../..");
const BIN = join(ROOT, "runtime/cli/bin/trellis.mjs");
const CACHE = join(ROOT, "node_modules/.cache/trellis-packages-test");
/** A cold run downloads the apps' dependency tree (~300 packages) through the registry. */
const SETUP_TIMEOUT = 6 * 60_000;

interface Run {
  code: number;
  output: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k === "INIT_CWD" || k.startsWith("VITEST")) continue;
    base[k] = v;
  }
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...base, CI: "1", ...env }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

async function must(command: string, args: string[], cwd: string, env?: Record<string, string>) {
  const result = await run(command, args, cwd, env);
  if (result.code !== 0)
    throw new Error(`\`${command} ${args.join(" ")}\` failed (${result.code}):\n${result.output}`);
  return result.output;
}

describe("an app made by this checkout's CLI, with no Trellis package on the registry", () => {
  let registry: LocalRegistry;
  let parent: string;
  let tsApp: string;
  let install: string;

  beforeAll(async () => {
    registry = await startLocalRegistry(CACHE);
    parent = await mkdtemp(join(tmpdir(), "trellis-vendored-"));
    tsApp = join(parent, "my-ts");
    await must(process.execPath, [BIN, "new", "my-ts"], parent);
    install = await must("npm", ["install", "--no-audit", "--no-fund"], tsApp, registry.npmEnv);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await registry?.close();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it("carries the packages it installs from, and installs without install-script warnings", async () => {
    expect((await readdir(join(tsApp, ".trellis/packages"))).sort()).toEqual([
      "trellis-cli-0.1.0.tgz",
      "trellis-graphdb-0.1.0.tgz",
      "trellis-runtime-0.1.0.tgz",
      "trellis-sdk-0.1.0.tgz",
    ]);
    const pkg = JSON.parse(await readFile(join(tsApp, "package.json"), "utf8"));
    expect(pkg.devDependencies["@trellis/cli"]).toBe("file:.trellis/packages/trellis-cli-0.1.0.tgz");
    expect(pkg.overrides["@trellis/runtime"]).toBe("file:.trellis/packages/trellis-runtime-0.1.0.tgz");
    expect(install).not.toMatch(/install-scripts/);
    // The registry holds no Trellis package: every one installed came from the app's own tarballs.
    for (const name of ["@trellis/cli", "@trellis/runtime", "@trellis/graphdb", "@trellis/sdk"]) {
      expect((await fetch(`${registry.url}${name.replace("/", "%2f")}`)).status).toBe(404);
    }
    const installed = JSON.parse(
      await readFile(join(tsApp, "node_modules/@trellis/runtime/package.json"), "utf8"),
    );
    expect(installed.version).toBe("0.1.0");
    // Committed with the app, so its CI installs the same way.
    const ignored = await run(
      "git",
      ["check-ignore", "-q", ".trellis/packages/trellis-cli-0.1.0.tgz"],
      tsApp,
    );
    expect(ignored.code).not.toBe(0);
  });

  it("type-checks", async () => {
    await must("npx", ["tsc", "--noEmit"], tsApp, registry.npmEnv);
  });

  it("builds with the CLI it carries", async () => {
    const out = await must("npx", ["trellis", "build"], tsApp, registry.npmEnv);
    expect(out).toMatch(/sayHello/);
    expect(existsSync(join(tsApp, "build/app.wasm"))).toBe(true);
    expect(await must("npx", ["trellis", "--version"], tsApp, registry.npmEnv)).toMatch(/^0\.1\.0/);
  });

  it("fails the build on a TypeScript error, naming it", async () => {
    const source = join(tsApp, "src/index.ts");
    await writeFile(
      source,
      `${await readFile(source, "utf8")}\nexport function broken(): number {\n  return "no";\n}\n`,
    );
    const failed = await run("npx", ["trellis", "build"], tsApp, registry.npmEnv);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/1 TypeScript error/);
    expect(failed.output).toMatch(/src\/index\.ts:\d+:\d+: TS2322/);
  });

  it("makes a Go app whose tests and build need no module download", async () => {
    const goApp = join(parent, "my-go");
    await must(process.execPath, [BIN, "new", "my-go", "--lang", "go"], parent);
    const mod = await readFile(join(goApp, "go.mod"), "utf8");
    expect(mod).toMatch(
      /^replace github\.com\/trellis-dev\/trellis\/runtime\/sdk\/go => \.\/\.trellis\/sdk-go$/m,
    );
    expect(existsSync(join(goApp, ".trellis/sdk-go/go.mod"))).toBe(true);
    const offline = { GOPROXY: "off", GOFLAGS: "-mod=mod", TRELLIS_GO_COMPILER: "go" };
    expect(await must("go", ["test", "./..."], goApp, offline)).toMatch(/^ok\s/m);
    const built = await must(process.execPath, [BIN, "build"], goApp, offline);
    expect(built).toMatch(/compiled with Go/);
    expect(existsSync(join(goApp, "build/app.wasm"))).toBe(true);
  });
});
