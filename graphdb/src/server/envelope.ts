/**
 * Dgraph's HTTP response shapes. Errors travel with HTTP 200 in one of two envelopes:
 * `SetStatus` — `{"errors":[{"message","extensions":{"code"}}]}` for request-level problems, /alter and
 * /commit — and `SetStatusWithData` — the same plus `"data":null` for engine errors on /query, /mutate and
 * for /login failures. All JSON leaving the server is escaped HTML-safe, as Go's encoder does.
 */

import { DgraphError, type DgraphErrorCode, TxnAbortedError, TxnConflictError } from "../core/errors.ts";
import type { Latency, TxnContext } from "../engine/engine-api.ts";
import { apiLatency } from "./api-latency.ts";

export type WireErrorCode = DgraphErrorCode | "ErrorInvalidMethod";

/** A request-level failure rendered in the `SetStatus` envelope (no `data` key). */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: WireErrorCode = "ErrorInvalidRequest",
  ) {
    super(message);
    this.name = "RequestError";
  }

  /** The original error when it was not a DgraphError (logged by the endpoint wrapper). */
  unexpected?: unknown;
}

/** A failure rendered in the `SetStatusWithData` envelope (`"data":null`). */
export class RequestErrorWithData extends RequestError {
  override name = "RequestErrorWithData";
}

/**
 * The text Dgraph's HTTP layer shows for an engine error. Aborts and conflicts surface as gRPC status
 * strings (clients look for "abort" + "retry", or "conflict"); everything else passes through verbatim.
 */
export function engineErrorMessage(error: DgraphError): string {
  if (error instanceof TxnAbortedError) return `rpc error: code = Aborted desc = ${error.message}`;
  if (error instanceof TxnConflictError)
    return `rpc error: code = FailedPrecondition desc = ${error.message}`;
  return error.message;
}

/**
 * Maps an engine failure into this endpoint's envelope (`code`, with or without `"data":null`).
 * Request errors pass through unchanged. An error that is not a DgraphError breaks the engine contract:
 * it is still shown, but keeps the original as `unexpected` so the endpoint wrapper logs it.
 */
export function fromEngineError(error: unknown, code: WireErrorCode, withData: boolean): RequestError {
  if (error instanceof RequestError) return error;
  const message =
    error instanceof DgraphError ? engineErrorMessage(error) : String((error as Error)?.message ?? error);
  const mapped = withData ? new RequestErrorWithData(message, code) : new RequestError(message, code);
  if (!(error instanceof DgraphError)) mapped.unexpected = error;
  return mapped;
}

/** Go's HTML-safe JSON escaping, applied to finished JSON text (these characters only occur in strings). */
export function htmlSafe(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `{"errors":[...]}` or, with `withData`, `{"errors":[...],"data":null}`. */
export function errorBody(message: string, code: WireErrorCode, withData: boolean): string {
  const errors = JSON.stringify([{ message, extensions: { code } }]);
  return htmlSafe(withData ? `{"errors":${errors},"data":null}` : `{"errors":${errors}}`);
}

export function errorBodyFor(error: RequestError): string {
  return errorBody(error.message, error.code, error instanceof RequestErrorWithData);
}

/** Drops zero / false / empty values, as Go's `omitempty` does. */
function omitEmpty<T extends object>(value: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null || v === 0 || v === false || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

/** `api.Latency` as Go marshals it: proto field order, zero fields omitted. */
export function latencyJson(latency: Latency | undefined): Partial<Latency> | undefined {
  if (!latency) return undefined;
  return omitEmpty(apiLatency(latency));
}

/** `api.TxnContext` as Go marshals it: proto field order, zero fields omitted. */
export function txnJson(txn: TxnContext | undefined): Partial<TxnContext> | undefined {
  if (!txn) return undefined;
  return omitEmpty({
    start_ts: txn.start_ts,
    commit_ts: txn.commit_ts,
    aborted: txn.aborted,
    keys: txn.keys,
    preds: txn.preds,
    hash: txn.hash,
  });
}

/** A Go map marshals with its keys sorted. */
export function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const k of Object.keys(record).sort(byteOrder)) out[k] = record[k];
  return out;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Serialises a response object as Go would: HTML-safe. */
export function toJson(value: unknown): string {
  return htmlSafe(JSON.stringify(value));
}
