/**
 * Child process of the static assets benchmark: the platform (WebAssembly runtime, no graph database) on
 * 127.0.0.1 (free port) with its data in argv[2] and admin token argv[3], so that the load generator runs
 * on another core, as it does for nginx. Prints `{"port":N}` once listening; exits when stdin closes.
 */
import { pino } from "pino";
import { createWasmAppRuntime, startPlatform } from "../../platform/src/index.ts";

const [dataDir, adminToken] = process.argv.slice(2);
if (!dataDir || !adminToken) throw new Error("usage: static-site-child.ts <data dir> <admin token>");
const platform = await startPlatform({
  port: 0,
  host: "127.0.0.1",
  dataDir,
  adminToken,
  graphdb: { enabled: false },
  logger: pino({ level: "silent" }),
  runtime: createWasmAppRuntime(),
});
process.stdout.write(`${JSON.stringify({ port: Number(new URL(platform.url).port) })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await platform.close();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.stdin.on("end", () => void shutdown());
process.stdin.resume();
