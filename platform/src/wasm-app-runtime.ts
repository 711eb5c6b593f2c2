/**
 * The platform's production AppRuntime: deployed builds are WebAssembly components served by
 * @trellis/runtime (worker pool, host connections with the app's env vars, generated GraphQL), within the
 * platform's ceilings: what an app may declare in its manifest's `limits`, and what one call may return
 * and log.
 */
import {
  appMemoryPool,
  type LimitCeilings,
  loadApp,
  type MemoryLimits,
  type MemoryPool,
  memoryLimitsFromEnv,
  prepareUploadedBuild,
  totalMemoryPool,
} from "@trellis/runtime";
import type { AppRuntime } from "./app-runtime.ts";

export interface WasmAppRuntimeOptions {
  /** Worker threads per loaded app (calls at once). Default 2. */
  workers?: number;
  /** The most an app may declare: default timeoutMs 60,000 and memoryMb 512 (TRELLIS_MAX_TIMEOUT_MS, TRELLIS_MAX_MEMORY_MB). */
  ceilings?: Partial<LimitCeilings>;
  /** The largest result one call may return (roughly, serialized). Default 16 MiB (TRELLIS_MAX_RESULT_BYTES). */
  maxResultBytes?: number;
  /** Log characters kept per call. Default 256 Ki (TRELLIS_MAX_LOG_BYTES). */
  maxLogBytes?: number;
  /**
   * Bytes of function results and host answers held by one request, by one app's requests in flight and by
   * all of them (defaults: `DEFAULT_MEMORY_LIMITS` of @trellis/runtime, 32 MiB, 128 MiB, 1 GiB; env
   * TRELLIS_MAX_REQUEST_MEMORY, TRELLIS_MAX_APP_MEMORY, TRELLIS_MAX_TOTAL_MEMORY).
   */
  memoryLimits?: Partial<MemoryLimits>;
}

export const DEFAULT_CEILINGS: LimitCeilings = { maxTimeoutMs: 60_000, maxMemoryMb: 512 };

export function createWasmAppRuntime(options: WasmAppRuntimeOptions = {}): AppRuntime {
  const ceilings: LimitCeilings = {
    maxTimeoutMs:
      options.ceilings?.maxTimeoutMs ?? envNumber("TRELLIS_MAX_TIMEOUT_MS") ?? DEFAULT_CEILINGS.maxTimeoutMs,
    maxMemoryMb:
      options.ceilings?.maxMemoryMb ?? envNumber("TRELLIS_MAX_MEMORY_MB") ?? DEFAULT_CEILINGS.maxMemoryMb,
  };
  const maxResultBytes = options.maxResultBytes ?? envNumber("TRELLIS_MAX_RESULT_BYTES");
  const maxLogBytes = options.maxLogBytes ?? envNumber("TRELLIS_MAX_LOG_BYTES");
  const memoryLimits = { ...memoryLimitsFromEnv(), ...options.memoryLimits };
  const total = totalMemoryPool(memoryLimits.totalBytes);
  // One pool per app, shared by its production instance, its previews and a replaced instance still busy.
  const appPools = new Map<string, MemoryPool>();
  const poolOf = (app: string) => {
    let pool = appPools.get(app);
    if (!pool) appPools.set(app, (pool = appMemoryPool(app, total, memoryLimits.appBytes)));
    return pool;
  };
  return {
    async prepareBuild(buildDir) {
      const { functions } = await prepareUploadedBuild(buildDir, { ceilings });
      return { functions };
    },
    async loadApp(buildDir, { appName, env, graphdb, egress, onExecution }) {
      const app = await loadApp(buildDir, {
        appName,
        env,
        loopbackGraphdb: graphdb,
        egress: egress ?? {},
        workers: options.workers,
        maxResultBytes,
        maxLogBytes,
        memory: { app: poolOf(appName), requestBytes: memoryLimits.requestBytes },
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
            // A call the graph database made for a @lambda field says so in Activity.
            ...(e.lambda ? { lambda: e.lambda } : {}),
          }),
      });
      return {
        fetch: (request, auth, endpointPath) => app.fetch(request, auth, endpointPath),
        lambda: (request) => app.lambda(request),
        unload: () => app.unload(),
        close: () => app.close(),
      };
    },
  };
}

function envNumber(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}
