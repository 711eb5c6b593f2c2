import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { adminAuth } from "./api/admin-auth.ts";
import { installApiErrorHandler } from "./api/api-errors.ts";
import type { PlatformContext } from "./platform-context.ts";

/**
 * Where the Prometheus metrics are served. They name every app and its traffic, so they are not public:
 * on the main port `/metrics` takes the admin token (`Authorization: Bearer …`, throttled like the API);
 * for a scraper that should not hold the admin token, `--metrics-port` opens a separate plain-HTTP
 * listener (127.0.0.1 unless `--metrics-host` says otherwise) that serves `/metrics` without a token.
 */
export function metricsRoute(server: FastifyInstance, ctx: PlatformContext): void {
  server.register(async (scope) => {
    installApiErrorHandler(scope);
    scope.addHook("onRequest", adminAuth(ctx));
    scope.get("/metrics", async (_request, reply) => {
      reply.header("content-type", ctx.metrics.registry.contentType);
      return ctx.metrics.registry.metrics();
    });
  });
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** The token-less metrics listener: `GET /metrics` only; whoever can reach the address can read them. */
export async function startMetricsListener(
  registry: Registry,
  port: number,
  host: string,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end("only /metrics is served here\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { "content-type": registry.contentType }).end(body),
      (err: Error) => res.writeHead(500).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
