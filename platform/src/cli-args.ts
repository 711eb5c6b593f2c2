/**
 * The `trellis-platform` command line: flags over the environment. Kept apart from the server so that the
 * bin's launcher (which starts the server under Node's permission model) loads nothing else.
 */
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { parseArgs } from "node:util";
import type { MemoryLimits } from "@trellis/runtime";
import type { PermissionPaths } from "./node-permissions.ts";
import type { PlatformOptions } from "./platform.ts";
import { trustedProxies } from "./trust-proxy.ts";

export const USAGE = `Usage: trellis-platform [options]

Options:
  --port <port>             HTTP(S) port (env TRELLIS_PORT; default 8787)
  --host <address>          listen address (env TRELLIS_HOST; default 0.0.0.0)
  --data <dir>              data directory (env TRELLIS_DATA; default ./data/platform)
  --database-url <url>      PostgreSQL for shared metadata (env TRELLIS_DATABASE_URL; default embedded PGlite)
  --idle-timeout <ms>       scale an idle app to zero after this (env TRELLIS_IDLE_TIMEOUT_MS; default 300000)
  --tls-cert <file>         serve HTTPS with this certificate (env TRELLIS_TLS_CERT) ...
  --tls-key <file>          ... and key (env TRELLIS_TLS_KEY)
  --graphdb-port <port>     embedded graph database HTTP port (default 8080)
  --graphdb-grpc-port <p>   embedded graph database gRPC port (default 9080)
  --no-graphdb              do not expose the embedded graph database's ports
  --graphdb-memory <MiB>    heap bound of the graph database's worker thread; past it the worker is
                            stopped and started again (env TRELLIS_GRAPHDB_MEMORY_MB; default 4096)
  --graphdb-max-mutation-nquads <n>
                            N-Quads one mutation request may carry (env TRELLIS_GRAPHDB_MAX_MUTATION_NQUADS;
                            default 100000)
  --graphdb-op-timeout <ms> longest a graph mutation or alter (an index build) may run (env
                            TRELLIS_GRAPHDB_OP_TIMEOUT_MS; default 120000)
  --graphdb-max-index-values <n>
                            values one alter may read to build indexes (env TRELLIS_GRAPHDB_MAX_INDEX_VALUES;
                            default 2000000)
  --graphdb-max-remote-answer <bytes>
                            largest answer read from a server an app's GraphQL schema calls (@custom(http:))
                            or from its JWKS endpoint; reading stops there and the field fails (env
                            TRELLIS_GRAPHDB_MAX_REMOTE_ANSWER; default 33554432, 32 MiB)
  --console-dir <dir>       the console's built files (default: the package's console-dist/; in a
                            checkout of the repository console/dist, built on first start)
  --metrics-port <port>     also serve /metrics without a token on this port (env TRELLIS_METRICS_PORT;
                            default: none, /metrics on the main port takes the admin token)
  --metrics-host <address>  listen address of --metrics-port (env TRELLIS_METRICS_HOST; default 127.0.0.1)
  --trust-proxy <list>      reverse proxies whose X-Forwarded-For gives the client address, e.g.
                            127.0.0.1 or 10.0.0.0/8 (env TRELLIS_TRUST_PROXY; default: none); the
                            right-most hop that is not one of them is the client (true, * and hop
                            counts are refused: they would believe what the client wrote)
  --egress-allow <list>     addresses deployed apps may reach although they are loopback, private or
                            this machine's: CIDRs, IPs or hostnames, each with an optional :port, e.g.
                            10.0.0.0/8,db.internal:5432,127.0.0.1:11434 (env TRELLIS_EGRESS_ALLOW;
                            default: none, apps reach public addresses only)
  --max-request-memory <bytes>
                            function results and host answers one GraphQL request may hold; past it
                            its remaining calls fail (env TRELLIS_MAX_REQUEST_MEMORY; default 32 MiB)
  --max-app-memory <bytes>  what one app's requests in flight may hold together; past it its new
                            requests are refused with 503 (env TRELLIS_MAX_APP_MEMORY; default 128 MiB)
  --max-total-memory <bytes>
                            what all apps' requests in flight may hold together (env
                            TRELLIS_MAX_TOTAL_MEMORY; default 1 GiB, or half the heap limit if smaller)
  --no-demo                 do not deploy the demo app on first start
  --no-node-permissions     serve without Node's permission model (env TRELLIS_NODE_PERMISSIONS=off;
                            default: the server may read only its code and data, write only its data)
  -h, --help                show this help

Secrets: TRELLIS_ADMIN_TOKEN (else <data>/admin-token; at least 32 characters: openssl rand -base64 32),
TRELLIS_MASTER_KEY (else <data>/master.key).
`;

/** Below this the database's worker cannot even open its store and caches. */
const MIN_GRAPH_MEMORY_MB = 64;

export type Parsed = Omit<PlatformOptions, "runtime"> & {
  /** For the function runtime (the environment's TRELLIS_MAX_*_MEMORY are read by the runtime itself). */
  memoryLimits: Partial<MemoryLimits>;
  help: boolean;
  demo: boolean;
  nodePermissions: boolean;
};

