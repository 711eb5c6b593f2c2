/**
 * The `trellis-platform` bin's first process. It loads nothing of the server: it parses the command line,
 * runs the preparation (console and demo app builds) in a child without restrictions, then the server in
 * a child under Node's permission model (node-permissions.ts), and exits with the server's code. When the
 * model is off (`--no-node-permissions`, `TRELLIS_NODE_PERMISSIONS=off`), unsupported by this Node, or
 * already on, it serves in this process instead.
 */
import { resolve } from "node:path";
import { parsePlatformArgs, permissionPaths } from "./cli-args.ts";
import {
  codeRoot,
  permissionArgs,
  relaunchUnderPermissions,
  runForwardingSignals,
  underPermissionModel,
} from "./node-permissions.ts";

/** Set on the preparation child: it prepares, then exits. */
const PREPARE_ROLE = "TRELLIS_PLATFORM_PREPARE";

export type LauncherRole = "serve" | "prepare";

/** What this process should do; `run` does the in-process part (loading the server only then). */
export async function launchPlatform(
  argv: string[],
  run: (role: LauncherRole) => Promise<void>,
): Promise<void> {
  if (process.env[PREPARE_ROLE] === "1") return run("prepare");
  if (underPermissionModel()) return run("serve");
  let args: string[] | undefined;
  try {
    const parsed = parsePlatformArgs(argv);
    if (!parsed.help && parsed.nodePermissions) {
      const dataDir = resolve(parsed.dataDir ?? "./data/platform");
      args = permissionArgs(permissionPaths(parsed, dataDir, codeRoot()));
    }
  } catch {
    // The server prints the usage error.
  }
  if (args === undefined) return run("serve");
  const prepared = await runForwardingSignals([...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    [PREPARE_ROLE]: "1",
  });
  if (prepared !== 0) {
    process.exitCode = prepared;
    return;
  }
  process.exitCode = await relaunchUnderPermissions(args);
}
