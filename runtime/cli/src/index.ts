/**
 * @trellis/cli — the `trellis` command (`new`, `build`, `dev`, `deploy`), and the dev session for programs
 * that embed it.
 */
export { createProgram, runCli } from "./cli.ts";
export { type DevOptions, type DevSession, startDev } from "./dev-command.ts";
export { createTerminal, type Terminal } from "./terminal.ts";