export function parsePlatformArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Parsed {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      data: { type: "string" },
      "database-url": { type: "string" },
      "idle-timeout": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "graphdb-port": { type: "string" },
      "graphdb-grpc-port": { type: "string" },
      "no-graphdb": { type: "boolean" },
      "graphdb-memory": { type: "string" },
      "graphdb-max-mutation-nquads": { type: "string" },
      "graphdb-op-timeout": { type: "string" },
      "graphdb-max-index-values": { type: "string" },
      "graphdb-max-remote-answer": { type: "string" },
      "console-dir": { type: "string" },
      "metrics-port": { type: "string" },
      "metrics-host": { type: "string" },
      "trust-proxy": { type: "string" },
      "egress-allow": { type: "string" },
      "max-request-memory": { type: "string" },
      "max-app-memory": { type: "string" },
      "max-total-memory": { type: "string" },
      "no-demo": { type: "boolean" },
      "no-node-permissions": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const num = (value: string | undefined, flag: string) => {
    if (value === undefined || value === "") return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${flag}: not a number: ${value}`);
    return Number(value);
  };
  const positive = (value: string | undefined, flag: string) => {
    const n = num(value, flag);
    if (n === 0) throw new Error(`${flag}: must be at least 1`);
    return n;
  };
  const cert = values["tls-cert"] ?? env.TRELLIS_TLS_CERT;
  const key = values["tls-key"] ?? env.TRELLIS_TLS_KEY;
  if (Boolean(cert) !== Boolean(key)) throw new Error("--tls-cert and --tls-key go together");
  const metricsPort = num(values["metrics-port"] ?? env.TRELLIS_METRICS_PORT, "--metrics-port");
  const metricsHost = values["metrics-host"] ?? env.TRELLIS_METRICS_HOST;
  const graphMemoryMb = num(values["graphdb-memory"] ?? env.TRELLIS_GRAPHDB_MEMORY_MB, "--graphdb-memory");
  if (graphMemoryMb !== undefined && graphMemoryMb < MIN_GRAPH_MEMORY_MB)
    throw new Error(`--graphdb-memory: at least ${MIN_GRAPH_MEMORY_MB} MiB, got ${graphMemoryMb}`);
  if (metricsHost && metricsPort === undefined)
    throw new Error("--metrics-host needs --metrics-port (the port of the token-less /metrics listener)");
  const memoryLimits: Partial<MemoryLimits> = {};
  for (const [flag, key] of [
    ["max-request-memory", "requestBytes"],
    ["max-app-memory", "appBytes"],
    ["max-total-memory", "totalBytes"],
  ] as const) {
    const bytes = num(values[flag], `--${flag}`);
    if (bytes === 0) throw new Error(`--${flag}: must be a number of bytes greater than 0`);
    if (bytes !== undefined) memoryLimits[key] = bytes;
  }
  return {
    memoryLimits,
    help: values.help ?? false,
    demo: !values["no-demo"],
    nodePermissions: !values["no-node-permissions"] && env.TRELLIS_NODE_PERMISSIONS !== "off",
    port: num(values.port ?? env.TRELLIS_PORT, "--port") ?? 8787,
    host: values.host ?? env.TRELLIS_HOST ?? "0.0.0.0",
    dataDir: values.data ?? env.TRELLIS_DATA ?? "./data/platform",
    databaseUrl: values["database-url"] ?? env.TRELLIS_DATABASE_URL,
    idleMs: num(values["idle-timeout"] ?? env.TRELLIS_IDLE_TIMEOUT_MS, "--idle-timeout"),
    tls: cert && key ? { cert, key } : undefined,
    graphdb: {
      enabled: !values["no-graphdb"],
      httpPort: num(values["graphdb-port"], "--graphdb-port"),
      grpcPort: num(values["graphdb-grpc-port"], "--graphdb-grpc-port"),
      memoryMb: graphMemoryMb,
      limits: definedOnly({
        mutationNquads: positive(
          values["graphdb-max-mutation-nquads"] ?? env.TRELLIS_GRAPHDB_MAX_MUTATION_NQUADS,
          "--graphdb-max-mutation-nquads",
        ),
        operationTimeoutMs: positive(
          values["graphdb-op-timeout"] ?? env.TRELLIS_GRAPHDB_OP_TIMEOUT_MS,
          "--graphdb-op-timeout",
        ),
        indexValues: positive(
          values["graphdb-max-index-values"] ?? env.TRELLIS_GRAPHDB_MAX_INDEX_VALUES,
          "--graphdb-max-index-values",
        ),
        remoteAnswerBytes: positive(
          values["graphdb-max-remote-answer"] ?? env.TRELLIS_GRAPHDB_MAX_REMOTE_ANSWER,
          "--graphdb-max-remote-answer",
        ),
      }),
    },
    consoleDir: values["console-dir"],
    metrics: metricsPort === undefined ? undefined : { port: metricsPort, host: metricsHost || "127.0.0.1" },
    trustProxy: trustProxyList(values["trust-proxy"] ?? (env.TRELLIS_TRUST_PROXY || undefined)),
    // Checked by startPlatform (the runtime's parser): this module stays free of the runtime.
    egress: {
      allow: (values["egress-allow"] ?? env.TRELLIS_EGRESS_ALLOW ?? "").split(/[\s,]+/).filter(Boolean),
    },
  };
}

/** The `--trust-proxy` list, checked (see `trustedProxies`), as Fastify takes it. */
function trustProxyList(value: string | undefined): string | undefined {
  return value === undefined ? undefined : trustedProxies(value).join(",");
}

/** What the serving process may touch: its code (and the console), its data, the TLS files it names. */
export function permissionPaths(parsed: Parsed, dataDir: string, codeRoot: string): PermissionPaths {
  const read = [codeRoot];
  if (parsed.consoleDir) read.push(parsed.consoleDir);
  // --tls-cert/--tls-key take PEM text or a file; only files need reading.
  for (const value of [parsed.tls?.cert, parsed.tls?.key]) {
    if (value && !value.includes("-----BEGIN") && (isAbsolute(value) || existsSync(value))) read.push(value);
  }
  return { read, write: [dataDir] };
}

/** The object without its undefined entries (a flag not given keeps the default). */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
