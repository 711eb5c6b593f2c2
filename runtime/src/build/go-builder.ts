import { execFile } from "node:child_process";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { AppWorld } from "../wit/wit-types.ts";
import { findWorldPackageDir, readGoBindingNames } from "./go-bindings-names.ts";
import { GO_GLUE_FILE, renderGoGlue } from "./go-glue.ts";
import { extractGoSignatures, goSignaturesToModel } from "./go-signatures.ts";
import { checkGoToolchain, GoToolchainError } from "./go-toolchain.ts";
import { GO_WORLD_NAME, writeGoWitDir } from "./go-wit.ts";

/**
 * `trellis build` for a Go app (an app dir with go.mod): exported functions of package main → WIT world →
 * wit-bindgen-go bindings + generated glue → `tinygo build -target=wasip2` → a component in `outDir`.
 */

const execFileAsync = promisify(execFile);

/** Pinned like the CI workflow pins Go and TinyGo: the bindings generator that matches `cm` v0.3.0. */
export const WIT_BINDGEN_GO = "go.bytecodealliance.org/cmd/wit-bindgen-go@v0.7.0";
/** Generated bindings, relative to the app dir (gitignored by the template). */
export const GO_BINDINGS_DIR = path.join("internal", "gen");

const RUNTIME_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export class GoSignatureError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`the app's exported Go functions cannot be built:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "GoSignatureError";
    this.problems = problems;
  }
}

export interface GoBuildOptions {
  outDir: string;
  onProgress?: (step: string) => void;
  /** PATH for every tool (defaults to the process's). */
  path?: string;
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
}

async function step(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await execFileAsync(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    const detail = (e.stderr || e.stdout || e.message).trim();
    throw new Error(`\`${[cmd, ...args].join(" ")}\` failed in ${cwd}:\n${detail}`);
  }
}

/** The `module` line of go.mod. */
export function goModulePath(goMod: string): string | undefined {
  return /^module\s+("?)([^\s"]+)\1\s*$/m.exec(goMod)?.[2];
}

export async function buildGoApp(appDir: string, options: GoBuildOptions): Promise<GoBuildResult> {
  const progress = options.onProgress ?? (() => {});
  const env = { ...process.env, ...(options.path !== undefined ? { PATH: options.path } : {}) };
  const sdkDir = options.sdkDir ?? path.join(RUNTIME_DIR, "sdk", "go");
  const hostWitPath = options.hostWitPath ?? path.join(RUNTIME_DIR, "wit", "host.wit");
  const outDir = path.resolve(options.outDir);

  progress("checking Go, TinyGo and wasm-tools");
  const toolchain = await checkGoToolchain({ path: env.PATH });
  const wasiWitDir = toolchain.tinygoRoot && path.join(toolchain.tinygoRoot, "lib", "wasi-cli", "wit");
  if (toolchain.problems.length === 0 && wasiWitDir) {
    await access(wasiWitDir).catch(() => {
      toolchain.problems.push(
        `TinyGo's WASI WIT is missing at ${wasiWitDir}; reinstall TinyGo 0.38 from its release`,
      );
    });
  }
  if (toolchain.problems.length > 0 || !wasiWitDir) throw new GoToolchainError(toolchain.problems);

  progress("reading exported functions");
  const goMod = await readFile(path.join(appDir, "go.mod"), "utf8");
  const modulePath = goModulePath(goMod);
  if (!modulePath) throw new Error(`${path.join(appDir, "go.mod")} has no module line`);
  const sigs = await extractGoSignatures(appDir, sdkDir, env);
  const { model, problems, warnings } = goSignaturesToModel(sigs);
  if (problems.length > 0) throw new GoSignatureError(problems);

  progress("writing the WIT world");
  const witDir = path.join(outDir, "wit");
  await rm(witDir, { recursive: true, force: true });
  await writeGoWitDir(witDir, model.world, { hostWitPath, wasiWitDir });

  progress("generating Go bindings");
  const bindingsDir = path.join(appDir, GO_BINDINGS_DIR);
  await rm(bindingsDir, { recursive: true, force: true });
  await step(
    "go",
    ["run", WIT_BINDGEN_GO, "generate", "--world", GO_WORLD_NAME, "--out", GO_BINDINGS_DIR, witDir],
    appDir,
    env,
  );
  const worldDir = await findWorldPackageDir(bindingsDir, GO_WORLD_NAME);
  if (!worldDir) throw new Error(`wit-bindgen-go wrote no ${GO_WORLD_NAME}.exports.go under ${bindingsDir}`);
  const names = await readGoBindingNames(worldDir, GO_WORLD_NAME);
  const worldImport = `${modulePath}/${path.relative(appDir, worldDir).split(path.sep).join("/")}`;
  await writeFile(path.join(appDir, GO_GLUE_FILE), renderGoGlue(model, { worldImport, names }));

  const hasGoSum = await access(path.join(appDir, "go.sum")).then(
    () => true,
    () => false,
  );
  if (!hasGoSum) {
    progress("resolving Go modules (go mod tidy)");
    await step("go", ["mod", "tidy"], appDir, env);
    warnings.push("go.sum was missing; `go mod tidy` wrote it (commit it)");
  }

  progress("compiling with TinyGo (wasip2)");
  await mkdir(outDir, { recursive: true });
  const wasmPath = path.join(outDir, "app.wasm");
  await step(
    "tinygo",
    ["build", "-target=wasip2", "--wit-package", witDir, "--wit-world", GO_WORLD_NAME, "-o", wasmPath, "."],
    appDir,
    env,
  );
  const component = new Uint8Array(await readFile(wasmPath));
  return { component, world: model.world, witDir, warnings };
}
