import { execFile } from "node:child_process";
import { promisify } from "node:util";

/**
 * Picks the compiler for a Go app and checks its tools before anything runs, so the author gets one
 * message naming every missing or wrong tool instead of the first failure deep inside a build:
 * - TinyGo 0.38 (`tinygo build -target=wasip2`) when `tinygo` is on PATH, as the template's CI uses it.
 *   TinyGo 0.38 needs a Go 1.19–1.24 installation for the standard library and shells out to wasm-tools.
 * - Otherwise Go ≥ 1.24 (`GOOS=wasip1 GOARCH=wasm -buildmode=c-shared`, `//go:wasmexport`), made into a
 *   component by the runtime itself (go-component.ts): nothing else to install.
 * `TRELLIS_GO_COMPILER=go|tinygo` (or the build option) forces one.
 */

const execFileAsync = promisify(execFile);

export type GoCompiler = "tinygo" | "go";

export interface GoToolchain {
  /** The compiler that will build, when the checks passed. */
  compiler?: GoCompiler;
  /** `1.26.8` */
  go?: string;
  /** `0.38.0` */
  tinygo?: string;
  wasmTools?: string;
  /** `tinygo env TINYGOROOT`, where TinyGo's WASI 0.2.0 WIT lives (`lib/wasi-cli/wit`). */
  tinygoRoot?: string;
  problems: string[];
}

export class GoToolchainError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`the Go build cannot run:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "GoToolchainError";
    this.problems = problems;
  }
}

export interface CheckGoToolchainOptions {
  /** PATH to search (defaults to the process's). */
  path?: string;
  /** Force a compiler; default: TRELLIS_GO_COMPILER, else TinyGo when on PATH, else Go. */
  compiler?: GoCompiler;
}

/** `go version go1.24.5 linux/amd64` → [1, 24, 5]; two-part versions (`go1.24`) get patch 0. */
export function parseGoVersion(text: string): [number, number, number] | undefined {
  const m = /go(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** `tinygo version 0.38.0 linux/amd64 (using go version go1.24.5 and LLVM version 19.1.2)` → [0, 38, 0]. */
export function parseTinyGoVersion(text: string): [number, number, number] | undefined {
  const m = /tinygo version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

async function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await execFileAsync(cmd, args, { env, timeout: 30_000 });
    return `${stdout}${stderr}`.trim();
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string };
    if (e.code === "ENOENT") return undefined;
    return e.stdout?.trim() || undefined;
  }
}

const GO_HINT = "install Go 1.24 or newer from https://go.dev/dl/ and put its bin directory on PATH";
const TINYGO_GO_HINT =
  "TinyGo 0.38 needs Go 1.19–1.24 on PATH (https://go.dev/dl/, or `actions/setup-go` with go-version 1.24.5)";
const TINYGO_HINT =
  "install TinyGo 0.38.0 from https://github.com/tinygo-org/tinygo/releases/tag/v0.38.0 (or `acifani/setup-tinygo@v2` with tinygo-version 0.38.0)";
const WASM_TOOLS_HINT =
  "install wasm-tools (https://github.com/bytecodealliance/wasm-tools/releases, or `cargo install wasm-tools`); TinyGo runs it to turn its output into a component";
const USE_GO_HINT = "or build with Go instead: TRELLIS_GO_COMPILER=go";

export function parseCompiler(value: string | undefined): GoCompiler | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "go" || value === "tinygo") return value;
  throw new GoToolchainError([`unknown Go compiler "${value}" (TRELLIS_GO_COMPILER): use go or tinygo`]);
}

export async function checkGoToolchain(options: CheckGoToolchainOptions = {}): Promise<GoToolchain> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(options.path !== undefined ? { PATH: options.path } : {}),
  };
  const result: GoToolchain = { problems: [] };
  const [goOut, tinygoOut] = await Promise.all([
    run("go", ["version"], env),
    run("tinygo", ["version"], env),
  ]);
  const go = goOut ? parseGoVersion(goOut) : undefined;
  if (go) result.go = go.join(".");
  const tinygo = tinygoOut ? parseTinyGoVersion(tinygoOut) : undefined;
  if (tinygo) result.tinygo = tinygo.join(".");

  const compiler =
    options.compiler ?? parseCompiler(env.TRELLIS_GO_COMPILER) ?? (tinygoOut ? "tinygo" : "go");
  result.compiler = compiler;
  if (compiler === "go") {
    if (!goOut) result.problems.push(`Go is not on PATH: ${GO_HINT}`);
    else if (!go)
      result.problems.push(`cannot read the Go version from \`go version\` ("${goOut}"): ${GO_HINT}`);
    else if (go[0] !== 1 || go[1] < 24) {
      result.problems.push(
        `Go ${result.go} is too old: building with Go needs 1.24 or newer (//go:wasmexport); ${GO_HINT}`,
      );
    }
    if (result.problems.length > 0) delete result.compiler;
    return result;
  }

  if (!tinygoOut) result.problems.push(`TinyGo is not on PATH: ${TINYGO_HINT}; ${USE_GO_HINT}`);
  else if (!tinygo) {
    result.problems.push(
      `cannot read the TinyGo version from \`tinygo version\` ("${tinygoOut}"): ${TINYGO_HINT}`,
    );
  } else if (tinygo[0] !== 0 || tinygo[1] !== 38) {
    result.problems.push(
      `TinyGo ${result.tinygo} found, but the build needs TinyGo 0.38.x; ${TINYGO_HINT}; ${USE_GO_HINT}`,
    );
  }
  if (!goOut) result.problems.push(`Go is not on PATH: ${TINYGO_GO_HINT}`);
  else if (!go)
    result.problems.push(`cannot read the Go version from \`go version\` ("${goOut}"): ${TINYGO_GO_HINT}`);
  else if (go[0] !== 1 || go[1] < 19 || go[1] > 24) {
    result.problems.push(`Go ${result.go} does not work with TinyGo 0.38: ${TINYGO_GO_HINT}; ${USE_GO_HINT}`);
  }
  const wasmToolsOut = await run(env.WASMTOOLS || "wasm-tools", ["--version"], env);
  if (!wasmToolsOut) result.problems.push(`wasm-tools is not on PATH: ${WASM_TOOLS_HINT}; ${USE_GO_HINT}`);
  else result.wasmTools = /(\d+\.\d+\.\d+)/.exec(wasmToolsOut)?.[1] ?? wasmToolsOut;
  if (tinygo) {
    const root = await run("tinygo", ["env", "TINYGOROOT"], env);
    if (root) result.tinygoRoot = root.split("\n")[0]!.trim();
  }
  if (result.problems.length > 0) delete result.compiler;
  return result;
}

/** How the build output names the compiler: `Go 1.26.8` or `TinyGo 0.38.0`. */
export function compilerLabel(toolchain: GoToolchain): string {
  return toolchain.compiler === "tinygo" ? `TinyGo ${toolchain.tinygo}` : `Go ${toolchain.go}`;
}
