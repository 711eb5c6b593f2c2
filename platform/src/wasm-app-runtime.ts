/**
 * The platform's production AppRuntime: deployed builds are WebAssembly components served by
 * @trellis/runtime (worker pool, host connections with the app's env vars, generated GraphQL).
 */
import { loadApp, prepareUploadedBuild } from "@trellis/runtime";
import type { AppRuntime } from "./app-runtime.ts";

export function createWasmAppRuntime(options: { workers?: number } = {}): AppRuntime {
  return {
    async prepareBuild(buildDir) {
      const { functions } = await prepareUploadedBuild(buildDir);
      return { functions };
    },
    async loadApp(buildDir, { appName, env, onExecution }) {
      const app = await loadApp(buildDir, {
        appName,
        env,
        workers: options.workers,
        // An app deployed before its env vars are set still serves what does not need them.
        missingSecrets: "defer",
        onExecution: (e) =>
          onExecution({
            executionId: e.executionId,
            function: e.function,
            status: e.status,
            durationMs: e.durationMs,
            startedAt: e.startedAt,
            logs: e.logs,
            ...(e.error ? { error: e.error.message } : {}),
          }),
      });
      return { fetch: (request) => app.fetch(request), unload: () => app.unload(), close: () => app.close() };
    },
  };
}
