import { execFile } from "node:child_process";
import { promisify } from "node:util";

/**
 * Checks the tools a Go build needs before anything runs, so the author gets one message naming every
 * missing or wrong tool instead of the first failure deep inside TinyGo: Go ≥ 1.23 (wit-bindgen-go
 * v0.7.0 needs it) and ≤ 1.24 (TinyGo 0.38 accepts Go 1.19–1.24), TinyGo 0.38.x (the version CI pins),
 * and wasm-tools (TinyGo shells out to `wasm-tools component embed/new` for wasip2).
 */

const execFileAsync = promisify(execFile);

export interface GoToolchain {
  go?: string;
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

const GO_HINT = "install Go 1.24.x from https://go.dev/dl/ (or `actions/setup-go` with go-version 1.24.5)";
const TINYGO_HINT =
  "install TinyGo 0.38.0 from https://github.com/tinygo-org/tinygo/releases/tag/v0.38.0 (or `acifani/setup-tinygo@v2` with tinygo-version 0.38.0)";
const WASM_TOOLS_HINT =
  "install wasm-tools (https://github.com/bytecodealliance/wasm-tools/releases, or `cargo install wasm-tools`); TinyGo runs it to turn its output into a component";

export async function checkGoToolchain(options: CheckGoToolchainOptions = {}): Promise<GoToolchain> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(options.path !== undefined ? { PATH: options.path } : {}),
  };
  const result: GoToolchain = { problems: [] };
  const [goOut, tinygoOut, wasmToolsOut] = await Promise.all([
    run("go", ["version"], env),
    run("tinygo", ["version"], env),
    run(env.WASMTOOLS || "wasm-tools", ["--version"], env),
  ]);

  const go = goOut ? parseGoVersion(goOut) : undefined;
  if (!goOut) result.problems.push(`Go is not on PATH: ${GO_HINT}`);
  else if (!go)
    result.problems.push(`cannot read the Go version from \`go version\` ("${goOut}"): ${GO_HINT}`);
  else {
    result.go = go.join(".");
    const [major, minor] = go;
    if (major !== 1 || minor < 23) {
      result.problems.push(`Go ${result.go} is too old: the build needs Go 1.23 or newer; ${GO_HINT}`);
    } else if (minor > 24) {
      result.problems.push(
        `Go ${result.go} is too new for TinyGo 0.38: TinyGo 0.38 accepts Go 1.19–1.24; ${GO_HINT}`,
      );
    }
  }

  const tinygo = tinygoOut ? parseTinyGoVersion(tinygoOut) : undefined;
  if (!tinygoOut) result.problems.push(`TinyGo is not on PATH: ${TINYGO_HINT}`);
  else if (!tinygo) {
    result.problems.push(
      `cannot read the TinyGo version from \`tinygo version\` ("${tinygoOut}"): ${TINYGO_HINT}`,
    );
  } else {
    result.tinygo = tinygo.join(".");
    if (tinygo[0] !== 0 || tinygo[1] !== 38) {
      result.problems.push(
        `TinyGo ${result.tinygo} found, but the build needs TinyGo 0.38.x; ${TINYGO_HINT}`,
      );
    }
  }

  if (!wasmToolsOut) result.problems.push(`wasm-tools is not on PATH: ${WASM_TOOLS_HINT}`);
  else result.wasmTools = /(\d+\.\d+\.\d+)/.exec(wasmToolsOut)?.[1] ?? wasmToolsOut;

  if (tinygoOut && tinygo) {
    const root = await run("tinygo", ["env", "TINYGOROOT"], env);
    if (root) result.tinygoRoot = root.split("\n")[0]!.trim();
  }
  return result;
}
