#!/usr/bin/env node
// Runs the TypeScript sources directly: tsx compiles them on import.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli/cli.ts");
process.exitCode = await runCli(process.argv.slice(2));
