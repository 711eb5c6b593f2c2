/**
 * Child process for the HTTP benchmarks: opens a fresh Trellis engine in argv[2] and serves it with the
 * Dgraph-compatible HTTP server on 127.0.0.1 (free port), so the loader's client work runs on another core.
 * `--keep-alive` (argv[3]) keeps connections open, as behind a gateway that reuses them as a federation
 * subgraph (Dgraph's default, `Connection: close`, would add a TCP handshake to every subgraph fetch).
 * Prints `{"port":N}` once listening; exits when stdin closes or on SIGTERM.
 */
import { createGraphDB } from "../../graphdb/src/index.ts";
import { createHttpServer } from "../../graphdb/src/server/http-server.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: http-server-child.ts <data dir> [--keep-alive]");
const db = createGraphDB({ dir });
const server = createHttpServer(db.engine, { keepAlive: process.argv[3] === "--keep-alive" });
const { port } = await server.listen(0, "127.0.0.1");
process.stdout.write(`${JSON.stringify({ port })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  await db.close();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.stdin.on("end", () => void shutdown());
process.stdin.resume();
