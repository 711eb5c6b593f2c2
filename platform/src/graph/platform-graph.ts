/**
 * The platform's embedded graph database: one store, a Dgraph namespace per app, and authentication on
 * every transport. It runs in a worker thread of its own (graph-worker.ts): the engine and its HTTP and
 * gRPC servers there, the platform's requests to it (`GraphOperations`) sent as messages. However heavy a
 * tenant's graph work, the gateway, the console and the control plane keep answering; the worker's heap
 * is bounded (`memoryMb`), and when the worker dies (out of memory, a crash) it is started again on the
 * same ports, requests in flight failing with a clear error and the next ones waiting for it.
 *
 * The galaxy (namespace 0) belongs to the operator: its groot's password is generated into
 * `<dataDir>/graphdb-groot-password` on first start (and set again at every start, so the file is the
 * truth). Apps never see it; each gets its own namespace and groot (AppNamespaces).
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { DgraphError, type LambdaCaller } from "@trellis/graphdb";
import type { EgressOptions } from "@trellis/runtime/egress";
import type { Logger } from "pino";
import { displayHost } from "../display-host.ts";
import { deriveSecret } from "../secrets/derived-secret.ts";
import type { GraphOperationName, GraphOperations } from "./graph-operations.ts";
import {
  encodeLambdaAnswer,
  type FromGraphWorker,
  fromWireError,
  type ToGraphWorker,
  toWireError,
} from "./graph-wire.ts";
import type { GraphWorkerData } from "./graph-worker.ts";
import { graphWorkerUrl } from "./graph-worker-url.ts";
import {
  DEFAULT_GRAPH_TENANT_LIMITS,
  type GraphTenantLimits,
  tenantEngineOptions,
  tenantGraphQLOptions,
} from "./tenant-bounds.ts";

export interface PlatformGraphOptions {
  dataDir: string;
  masterKey: Uint8Array;
  logger: Logger;
  /** Serve HTTP and gRPC (default true); the engine is opened either way (the console uses it). */
  serve: boolean;
  httpPort: number;
  grpcPort: number;
  host: string;
  /** Largest heap of the database's worker in MiB (default DEFAULT_GRAPH_MEMORY_MB). */
  memoryMb?: number;
  /** What one app's namespace may do (default DEFAULT_GRAPH_TENANT_LIMITS). */
  limits?: Partial<GraphTenantLimits>;
  /** Called each time the worker died and was started again. */
  onRestart?: () => void;
  /** Serves the `@lambda` fields of the database's `/graphql` and the console's (app-lambdas.ts). */
  lambda?: LambdaCaller;
  /**
   * Where a tenant's schema may reach (`@custom(http:)`, `@auth` JWKS): the platform's egress policy, as
   * plain data, rebuilt in the worker (default: `deployed`).
   */
  egress?: EgressOptions;
}

export interface PlatformGraph {
  /** What the platform asks of the database (namespaces, the console's Graph tab). */
  operations: GraphOperations;
  /** The HTTP and gRPC addresses; empty when not serving. */
  httpUrl: string;
  grpcTarget: string;
  /** The file holding the galaxy groot's password (the operator's login). */
  grootPasswordFile: string;
  /**
   * The `dgraph://` connection string of a namespace's groot over gRPC on loopback; undefined when the
   * database is not served.
   */
  connectionString(namespace: number, password: string): string | undefined;
  close(): Promise<void>;
}

/** The database worker's default heap bound: beyond it the worker is stopped and started again. */
export const DEFAULT_GRAPH_MEMORY_MB = 4096;

/**
 * The database worker's young generation, in MiB (V8's default for a worker is smaller). A tenant's large
 * answers and mutations live across a few time slices; with a small young generation they are promoted and
 * collected by full (stop-the-world) collections, which hold every other namespace's requests. Measured
 * with `npm run bench:platform:neighbours`: the neighbour's graph reads' median during a tenant's 200k
 * N-Quad write went from 15–21 ms to 8–10 ms.
 */
const GRAPH_YOUNG_GENERATION_MB = 64;
/** The console's GraphQL operations' time budget. */
const CONSOLE_GRAPHQL_TIMEOUT_MS = 30_000;
const GROOT_PASSWORD_FILE = "graphdb-groot-password";

