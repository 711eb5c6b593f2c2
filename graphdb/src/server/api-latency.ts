import type { Latency } from "../engine/engine-api.ts";

/**
 * The engine's latency as `api.Latency`, for both transports: whole nanoseconds, in the proto's field
 * order (which Go's JSON encoder keeps).
 */
export function apiLatency(latency: Latency): Latency {
  return {
    parsing_ns: Math.round(latency.parsing_ns),
    processing_ns: Math.round(latency.processing_ns),
    encoding_ns: Math.round(latency.encoding_ns),
    assign_timestamp_ns: Math.round(latency.assign_timestamp_ns),
    total_ns: Math.round(latency.total_ns),
  };
}
