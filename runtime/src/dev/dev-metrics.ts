import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ExecutionRecord } from "../graphql/execution-record.ts";

/**
 * Prometheus metrics of the dev server, in a registry of its own (never prom-client's global one, so
 * several servers in one process — tests, the platform — do not share counters). Names follow Modus'
 * (`runtime_http_requests_total_num`, `runtime_function_executions_num`, …) with a `trellis_` prefix and
 * Prometheus' naming conventions.
 */
export class DevMetrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: "trellis_http_requests_total",
    help: "HTTP requests handled, excluding /health and /metrics.",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });
  private readonly httpInFlight = new Gauge({
    name: "trellis_http_requests_in_flight",
    help: "HTTP requests being handled, excluding /health and /metrics.",
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: "trellis_http_request_duration_seconds",
    help: "HTTP request duration in seconds, excluding /health and /metrics.",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 5, 10],
    registers: [this.registry],
  });
  private readonly executions = new Counter({
    name: "trellis_function_executions_total",
    help: "Function executions by GraphQL function name and status.",
    labelNames: ["function", "status"] as const,
    registers: [this.registry],
  });
  private readonly executionDuration = new Histogram({
    name: "trellis_function_execution_duration_milliseconds",
    help: "Function execution duration in milliseconds.",
    labelNames: ["function"] as const,
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
    registers: [this.registry],
  });

  /** Starts timing an HTTP request; call the returned function with the status when it is answered. */
  startRequest(method: string, route: string): (status: number) => void {
    this.httpInFlight.inc();
    const stop = this.httpDuration.startTimer({ method, route });
    return (status) => {
      this.httpInFlight.dec();
      stop();
      this.httpRequests.inc({ method, route, status: String(status) });
    };
  }

  /** Counts one function execution (wire to the GraphQL handler's `onExecution`). */
  recordExecution(e: ExecutionRecord): void {
    this.executions.inc({ function: e.function, status: e.status });
    this.executionDuration.observe({ function: e.function }, e.durationMs);
  }

  /** The Prometheus text exposition and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
