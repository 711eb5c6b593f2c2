/**
 * @trellis/platform — hosts deployed Trellis apps: control plane API, app gateway with API keys,
 * deployments, env vars, activity, scale-to-zero, the hosted admin endpoint, and the console.
 */
export type { AuthThrottleOptions } from "./api/auth-throttle.ts";
export type { AppRuntime, ExecutionRecord, LoadApp, LoadedApp, LogLine } from "./app-runtime.ts";
export { preparePlatform, runPlatformCli } from "./cli.ts";
export { parsePlatformArgs, USAGE } from "./cli-args.ts";
export type { PlatformOptions, RunningPlatform } from "./platform.ts";
export { startPlatform } from "./platform.ts";
export { createWasmAppRuntime } from "./wasm-app-runtime.ts";
