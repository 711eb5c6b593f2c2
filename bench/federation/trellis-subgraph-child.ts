/**
 * Child process serving a fresh Trellis database in argv[2] over HTTP on 127.0.0.1 (free port), as a
 * gateway's subgraph: keep-alive on, as behind a gateway that reuses its connections (Dgraph's default,
 * `Connection: close`, would add a TCP handshake to every subgraph fetch). Prints `{"port":N}` once
 * listening; exits when stdin closes or on SIGTERM.
 */
import { createGraphDB } from "../../graphdb/src/index.ts";
import { createHttpServer } from "../../graphdb/src/server/http-server.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: trellis-subgraph-child.ts <data dir>");
const db = createGraphDB({ dir });
const server = createHttpServer(db.engine, { keepAlive: true });
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
