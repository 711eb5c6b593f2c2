/// <reference path="./host.d.ts" />
/**
 * HTTP through the app's `http` connections. The URL must start with a connection's `baseUrl` (or equal
 * its `endpoint`); the host adds that connection's headers and secrets, which never reach the app.
 * Calls are synchronous: the function waits for the response.
 */
import { httpFetch } from "trellis:app/host";
import { toJsonText } from "./json-text.ts";

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string> | [string, string][];
  /** A string is sent as is; anything else as JSON (with `Content-Type: application/json`). */
  body?: unknown;
}

export interface Response {
  status: number;
  statusText: string;
  /** True for a 2xx status. */
  ok: boolean;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  text(): string;
  json<T = unknown>(): T;
}

export function fetch(url: string, options: RequestOptions = {}): Response {
  const headers: [string, string][] = Array.isArray(options.headers)
    ? [...options.headers]
    : Object.entries(options.headers ?? {});
  let body: string | null = null;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = toJsonText(options.body);
    if (!headers.some(([name]) => name.toLowerCase() === "content-type")) {
      headers.push(["Content-Type", "application/json"]);
    }
  }
  const method = (options.method ?? (body === null ? "GET" : "POST")).toUpperCase();
  const raw = httpFetch(url, method, headers, body);
  const merged: Record<string, string> = {};
  for (const [name, value] of raw.headers) {
    const key = name.toLowerCase();
    merged[key] = key in merged ? `${merged[key]}, ${value}` : value;
  }
  return {
    status: raw.status,
    statusText: raw.statusText,
    ok: raw.status >= 200 && raw.status < 300,
    headers: merged,
    body: raw.body,
    text: () => raw.body,
    json: <T>() => JSON.parse(raw.body) as T,
  };
}
