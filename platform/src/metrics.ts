import { Counter, Gauge, Registry } from "prom-client";

/** The platform's Prometheus metrics, in their own registry (served at `/metrics`). */
export class PlatformMetrics {
  readonly registry = new Registry();
  readonly coldStarts = new Counter({
    name: "trellis_platform_app_cold_starts_total",
    help: "Apps loaded to answer a request (first request, after scale-to-zero or after a deploy)",
    labelNames: ["app"],
    registers: [this.registry],
  });
  readonly unloads = new Counter({
    name: "trellis_platform_app_unloads_total",
    help: "Apps unloaded, by reason (idle: scale-to-zero; replaced: new deployment or env; deleted; shutdown)",
    labelNames: ["app", "reason"],
    registers: [this.registry],
  });
  readonly gatewayRequests = new Counter({
    name: "trellis_platform_gateway_requests_total",
    help: "Requests to app GraphQL endpoints, by app and HTTP status",
    labelNames: ["app", "status"],
    registers: [this.registry],
  });
  readonly loadedApps = new Gauge({
    name: "trellis_platform_loaded_apps",
    help: "Apps currently loaded (not scaled to zero)",
    registers: [this.registry],
  });
  readonly executions = new Counter({
    name: "trellis_platform_function_executions_total",
    help: "Function executions recorded for Activity, by app and status",
    labelNames: ["app", "status"],
    registers: [this.registry],
  });
  readonly graphRestarts = new Counter({
    name: "trellis_platform_graphdb_restarts_total",
    help: "Times the embedded graph database's worker died (out of memory, a crash) and was started again",
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: "trellis_platform_auth_failures_total",
    help: "Wrong tokens presented to the control plane, /metrics and /admin/slash, by credential tried (admin or deploy)",
    labelNames: ["credential"],
    registers: [this.registry],
  });
  readonly authThrottled = new Counter({
    name: "trellis_platform_auth_throttled_total",
    help: "Token checks answered 429, by credential tried (admin or deploy) and by what was over its allowance (address or credential)",
    labelNames: ["credential", "by"],
    registers: [this.registry],
  });
}