export async function openPlatformGraph(options: PlatformGraphOptions): Promise<PlatformGraph> {
  const { dataDir, logger } = options;
  const grootPasswordFile = join(dataDir, GROOT_PASSWORD_FILE);
  const memoryMb = options.memoryMb ?? DEFAULT_GRAPH_MEMORY_MB;
  const limits = { ...DEFAULT_GRAPH_TENANT_LIMITS, ...options.limits };
  const data: GraphWorkerData = {
    dir: join(dataDir, "graphdb"),
    // The engine's default 256 MiB, or a quarter of a smaller heap bound.
    cacheBytes: Math.min(256, Math.floor(memoryMb / 4)) * 2 ** 20,
    bounds: tenantEngineOptions(limits),
    graphql: tenantGraphQLOptions(limits),
    grootPassword: await loadGrootPassword(grootPasswordFile, logger),
    logLevel: logger.level,
    consoleGraphQLTimeoutMs: CONSOLE_GRAPHQL_TIMEOUT_MS,
    egress: options.egress ?? {},
    ...(options.serve
      ? {
          serve: {
            httpPort: options.httpPort,
            grpcPort: options.grpcPort,
            host: options.host,
            // Both transports sign and check the same JWTs: a token from /login works over gRPC too.
            aclSecret: new TextEncoder().encode(deriveSecret(options.masterKey, "graphdb-acl-jwt")),
          },
        }
      : {}),
  };
  const worker = new GraphWorker(data, options);
  const { httpPort, grpcPort } = await worker.start();
  if (!options.serve) {
    return {
      operations: worker.operations,
      httpUrl: "",
      grpcTarget: "",
      grootPasswordFile,
      connectionString: () => undefined,
      close: () => worker.close(),
    };
  }
  const shown = displayHost(options.host);
  // Apps reach the database on this machine, whatever address it listens on.
  const loopback = options.host === "::" || options.host === "::1" ? "[::1]" : "127.0.0.1";
  return {
    operations: worker.operations,
    httpUrl: `http://${shown}:${httpPort}`,
    grpcTarget: `${shown}:${grpcPort}`,
    grootPasswordFile,
    connectionString: (namespace, password) =>
      `dgraph://groot:${encodeURIComponent(password)}@${loopback}:${grpcPort}?sslmode=disable&namespace=${namespace}`,
    close: () => worker.close(),
  };
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const RESTART_MIN_MS = 200;
const RESTART_MAX_MS = 30_000;
/** A worker that lived this long resets the restart backoff. */
const HEALTHY_AFTER_MS = 60_000;

/** Starts, talks to, restarts and stops the worker thread holding the database. */
class GraphWorker {
  readonly operations: GraphOperations;
  restarts = 0;
  private worker: Worker | undefined;
  /** Resolves once the current worker is ready; calls made meanwhile wait for it. */
  private ready: Promise<void> | undefined;
  private readonly calls = new Map<number, PendingCall>();
  private lastCall = 0;
  private closing = false;
  private startedAt = 0;
  private backoffMs = RESTART_MIN_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(
    private readonly data: GraphWorkerData,
    private readonly options: PlatformGraphOptions,
  ) {
    this.logger = options.logger.child({ component: "graphdb" });
    const call = <M extends GraphOperationName>(method: M) =>
      ((...args: unknown[]) => this.call(method, args)) as GraphOperations[M];
    this.operations = {
      listNamespaces: call("listNamespaces"),
      createNamespace: call("createNamespace"),
      setGrootPassword: call("setGrootPassword"),
      dropNamespace: call("dropNamespace"),
      query: call("query"),
      alter: call("alter"),
      exportNamespace: call("exportNamespace"),
      storedGraphQLSchema: call("storedGraphQLSchema"),
      currentGraphQLSchema: call("currentGraphQLSchema"),
      updateGraphQLSchema: call("updateGraphQLSchema"),
      executeGraphQL: call("executeGraphQL"),
    };
  }

  /** Starts the first worker; resolves with the ports it listens on (kept for every restart). */
  async start(): Promise<{ httpPort: number; grpcPort: number }> {
    const ports = await this.spawn();
    if (this.data.serve) {
      this.data.serve.httpPort = ports.httpPort;
      this.data.serve.grpcPort = ports.grpcPort;
    }
    return ports;
  }

  private async call(method: GraphOperationName, args: unknown[]): Promise<unknown> {
    if (this.closing) throw new DgraphError("the graph database is shut down");
    await this.ready;
    const worker = this.worker;
    if (worker === undefined) throw new DgraphError("the graph database is not running; it is restarting");
    const id = ++this.lastCall;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      worker.postMessage({ type: "call", id, method, args } satisfies ToGraphWorker);
    });
  }

  private spawn(): Promise<{ httpPort: number; grpcPort: number }> {
    const started = (async () => {
      const worker = new Worker(await graphWorkerUrl(), {
        workerData: this.data,
        resourceLimits: {
          maxOldGenerationSizeMb: this.options.memoryMb ?? DEFAULT_GRAPH_MEMORY_MB,
          maxYoungGenerationSizeMb: GRAPH_YOUNG_GENERATION_MB,
        },
        stdout: false,
        stderr: false,
      });
      this.worker = worker;
      this.startedAt = Date.now();
      return new Promise<{ httpPort: number; grpcPort: number }>((resolve, reject) => {
        worker.on("message", (message: FromGraphWorker) => {
          if (message.type === "ready") resolve({ httpPort: message.httpPort, grpcPort: message.grpcPort });
          else if (message.type === "failed") reject(fromWireError(message.error));
          else this.onMessage(worker, message);
        });
        worker.on("error", (err) => {
          this.logger.error({ err }, "the graph database worker failed");
          reject(err);
        });
        worker.on("exit", (code) => this.onExit(worker, code));
      });
    })();
    this.ready = started.then(
      () => undefined,
      () => undefined,
    );
    return started;
  }

  private onMessage(worker: Worker, message: FromGraphWorker): void {
    switch (message.type) {
      case "result": {
        const call = this.calls.get(message.id);
        this.calls.delete(message.id);
        if (message.ok) call?.resolve(message.value);
        else call?.reject(fromWireError(message.error));
        return;
      }
      case "lambda":
        void this.answerLambda(worker, message.id, message.request);
        return;
      case "log":
        this.log(message.line);
        return;
      default:
        return;
    }
  }

  private async answerLambda(
    worker: Worker,
    id: number,
    request: Parameters<LambdaCaller>[0],
  ): Promise<void> {
    let answer: ToGraphWorker;
    try {
      if (!this.options.lambda)
        throw new Error(`@lambda ${request.resolver}: no lambda server is configured`);
      answer = {
        type: "lambda-answer",
        id,
        ok: true,
        value: encodeLambdaAnswer(await this.options.lambda(request)),
      };
    } catch (e) {
      answer = { type: "lambda-answer", id, ok: false, error: toWireError(e) };
    }
    if (this.worker === worker) worker.postMessage(answer);
  }

  /** A worker's log line, written by the platform's logger at the same level. */
  private log(line: string): void {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const { level, msg, time: _time, name: _name, ...fields } = entry;
    const method = LEVELS[Number(level)] ?? "info";
    this.logger[method](fields, typeof msg === "string" ? msg : "");
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const failure = new DgraphError(
      this.closing
        ? "the graph database is shut down"
        : `the graph database stopped unexpectedly (exit code ${code}) and is restarting; retry the request`,
    );
    for (const call of this.calls.values()) call.reject(failure);
    this.calls.clear();
    if (this.closing) return;
    if (Date.now() - this.startedAt > HEALTHY_AFTER_MS) this.backoffMs = RESTART_MIN_MS;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, RESTART_MAX_MS);
    this.logger.error(
      { exitCode: code, restartInMs: delay },
      "the graph database worker stopped; restarting it",
    );
    let wake!: () => void;
    this.ready = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closing) return wake();
      this.restarts++;
      this.options.onRestart?.();
      this.spawn().then(
        () => {
          this.logger.info({ restarts: this.restarts }, "the graph database worker is serving again");
          wake();
        },
        (err) => {
          this.logger.error({ err }, "the graph database worker did not start again");
          wake();
        },
      );
    }, delay);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      worker.on("message", (message: FromGraphWorker) => {
        if (message.type === "closed") {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: "close" } satisfies ToGraphWorker);
    });
    await worker.terminate();
  }
}

const LEVELS: Record<number, "trace" | "debug" | "info" | "warn" | "error" | "fatal"> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/** The galaxy groot's password: generated (0600) on first start, then read. */
async function loadGrootPassword(file: string, logger: Logger): Promise<string> {
  try {
    await writeFile(file, `${randomBytes(24).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
    logger.info({ file }, "generated the graph database's groot password (namespace 0, the operator's)");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const password = (await readFile(file, "utf8")).trim();
  if (password.length < 16) {
    throw new Error(
      `${file}: the groot password must be at least 16 characters; delete the file to generate one`,
    );
  }
  return password;
}
