/**
 * Host capability `http`: `http-fetch` through a declared `http` connection (the allow-list; its headers
 * and query parameters added on the host side), and the probe of `http` connections.
 */
import { findHttpConnection, httpFetch, sendThroughConnection } from "../connections/http-connection.ts";
import type { HttpConnection } from "../manifest/manifest-schema.ts";
import type { HttpResponse } from "../wasm/host-calls.ts";
import { PROBE_TIMEOUT_MS } from "./connection-probe.ts";
import type { CapabilityFactory } from "./host-capability.ts";

export const httpCapability: CapabilityFactory<"httpFetch"> = ({
  manifest,
  connections,
  trace,
  outbound,
}) => {
  /** Every declared http connection (unresolved ones too), to tell "not allowed" from "not configured". */
  const declared: Record<string, HttpConnection> = {};
  for (const [name, c] of Object.entries(manifest.connections)) if (c.type === "http") declared[name] = c;
  const resolved: Record<string, HttpConnection> = {};
  for (const [name, c] of Object.entries(connections.resolved)) if (c.type === "http") resolved[name] = c;

  return {
    calls: {
      httpFetch(ctx, url, method, headers, body) {
        return trace.call(ctx, "httpFetch", url.split("?")[0], async () => {
          const name = findHttpConnection(declared, url);
          if (name !== undefined) connections.requireConfigured(name);
          return httpFetch(resolved, url, { method, headers, body }, outbound);
        });
      },
    },
    probe: {
      type: "http",
      /** HEAD (GET where HEAD is not allowed) on the connection's URL; 401/403 mean refused credentials. */
      async check(name) {
        const conn = resolved[name];
        const url = (conn.baseUrl ?? conn.endpoint)!;
        const probeOptions = { ...outbound, timeoutMs: Math.min(outbound.timeoutMs, PROBE_TIMEOUT_MS) };
        const send = (method: string) =>
          sendThroughConnection(
            { ...conn, timeoutMs: undefined },
            url,
            { method, headers: [], body: undefined },
            probeOptions,
          );
        let res: HttpResponse = await send("HEAD");
        if (res.status === 405 || res.status === 501) res = await send("GET");
        const denied = res.status === 401 || res.status === 403;
        return {
          authenticated: !denied,
          detail: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`,
        };
      },
    },
  };
};
