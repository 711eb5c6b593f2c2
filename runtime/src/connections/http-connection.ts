/**
 * Outbound HTTP for guests, only through declared `http` connections (the allow-list), with the
 * connection's secret headers and query parameters added on the host side.
 */
import { egressRefusal } from "../egress/egress-refused.ts";
import type { OutboundFetch } from "../egress/guarded-fetch.ts";
import type { HttpConnection } from "../manifest/manifest-schema.ts";
import type { HttpResponse } from "../wasm/host-calls.ts";

export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface OutboundOptions {
  timeoutMs: number;
  /** Largest response body read (default 16 MiB); bigger responses fail rather than fill memory. */
  maxResponseBytes?: number;
  /** How requests are sent: the egress policy's guarded fetch (egress/guarded-fetch.ts). */
  fetch: OutboundFetch;
}

/** `url` without user info, query and fragment, lower-cased: what the allow-list compares. */
function comparable(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`.toLowerCase();
}

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid URL ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`only http and https URLs can be fetched, not ${JSON.stringify(url)}`);
  }
  return parsed;
}

/**
 * The connection that allows `url`, as Modus decides: the URL (without user info, query and fragment)
 * equals a connection's `endpoint` or starts with its `baseUrl`, case-insensitively. Unlike Modus, dot
 * segments are resolved first (WHATWG URL), so `…/v1/../admin` is not under `…/v1/`. An endpoint match
 * wins over a baseUrl one, then the longest baseUrl.
 */
export function findHttpConnection(
  connections: Record<string, HttpConnection>,
  url: string,
): string | undefined {
  const target = comparable(parseHttpUrl(url));
  let best: { name: string; length: number } | undefined;
  for (const [name, conn] of Object.entries(connections)) {
    if (conn.endpoint !== undefined && comparable(new URL(conn.endpoint)) === target) return name;
    if (conn.baseUrl !== undefined) {
      const prefix = comparable(new URL(conn.baseUrl));
      if (target.startsWith(prefix) && (!best || prefix.length > best.length)) {
        best = { name, length: prefix.length };
      }
    }
  }
  return best?.name;
}

function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Sends a request through `connection` (already known to allow `url`): its query parameters and headers
 * are set over the caller's. Redirects are returned, not followed, so a redirect cannot leave the
 * allow-list. Non-2xx statuses are returned.
 */
export async function sendThroughConnection(
  connection: HttpConnection,
  url: string,
  init: { method: string; headers: [string, string][]; body: string | undefined },
  options: OutboundOptions,
): Promise<HttpResponse> {
  const target = parseHttpUrl(url);
  if (target.username !== "" || target.password !== "") {
    throw new Error(`URLs with credentials are refused; put credentials in the connection's headers`);
  }
  for (const [k, v] of Object.entries(connection.queryParameters)) target.searchParams.set(k, v);
  const headers = new Headers();
  for (const [k, v] of init.headers) headers.append(k, v);
  for (const k of ["host", "content-length", "connection", "transfer-encoding"]) headers.delete(k);
  for (const [k, v] of Object.entries(connection.headers)) headers.set(k, v);

  const method = init.method.toUpperCase();
  const shown = `${method} ${displayUrl(target)}`;
  const timeoutMs = connection.timeoutMs ?? options.timeoutMs;
  let res: Response;
  try {
    res = await options.fetch(target, {
      method,
      headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const refused = egressRefusal(e);
    if (refused) throw new Error(`HTTP ${shown} refused: ${refused.message}`, { cause: refused });
    throw new Error(`HTTP ${shown} failed: ${failureReason(e, timeoutMs)}`);
  }
  let body: string;
  try {
    body = await readBody(res, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
  } catch (e) {
    throw new Error(`HTTP ${shown} failed: ${failureReason(e, timeoutMs)}`);
  }
  return { status: res.status, statusText: res.statusText, headers: [...res.headers], body };
}

function failureReason(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return `timed out after ${timeoutMs} ms`;
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

async function readBody(res: Response, limit: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`response body is larger than the ${limit} byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A guest's `http-fetch`: refused unless a declared connection allows the URL. */
export async function httpFetch(
  connections: Record<string, HttpConnection>,
  url: string,
  init: { method: string; headers: [string, string][]; body: string | undefined },
  options: OutboundOptions,
): Promise<HttpResponse> {
  const name = findHttpConnection(connections, url);
  if (name === undefined) {
    const shown = displayUrl(parseHttpUrl(url));
    throw new Error(
      `no http connection in trellis.json allows ${shown}; declare one whose baseUrl is a prefix of it`,
    );
  }
  return sendThroughConnection(connections[name], url, init, options);
}
