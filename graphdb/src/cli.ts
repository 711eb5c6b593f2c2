/**
 * `trellis-graphdb`: runs the graph database as a Dgraph-compatible server: HTTP and gRPC (`api.Dgraph`)
 * in one process, over one engine.
 *
 * Listens on 0.0.0.0 by default, as Dgraph Alpha does (reachable from other hosts and containers);
 * pass `--host 127.0.0.1` to keep it local. Listening beyond loopback without --acl or --auth-token is
 * allowed (Dgraph's default) but logged as a warning at startup.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Logger, pino } from "pino";
import { GraphDB } from "./engine/graph-db.ts";
import type { LambdaCaller } from "./graphql/execution/lambda-caller.ts";
import { warnIfExposed } from "./listen-exposure.ts";
import {
  parseQueryLimitFlags,
  QUERY_LIMIT_OPTIONS,
  QUERY_LIMIT_USAGE,
  type QueryLimitConfig,
} from "./query-limit-flags.ts";
import { MIN_SECRET_BYTES } from "./server/acl.ts";
import { DEFAULT_BODY_LIMIT } from "./server/body.ts";
import { createGrpcServer } from "./server/grpc/grpc-server.ts";
import { createHttpServer } from "./server/http-server.ts";
import { LoginThrottle } from "./server/login-throttle.ts";
import {
  parseTenantLimitFlags,
  TENANT_LIMIT_OPTIONS,
  TENANT_LIMIT_USAGE,
  type TenantLimitConfig,
} from "./tenant-limit-flags.ts";

export const USAGE = `Usage: trellis-graphdb [options]

Runs the Trellis graph database with Dgraph-compatible HTTP and gRPC APIs.

Options:
  --data <dir>             data directory (env TRELLIS_GRAPHDB_DATA; default ./data/graphdb)
  --port <port>            HTTP port (env TRELLIS_GRAPHDB_PORT; default 8080)
  --grpc-port <port>       gRPC port, Dgraph's api.Dgraph service (env TRELLIS_GRAPHDB_GRPC_PORT;
                           default 9080)
  --host <address>         listen address (env TRELLIS_GRAPHDB_HOST; default 0.0.0.0, all interfaces,
                           as Dgraph; use 127.0.0.1 to accept local connections only). Beyond
                           loopback without --acl or --auth-token, a warning is logged at startup
  --acl                    enable ACL: /login (into a namespace), access JWTs, user groot / password
                           "password" in the galaxy (namespace 0)
  --acl-secret-file <file> HMAC secret for the JWTs (at least ${MIN_SECRET_BYTES} bytes; default: generated
                           once and kept in <data>/acl-secret)
  --no-login-throttle      do not throttle failed logins (default with --acl: an address waits 1 s,
                           doubling to 15 min, after 5 failures, loopback excepted; a user's wrong
                           passwords wait after 10 failures from all addresses, the right one never)
  --auth-token <token>     require this X-Dgraph-AuthToken on /alter (env TRELLIS_GRAPHDB_AUTH_TOKEN)
  --body-limit <size>      largest request body or gRPC message, e.g. 33554432, 64MiB (default 32MiB)
  --export <dir>           where /admin export writes (default <data>/export)
  --lambda-url <url>       a Dgraph lambda server for @lambda fields of the GraphQL API
                           (env TRELLIS_GRAPHDB_LAMBDA_URL)
${QUERY_LIMIT_USAGE}${TENANT_LIMIT_USAGE}  --log-level <level>      fatal, error, warn, info, debug (one line per request), trace
                           (env TRELLIS_GRAPHDB_LOG_LEVEL; default info)
  -h, --help               show this help
`;

export interface CliConfig extends QueryLimitConfig, TenantLimitConfig {
  dataDir: string;
  port: number;
  grpcPort: number;
  host: string;
  acl: boolean;
  loginThrottle: boolean;
  aclSecretFile?: string;
  authToken?: string;
  lambdaUrl?: string;
  exportDir: string;
  bodyLimit: number;
  logLevel: string;
  help: boolean;
}

/** A command-line mistake: reported with the usage text, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`${flag}: not a port number: ${value}`);
  return port;
}

const SIZE_UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes from `33554432`, `64MiB`, `64mb`, `512k`… (all multiples are binary). */
export function parseSize(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(value.trim());
  if (!m) throw new UsageError(`--body-limit: not a size: ${value}`);
  const bytes = Math.floor(Number(m[1]) * SIZE_UNITS[(m[2] ?? "").toLowerCase()]);
  if (bytes <= 0) throw new UsageError(`--body-limit: must be positive: ${value}`);
  return bytes;
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliConfig {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    dataDir: resolve(values.data ?? env.TRELLIS_GRAPHDB_DATA ?? "./data/graphdb"),
    port: parsePort(values.port ?? env.TRELLIS_GRAPHDB_PORT ?? "8080", "--port"),
    grpcPort: parsePort(values["grpc-port"] ?? env.TRELLIS_GRAPHDB_GRPC_PORT ?? "9080", "--grpc-port"),
    host: values.host ?? env.TRELLIS_GRAPHDB_HOST ?? "0.0.0.0",
    acl: values.acl ?? false,
    loginThrottle: !values["no-login-throttle"],
    aclSecretFile: values["acl-secret-file"],
    authToken: values["auth-token"] ?? env.TRELLIS_GRAPHDB_AUTH_TOKEN,
    lambdaUrl: parseLambdaUrl(values["lambda-url"] ?? env.TRELLIS_GRAPHDB_LAMBDA_URL),
    exportDir: resolve(
      values.export ?? join(values.data ?? env.TRELLIS_GRAPHDB_DATA ?? "./data/graphdb", "export"),
    ),
    bodyLimit: values["body-limit"] === undefined ? DEFAULT_BODY_LIMIT : parseSize(values["body-limit"]),
    logLevel: values["log-level"] ?? env.TRELLIS_GRAPHDB_LOG_LEVEL ?? "info",
    help: values.help ?? false,
    ...parseQueryLimitFlags(values, (message) => new UsageError(message)),
    ...parseTenantLimitFlags(values, (message) => new UsageError(message)),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      data: { type: "string" },
      port: { type: "string" },
      "grpc-port": { type: "string" },
      host: { type: "string" },
      acl: { type: "boolean" },
      "no-login-throttle": { type: "boolean" },
      "acl-secret-file": { type: "string" },
      "auth-token": { type: "string" },
      "body-limit": { type: "string" },
      "lambda-url": { type: "string" },
      export: { type: "string" },
      "log-level": { type: "string" },
      ...QUERY_LIMIT_OPTIONS,
      ...TENANT_LIMIT_OPTIONS,
      help: { type: "boolean", short: "h" },
    },
  });
}

function parseLambdaUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--lambda-url: not a URL: ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--lambda-url: only http and https URLs, got ${url.protocol}`);
  }
  return url.toString();
}

/** The ACL secret: from --acl-secret-file, else `<data>/acl-secret`, generated on first use. */
export async function loadAclSecret(config: CliConfig, logger: Logger): Promise<Uint8Array> {
  const explicit = config.aclSecretFile !== undefined;
  const file = explicit ? resolve(config.aclSecretFile as string) : join(config.dataDir, "acl-secret");
  if (!explicit && !existsSync(file)) {
    await writeFile(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    logger.info({ file }, "generated ACL secret");
  }
  const secret = (await readFile(file)).toString("utf8").replace(/[\r\n]+$/, "");
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new UsageError(`ACL secret in ${file} must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return new TextEncoder().encode(secret);
}

export interface RunningServer {
  port: number;
  grpcPort: number;
  /** Closes the gRPC and HTTP servers, then the engine. */
  stop(): Promise<void>;
}

/** What an embedding process adds to the command line's configuration. */
export interface EmbeddedServerOptions {
  /** Serves `@lambda` fields in-process (`trellis dev`: the app's functions); wins over `lambdaUrl`. */
  lambda?: LambdaCaller;
}

/** Opens the database and starts serving; resolves once listening. */
export async function startServer(
  config: CliConfig,
  logger: Logger,
  embedded: EmbeddedServerOptions = {},
): Promise<RunningServer> {
  await mkdir(config.dataDir, { recursive: true });
  const aclSecret = config.acl ? await loadAclSecret(config, logger) : undefined;
  const engine = new GraphDB({
    dir: config.dataDir,
    acl: config.acl,
    queryTimeoutMs: config.queryTimeoutMs,
    queryLimits: config.queryLimits,
    ...config.engineLimits,
  });
  // One throttle for both transports: a guesser gains nothing by switching from HTTP to gRPC.
  const loginThrottle = config.loginThrottle ? new LoginThrottle() : false;
  const server = createHttpServer(engine, {
    acl: config.acl,
    aclSecret,
    loginThrottle,
    authToken: config.authToken,
    bodyLimit: config.bodyLimit,
    graphql: {
      lambdaUrl: config.lambdaUrl,
      lambda: embedded.lambda,
      schemaLimits: config.graphqlSchemaLimits,
    },
    exportDir: config.exportDir,
    logger,
  });
  const grpcServer = createGrpcServer(engine, {
    acl: config.acl,
    aclSecret,
    loginThrottle,
    authToken: config.authToken,
    maxMessageBytes: config.bodyLimit,
    logger,
  });
  let port: number;
  let grpcPort: number;
  try {
    ({ port } = await server.listen(config.port, config.host));
    ({ port: grpcPort } = await grpcServer.listen(config.grpcPort, config.host));
  } catch (e) {
    await grpcServer.close().catch(() => {});
    await server.close().catch(() => {});
    await engine.close();
    throw e;
  }
  logger.info(
    { port, grpcPort, host: config.host, data: config.dataDir, acl: config.acl, bodyLimit: config.bodyLimit },
    "trellis-graphdb listening",
  );
  warnIfExposed(logger, {
    host: config.host,
    port,
    grpcPort,
    acl: config.acl,
    authToken: (config.authToken ?? "") !== "",
  });
  return {
    port,
    grpcPort,
    async stop() {
      await Promise.all([grpcServer.close(), server.close()]);
      await engine.close();
    },
  };
}

/** Entry point of the `trellis-graphdb` bin: runs until SIGTERM/SIGINT. */
export async function runCli(argv: string[]): Promise<void> {
  let config: CliConfig;
  try {
    config = parseCliArgs(argv);
  } catch (e) {
    process.stderr.write(`trellis-graphdb: ${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (config.help) {
    process.stdout.write(USAGE);
    return;
  }
  const logger = pino({ name: "trellis-graphdb", level: config.logLevel });
  let running: RunningServer;
  try {
    running = await startServer(config, logger);
  } catch (e) {
    logger.fatal({ err: e }, "failed to start");
    process.exitCode = 1;
    return;
  }

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "forced exit");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    running.stop().then(
      () => {
        logger.info("stopped");
        process.exitCode = 0;
      },
      (e: unknown) => {
        logger.error({ err: e }, "error while shutting down");
        process.exitCode = 1;
      },
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
