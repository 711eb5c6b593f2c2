/**
 * `trellis dev`'s and the platform's connection test: one connection probed by the capability that
 * serves its type, timed, and classified as unreachable, reachable but refusing the credentials, or fine.
 */
import type { ConnectionType } from "../manifest/manifest-schema.ts";
import { elapsedMs, errorText } from "./host-call-tracer.ts";
import type { ProbeResult } from "./host-capability.ts";

export interface ConnectionStatus {
  name: string;
  /** A connection's type, or `model` for a model (tested through its connection). */
  type: ConnectionType | "model";
  reachable: boolean;
  authenticated: boolean;
  detail: string;
  ms: number;
}

/** Longest a connection probe waits. */
export const PROBE_TIMEOUT_MS = 10_000;

/** Runs `check` for connection `name`; a failure is a status, never a rejection. */
export async function probeConnection(
  name: string,
  type: ConnectionType,
  check: () => Promise<ProbeResult>,
): Promise<ConnectionStatus> {
  const start = performance.now();
  const status = (reachable: boolean, authenticated: boolean, detail: string): ConnectionStatus => ({
    name,
    type,
    reachable,
    authenticated,
    detail,
    ms: elapsedMs(start),
  });
  try {
    const result = await check();
    return status(true, result.authenticated, result.detail);
  } catch (e) {
    const detail = errorText(e);
    return isAuthFailure(e) ? status(true, false, detail) : status(false, false, detail);
  }
}

/** Credentials refused: PostgreSQL 28P01/28000, MySQL 1044/1045, gRPC UNAUTHENTICATED/PERMISSION_DENIED. */
function isAuthFailure(e: unknown): boolean {
  const err = e as { code?: unknown; errno?: unknown };
  return (
    err.code === "28P01" ||
    err.code === "28000" ||
    err.errno === 1044 ||
    err.errno === 1045 ||
    err.code === 16 ||
    err.code === 7
  );
}
