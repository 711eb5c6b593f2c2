import { execFile } from "node:child_process";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { AppWorld } from "../../wit/wit-types.ts";
import { componentizeGoCore } from "./go-component.ts";
import { GO_GLUE_FILE, renderGoExports } from "./go-export-glue.ts";
import { extractGoSignatures, goSignaturesToModel } from "./go-signatures.ts";
import { checkGoToolchain, compilerLabel, type GoCompiler, GoToolchainError } from "./go-toolchain.ts";
import { GO_WORLD_NAME, goWitSource, renderGoWorld, writeGoWitDir } from "./go-wit.ts";

/**
 * `trellis build` for a Go app (an app dir with go.mod): the exported functions of package main (read by
 * trellis-sigs) → the app's WIT world → the generated canonical-ABI glue (trellis_exports_gen.go) →
 * a component, compiled by
 * - TinyGo: `tinygo build -target=wasip2 --wit-package <wit> --wit-world app` (TinyGo makes the component);
 * - Go ≥ 1.24: `GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared`, then go-component.ts.
 * Module dependencies (the SDK included) resolve through the Go module proxy as for any Go program.
 */

const execFileAsync = promisify(execFile);

const RUNTIME_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export class GoSignatureError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`the app's exported Go functions cannot be built:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "GoSignatureError";
    this.problems = problems;
  }
}

export class GoCompileError extends Error {
  override name = "GoCompileError";
}

export interface GoBuildOptions {
  outDir: string;
  onProgress?: (step: string) => void;
  /** PATH for every tool (defaults to the process's). */
  path?: string;
  /** Extra environment for the Go tools (GOPROXY, GOFLAGS, GOMODCACHE…). */
  env?: NodeJS.ProcessEnv;
  /** Force a compiler (default: TinyGo when on PATH, else Go; TRELLIS_GO_COMPILER). */
  compiler?: GoCompiler;
  /** runtime/sdk/go (holds cmd/trellis-sigs). */
  sdkDir?: string;
  /** runtime/wit/host.wit. */
  hostWitPath?: string;
}

export interface GoBuildResult {
  component: Uint8Array;
  world: AppWorld;
  witDir: string;
  warnings: string[];
  /** Which compiler built it: `Go 1.26.8`, `TinyGo 0.38.0`. */
  compiler: string;
}

async function step(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await execFileAsync(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    const detail = (e.stderr || e.stdout || e.message).trim();
    throw new GoCompileError(`\`${[cmd, ...args].join(" ")}\` failed in ${cwd}:\n${detail}`);
  }
}

export async function buildGoApp(appDir: string, options: GoBuildOptions): Promise<GoBuildResult> {
  const progress = options.onProgress ?? (() => {});
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    ...(options.path !== undefined ? { PATH: options.path } : {}),
  };
  const sdkDir = options.sdkDir ?? path.join(RUNTIME_DIR, "sdk", "go");
  const hostWitPath = options.hostWitPath ?? path.join(RUNTIME_DIR, "wit", "host.wit");
  const outDir = path.resolve(options.outDir);

  progress("checking the Go toolchain");
  const toolchain = await checkGoToolchain({
    path: env.PATH,
    ...(options.compiler ? { compiler: options.compiler } : {}),
  });
  const wasiWitDir = toolchain.tinygoRoot && path.join(toolchain.tinygoRoot, "lib", "wasi-cli", "wit");
  if (toolchain.compiler === "tinygo" && wasiWitDir) {
    await access(wasiWitDir).catch(() => {
      toolchain.problems.push(
        `TinyGo's WASI WIT is missing at ${wasiWitDir}; reinstall TinyGo 0.38 from its release`,
      );
    });
  }
  if (toolchain.problems.length > 0 || !toolchain.compiler) throw new GoToolchainError(toolchain.problems);
  const compiler = compilerLabel(toolchain);

  progress("reading exported functions");
  const sigs = await extractGoSignatures(appDir, sdkDir, env);
  const { model, problems, warnings } = goSignaturesToModel(sigs);
  if (problems.length > 0) throw new GoSignatureError(problems);
  await writeIfChanged(path.join(appDir, GO_GLUE_FILE), renderGoExports(model));

  const goSum = path.join(appDir, "go.sum");
  const exists = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  if (!(await exists(goSum))) {
    // A fresh app has no go.sum: resolve its modules (the SDK included) through the module proxy.
    progress("resolving Go modules (go mod tidy)");
    await step("go", ["mod", "tidy"], appDir, env);
    if (await exists(goSum)) warnings.push("go.sum was missing; `go mod tidy` wrote it (commit it)");
  }

  await mkdir(outDir, { recursive: true });
  const witDir = path.join(outDir, "wit");
  await rm(witDir, { recursive: true, force: true });
  const hostWit = await readFile(hostWitPath, "utf8");
  let component: Uint8Array;
  if (toolchain.compiler === "tinygo") {
    await writeGoWitDir(witDir, model.world, { hostWitPath, wasiWitDir: wasiWitDir! });
    progress(`compiling with ${compiler} (tinygo build -target=wasip2)`);
    const wasmPath = path.join(outDir, "app.wasm");
    await step(
      "tinygo",
      ["build", "-target=wasip2", "--wit-package", witDir, "--wit-world", GO_WORLD_NAME, "-o", wasmPath, "."],
      appDir,
      env,
    );
    component = new Uint8Array(await readFile(wasmPath));
  } else {
    await mkdir(witDir, { recursive: true });
    await writeFile(path.join(witDir, "host.wit"), hostWit);
    await writeFile(path.join(witDir, "app.wit"), renderGoWorld(model.world, { includeWasi: false }));
    progress(`compiling with ${compiler} (GOOS=wasip1 -buildmode=c-shared)`);
    const corePath = path.join(outDir, "app.core.wasm");
    await step("go", ["build", "-buildmode=c-shared", "-trimpath", "-o", corePath, "."], appDir, {
      ...env,
      GOOS: "wasip1",
      GOARCH: "wasm",
      CGO_ENABLED: "0",
    });
    progress("making the component (preview1 adapter, jco embed + new)");
    const core = new Uint8Array(await readFile(corePath));
    await rm(corePath, { force: true });
    component = await componentizeGoCore(core, goWitSource(model.world, hostWit));
  }
  return { component, world: model.world, witDir, warnings, compiler };
}

/** Leaves an up-to-date file untouched, so `trellis dev`'s watcher does not see the build's own writes. */
async function writeIfChanged(file: string, text: string): Promise<void> {
  const current = await readFile(file, "utf8").catch(() => undefined);
  if (current !== text) await writeFile(file, text);
}

/** The `module` line of go.mod. */
export function goModulePath(goMod: string): string | undefined {
  return /^module\s+("?)([^\s"]+)\1\s*$/m.exec(goMod)?.[2];
}
