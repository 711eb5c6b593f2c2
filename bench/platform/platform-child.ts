/**
 * A platform in its own process, for benchmarks that measure it from outside (their load generator must not
 * share its event loop): the real WebAssembly runtime and the embedded graph database, on free loopback
 * ports. Arguments: the data directory and the admin token. Prints `{"port": N}` once listening; stops when
 * its stdin closes.
 */
import { pino } from "pino";
import { createWasmAppRuntime, startPlatform } from "../../platform/src/index.ts";

const [dataDir, adminToken] = process.argv.slice(2);
const platform = await startPlatform({
  port: 0,
  host: "127.0.0.1",
  dataDir,
  adminToken,
  graphdb: { httpPort: 0, grpcPort: 0 },
  logger: pino({ level: process.env.TRELLIS_LOG_LEVEL ?? "warn" }),
  runtime: createWasmAppRuntime(),
});
process.stdout.write(`${JSON.stringify({ port: Number(new URL(platform.url).port) })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void platform.close().then(() => process.exit(0)));
