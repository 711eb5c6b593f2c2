/**
 * The `trellis-platform` bin serves under Node's permission model: the serving process (and so every
 * function worker, which inherits it) may read only the installed code and the data directory, write
 * only the data directory, start no child process and load no WASI; it may start worker threads (the
 * function workers) and load native addons (LMDB, the graph database's storage). Node applies one set of
 * permissions to a process and all its threads: a worker cannot be given less than the platform itself.
 * The WebAssembly sandbox is the tenant's boundary; this one bounds what a flaw in the host could reach.
 *
 * The bin's first process does what needs more (building the console, the first-start demo app), then
 * runs the server as a child under `--permission` (Node 20: `--experimental-permission`), forwards
 * SIGTERM/SIGINT to it and exits with its code. `TRELLIS_NODE_PERMISSIONS=off` or `--no-node-permissions`
 * keeps everything in one unrestricted process.
 */
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CHILD_STDIO, LAUNCHER_CHILD_ENV } from "./launcher-link.ts";

export interface PermissionPaths {
  /** Read only. */
  read: string[];
  /** Read and write. */
  write: string[];
}

/** Whether this process runs under the permission model. */
export function underPermissionModel(): boolean {
  return (process as { permission?: unknown }).permission !== undefined;
}

/** The Node flag that turns the model on, or undefined when this Node has none. */
function permissionFlag(): string | undefined {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has("--permission")) return "--permission";
  if (flags.has("--experimental-permission")) return "--experimental-permission";
  return undefined;
}

/**
 * Where the platform's own code and its dependencies live: the outermost `node_modules` above this
 * package when installed, else the repository checkout this package sits in.
 */
export function codeRoot(): string {
  const packageDir = realpathSync(fileURLToPath(new URL("../", import.meta.url)));
  const marker = `${sep}node_modules${sep}`;
  const at = packageDir.indexOf(marker);
  return at >= 0 ? packageDir.slice(0, at + marker.length - 1) : dirname(packageDir);
}

/** The command line of the serving process, or undefined when this Node has no permission model. */
export function permissionArgs(paths: PermissionPaths): string[] | undefined {
  const flag = permissionFlag();
  if (flag === undefined) return undefined;
  const read = [...new Set([...paths.read, ...paths.write].map((p) => resolve(p)))];
  const write = [...new Set(paths.write.map((p) => resolve(p)))];
  return [
    flag,
    // The model's own notices (experimental, "use with caution") would greet every start.
    "--disable-warning=ExperimentalWarning",
    "--disable-warning=SecurityWarning",
    ...read.map((p) => `--allow-fs-read=${p}`),
    ...write.map((p) => `--allow-fs-write=${p}`),
    "--allow-worker",
    "--allow-addons",
  ];
}

/**
 * Runs this same bin again as a child under the permission model, with the same arguments, environment
 * and Node options; forwards SIGTERM and SIGINT; resolves with the exit code to use.
 */
export function relaunchUnderPermissions(args: string[]): Promise<number> {
  return runForwardingSignals([...args, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

/**
 * Runs `node <args>` with inherited stdio, forwarding SIGTERM and SIGINT, and linked to this process so
 * that it shuts down if this one dies without a signal to forward (launcher-link.ts); resolves with its
 * exit code.
 */
export function runForwardingSignals(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, args, {
    stdio: [...CHILD_STDIO],
    env: { ...env, [LAUNCHER_CHILD_ENV]: "1" },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGTERM", forward);
  process.on("SIGINT", forward);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      process.off("SIGTERM", forward);
      process.off("SIGINT", forward);
      done(code ?? (signal === "SIGINT" ? 130 : 143));
    });
  });
}

/** What the serving process may do, for its startup log line. */
export function permissionReport(dataDir: string): Record<string, boolean> {
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } })
    .permission;
  if (!permission) return { enabled: false };
  return {
    enabled: true,
    writeData: permission.has("fs.write", resolve(dataDir)),
    writeElsewhere: permission.has("fs.write", "/"),
    readElsewhere: permission.has("fs.read", "/"),
    childProcess: permission.has("child"),
    worker: permission.has("worker"),
  };
}
