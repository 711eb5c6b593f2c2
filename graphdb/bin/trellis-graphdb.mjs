#!/usr/bin/env -S node --max-semi-space-size=64
// A 64 MB young generation (V8 default: 16 MB): commits' short-lived objects die young instead of filling
// the old generation; HTTP loads take about 20% less CPU (bench/graphdb/README.md).
// Runs the TypeScript sources directly: tsx compiles them on import.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
await runCli(process.argv.slice(2));
