/**
 * The platform's deploy check (prepareUploadedBuild) on real builds: it never runs the JavaScript that
 * came with a build (it transpiles the component itself), and it rejects builds that cannot serve: a
 * corrupt core module and a component that traps while instantiating (a Go init() panic); a function that
 * runs for ever is the app's business, not a broken build. The worker pool backs off from a component that
 * fails to instantiate.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GO_SDK_DIR } from "../../../test/support/go-app.ts";
import { InvalidBuildError, loadApp } from "../../src/app/load-app.ts";
import { prepareUploadedBuild } from "../../src/app/prepare-build.ts";
import { buildApp } from "../../src/compiler/build-app.ts";
import { createWorkerPool } from "../../src/wasm/worker-pool.ts";
import { readAppWorld } from "../../src/wit/wit-parser.ts";

let root: string;

async function typeScriptApp(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "trellis.json"), '{ "limits": { "timeoutMs": 2000, "memoryMb": 64 } }');
  await writeFile(join(dir, "package.json"), `{ "name": "${name}", "private": true }`);
  await writeFile(
    join(dir, "src/index.ts"),
    'export function sayHello(name: string): string { return "Hello, " + name + "!"; }\n',
  );
  return (await buildApp(dir)).outDir;
}

async function goApp(name: string, source: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "trellis.json"), '{ "limits": { "timeoutMs": 2000, "memoryMb": 64 } }');
  await writeFile(
    join(dir, "go.mod"),
    `module ${name}\n\ngo 1.24\n\nrequire github.com/trellis-dev/trellis/runtime/sdk/go v0.1.0\n\nreplace github.com/trellis-dev/trellis/runtime/sdk/go => ${GO_SDK_DIR}\n`,
  );
  await writeFile(join(dir, "main.go"), source);
  return (await buildApp(dir, { goCompiler: "go" })).outDir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trellis-prepare-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("prepareUploadedBuild", () => {
  it("transpiles the component itself and never loads the glue that came with the build", async () => {
    const build = await typeScriptApp("hello");
    const marker = join(root, "pwned");
    const planted = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, String(process.env.TRELLIS_MASTER_KEY));\nexport async function instantiate() { return {}; }\n`;
    await writeFile(join(build, "transpiled", "component.js"), planted);
    await writeFile(join(build, "transpiled", "extra.js"), planted);
    const prepared = await prepareUploadedBuild(build);
    expect(prepared).toMatchObject({
      functions: ["sayHello"],
      smoke: { function: "say-hello", outcome: "ok" },
    });
    expect(await readFile(join(build, "transpiled", "component.js"), "utf8")).not.toContain("writeFileSync");
    expect(existsSync(join(build, "transpiled", "extra.js"))).toBe(false);
    const app = await loadApp(build, { env: {} });
    try {
      const res = await app.fetch(
        new Request("http://app/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: '{ sayHello(name: "x") }' }),
        }),
      );
      expect(await res.json()).toMatchObject({ data: { sayHello: "Hello, x!" } });
    } finally {
      await app.close();
    }
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("refuses a build whose endpoint lists a function the app does not export, and loads one that lists its own", async () => {
    const build = await typeScriptApp("scoped");
    const manifestFile = join(build, "trellis.json");
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    manifest.endpoints ??= {};
    manifest.endpoints.public = {
      type: "graphql",
      path: "/public/graphql",
      auth: "none",
      functions: ["sayHi"],
    };
    await writeFile(manifestFile, JSON.stringify(manifest));
    await expect(prepareUploadedBuild(build)).rejects.toThrow(
      'trellis.json endpoint "public" lists functions the app does not export (sayHi); its functions are: sayHello',
    );
    await expect(loadApp(build, { env: {} })).rejects.toThrow(InvalidBuildError);
    manifest.endpoints.public.functions = ["sayHello"];
    await writeFile(manifestFile, JSON.stringify(manifest));
    const app = await loadApp(build, { env: {} });
    try {
      const call = (path: string) =>
        app.fetch(
          new Request(`http://app${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: '{ sayHello(name: "x") }' }),
          }),
          {},
          path,
        );
      expect(await (await call("/public/graphql")).json()).toMatchObject({ data: { sayHello: "Hello, x!" } });
      expect(app.endpoints.find((e) => e.name === "public")?.functions).toEqual(["sayHello"]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it("rejects a component whose core module is corrupt", async () => {
    const build = await typeScriptApp("corrupt");
    const wasm = new Uint8Array(await readFile(join(build, "app.wasm")));
    // Garble a stretch in the middle of the QuickJS core module's code.
    const at = Math.floor(wasm.length / 2);
    wasm.fill(0xff, at, at + 256);
    await writeFile(join(build, "app.wasm"), wasm);
    await expect(prepareUploadedBuild(build)).rejects.toThrow(InvalidBuildError);
  }, 60_000);

  it("rejects a component that traps while instantiating, with what it printed", async () => {
    const build = await goApp(
      "init-panic",
      'package main\n\nfunc init() { panic("no config") }\n\n// Ping answers.\nfunc Ping() string { return "pong" }\n\nfunc main() {}\n',
    );
    await expect(prepareUploadedBuild(build)).rejects.toThrow(
      /did not answer a smoke call of ping .*cannot instantiate the component: .*panic: no config/,
    );
  }, 120_000);

  it("passes a component whose smoke call runs for ever, without waiting for its timeout", async () => {
    const build = await goApp(
      "spins",
      "package main\n\n// Wait never returns.\nfunc Wait() int32 {\n\tn := int32(0)\n\tfor {\n\t\tn++\n\t}\n}\n\nfunc main() {}\n",
    );
    const started = Date.now();
    const prepared = await prepareUploadedBuild(build);
    expect(prepared.smoke).toEqual({ function: "wait", outcome: "timeout" });
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 120_000);

  it("lets the worker pool back off from a component that fails to instantiate", async () => {
    const build = join(root, "init-panic", "build");
    const world = await readAppWorld(new Uint8Array(await readFile(join(build, "app.wasm"))));
    const pool = await createWorkerPool({
      transpiledDir: join(build, "transpiled"),
      host: {} as never,
      world,
      workers: 2,
    });
    try {
      const first = await pool.invoke("ping", [], { executionId: "a" });
      expect(first.error?.message).toMatch(
        /^cannot instantiate the component: .*panic: no config.*\(next attempt in 1 s\)$/,
      );
      const again = await Promise.all(
        Array.from({ length: 50 }, () => pool.invoke("ping", [], { executionId: "b" })),
      );
      expect(again.every((o) => /next attempt in [01] s/.test(o.error?.message ?? ""))).toBe(true);
      expect(pool.stats().workers).toBe(0);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
