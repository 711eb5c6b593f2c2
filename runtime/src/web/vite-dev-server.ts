/**
 * `trellis dev` for an app's front end: Vite's dev server in middleware mode, mounted on the dev server's
 * own HTTP server (one origin, one port), its hot-reload websocket on the same server.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

export interface WebDevServer {
  /** Serves a request Vite knows (pages, modules, assets); calls `next` for anything else. */
  handle(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  close(): Promise<void>;
}

export interface WebDevOptions {
  /** The Vite project folder (the app's `web.root`, absolute). */
  root: string;
  /** Serve index.html for paths that match no file (`web.spaFallback`; default true), else 404. */
  spaFallback?: boolean;
}

export async function startWebDevServer(options: WebDevOptions, httpServer: Server): Promise<WebDevServer> {
  // Loaded when used: importing Vite probes the filesystem, which a platform under Node's permission
  // model (that loads this package but never a dev server) may not do.
  const { createServer } = await import("vite");
  const vite = await createServer({
    root: options.root,
    base: "/",
    clearScreen: false,
    logLevel: "warn",
    appType: options.spaFallback === false ? "mpa" : "spa",
    server: { middlewareMode: true, ws: { server: httpServer } },
  });
  return {
    handle: (req, res, next) => vite.middlewares(req, res, next),
    close: () => vite.close(),
  };
}
