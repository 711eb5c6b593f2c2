#!/usr/bin/env node
// Runs the TypeScript sources directly: tsx compiles them on import.
import { register } from "tsx/esm/api";

register();
const { runPlatformCli, createWasmAppRuntime } = await import("../src/index.ts");
await runPlatformCli(process.argv.slice(2), async () => createWasmAppRuntime());
