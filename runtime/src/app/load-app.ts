/**
 * Loads a build directory (see compiler/build-app.ts) into a running app: the manifest and the app's
 * environment give the host capabilities (connections with secrets filled), the component's own WIT gives
 * the API, the transpiled component runs in the worker pool, and the GraphQL handler serves it.
 *
 * Used by `trellis dev` (environment = process env + .env files) and by the platform (environment = the
 * app's stored env vars only).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { LambdaCaller } from "@trellis/graphdb";
import {
  createHostDispatcher,
  type HostDispatcher,
  type HostLogger,
} from "../capabilities/host-dispatcher.ts";
import type { EgressOptions } from "../egress/egress-policy.ts";
import type { ExecutionRecord } from "../graphql/execution-record.ts";
import { createFunctionCaller } from "../graphql/function-caller.ts";
import {
  createGraphQLHandler,
  type GraphQLHandler,
  type RequestAuth,
  type RequestMemoryOptions,
} from "../graphql/graphql-handler.ts";
import type { OperationLimits } from "../graphql/operation-limits.ts";
import { buildAppSchema } from "../graphql/schema-builder.ts";
import { MANIFEST_FILE } from "../manifest/load-manifest.ts";
import type { EndpointConfig, Manifest } from "../manifest/manifest-schema.ts";
import { parseManifest } from "../manifest/parse-manifest.ts";
import {
  appMemoryPool,
  memoryLimitsFromEnv,
  RequestMemory,
  totalMemoryPool,
} from "../memory/memory-budget.ts";
import type { RequiredVariable } from "../secrets/required-variables.ts";
import type { FunctionInvoker } from "../wasm/function-invoker.ts";
import { createWorkerPool } from "../wasm/worker-pool.ts";
import { readAppWorld } from "../wit/wit-parser.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import { createAppLambdaCaller, lambdaMapProblem } from "./app-lambda-caller.ts";
import { COMPONENT_FILE, TRANSPILED_DIR } from "./build-layout.ts";
import { endpointFunctionsProblem, functionsByPath } from "./endpoint-scope.ts";

export { COMPONENT_FILE, TRANSPILED_DIR };

export interface LoadAppOptions {
  /** Shown in logs and /health; default: build-info.json's name. */
  appName?: string;
  /** Where placeholders and app secrets are read from (TRELLIS_<CONNECTION>_<PLACEHOLDER>, TRELLIS_APP_*). */
  env: Record<string, string | undefined>;
  /** Every function execution, for activity and metrics. */
  onExecution?: (e: ExecutionRecord) => void;
  /**
   * `throw` (default, as in development): refuse to start while a placeholder's variable is unset, naming
   * every one. `defer` (the platform): start, warn, and fail only the calls through affected connections.
   */
  missingSecrets?: "throw" | "defer";
  /** Worker threads (calls at once); default 2. */
  workers?: number;
  /** Calls waiting for a worker before new ones are refused (RESOURCE_EXHAUSTED); default 256. */
  maxQueue?: number;
  /** Bounds on one GraphQL request (aliases, depth, tokens, cost, function calls). */
  operationLimits?: Partial<OperationLimits>;
  /** Bounds on one call: the result's size and the log kept (defaults: 16 MiB, 256 Ki characters). */
  maxResultBytes?: number;
  maxLogBytes?: number;
  /**
   * Where the app's `graphdb` connections to a loopback address go, as a `dgraph://` connection string
   * with credentials and namespace: the platform gives each app its own namespace this way.
   */
  loopbackGraphdb?: string;
  /**
   * Where the app's connections may go (plain data: see EgressPolicy). Default: the `deployed` policy,
   * which refuses loopback, private and link-local addresses and this machine's own unless its `allow`
   * entries open them; `trellis dev` passes `PERMISSIVE_EGRESS`.
   */
  egress?: EgressOptions;
  /**
   * The memory the app's requests (GraphQL and `@lambda`) may hold: its pool inside the server's total, and
   * the bound of one request (default: `DEFAULT_MEMORY_LIMITS`, or the TRELLIS_MAX_*_MEMORY variables of
   * the process, in pools of this app's own: `trellis dev`).
   */
  memory?: RequestMemoryOptions;
  /** Objects one `@lambda` request of the graph database may ask for (default DEFAULT_MAX_LAMBDA_PARENTS). */
  maxLambdaParents?: number;
  logger?: HostLogger;
}

export interface LoadedApp {
  name: string;
  world: AppWorld;
  sdl: string;
  manifest: Manifest;
  endpoints: { name: string; path: string; auth: EndpointConfig["auth"]; functions?: readonly string[] }[];
  /**
   * The app's GraphQL endpoint (any path: routing is the caller's). `auth` is who the caller verified the
   * request comes from: a user JWT's claims reach the functions (`jwt-claims`). `endpointPath`, the
   * declared endpoint the caller routed it to: one that lists `functions` serves only those.
   */
  fetch(request: Request, auth?: RequestAuth, endpointPath?: string): Promise<Response>;
  testConnections: HostDispatcher["testConnections"];
  /**
   * Variables of the app's connections that were not set when it loaded (with `missingSecrets: "defer"`):
   * calls through those connections fail, saying which variable to set and where.
   */
  missingSecrets: RequiredVariable[];
  /**
   * Serves the graph database's `@lambda` fields with the functions trellis.json's `lambdas` maps them to
   * (give it to a `GraphQLService` as `lambda`); see app-lambda-caller.ts for how parameters are filled.
   */
  lambda: LambdaCaller;
  /** Releases workers and instances (scale to zero); the next call starts them again. */
  unload(): Promise<void>;
  close(): Promise<void>;
}

/** An app alone on its server (`trellis dev`): its pools, with the bounds the environment sets. */
function ownMemoryPools(appName: string): RequestMemoryOptions {
  const limits = memoryLimitsFromEnv();
  return {
    app: appMemoryPool(appName, totalMemoryPool(limits.totalBytes), limits.appBytes),
    requestBytes: limits.requestBytes,
  };
}

/** A build directory that cannot be served, with what is wrong and what to do. */
export class InvalidBuildError extends Error {
  override name = "InvalidBuildError";
}

export interface BuildFiles {
  manifest: Manifest;
  component: Uint8Array;
  transpiledDir: string;
  name: string;
}

/** The parts of a build directory; `transpiled` false: the transpiled glue need not exist (yet). */
export async function readBuild(buildDirInput: string, { transpiled = true } = {}): Promise<BuildFiles> {
  const buildDir = resolve(buildDirInput);
  const manifestFile = join(buildDir, MANIFEST_FILE);
  const componentFile = join(buildDir, COMPONENT_FILE);
  const transpiledDir = join(buildDir, TRANSPILED_DIR);
  const required = transpiled ? [manifestFile, componentFile, transpiledDir] : [manifestFile, componentFile];
  const missing = required.filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new InvalidBuildError(
      `${buildDir} is not a complete Trellis build (missing ${missing.map((f) => f.slice(buildDir.length + 1)).join(", ")}); run \`trellis build\``,
    );
  }
  const manifest = parseManifest(await readFile(manifestFile, "utf8"), manifestFile);
  const component = new Uint8Array(await readFile(componentFile));
  let name = "app";
  try {
    const info = JSON.parse(await readFile(join(buildDir, "build-info.json"), "utf8")) as { name?: unknown };
    if (typeof info.name === "string") name = info.name;
  } catch {
    // build-info.json is informational only.
  }
  return { manifest, component, transpiledDir, name };
}

/**
 * Checks that a build can be served without starting it: manifest valid, component readable, its WIT
 * supported and the GraphQL schema generated. Returns the GraphQL root fields. Throws with the reason.
 */
export async function validateBuild(buildDir: string): Promise<{ name: string; functions: string[] }> {
  const build = await readBuild(buildDir);
  let world: AppWorld;
  try {
    world = await readAppWorld(build.component);
  } catch (e) {
    throw new InvalidBuildError(`${COMPONENT_FILE} is not a loadable component: ${(e as Error).message}`);
  }
  const functions = buildAppSchema(world).fields.map((f) => f.fieldName);
  const problem =
    lambdaMapProblem(build.manifest.lambdas, functions) ??
    endpointFunctionsProblem(build.manifest, functions);
  if (problem !== undefined) throw new InvalidBuildError(problem);
  return { name: build.name, functions };
}

export async function loadApp(buildDir: string, options: LoadAppOptions): Promise<LoadedApp> {
  const build = await readBuild(buildDir);
  const world = await readAppWorld(build.component);
  // Before any worker starts: a lambda mapped to a missing function is a broken build.
  const bindings = buildAppSchema(world).fields;
  const names = bindings.map((f) => f.fieldName);
  const problem =
    lambdaMapProblem(build.manifest.lambdas, names) ?? endpointFunctionsProblem(build.manifest, names);
  if (problem !== undefined) throw new InvalidBuildError(problem);
  const host = createHostDispatcher({
    manifest: build.manifest,
    env: options.env,
    logger: options.logger,
    missingSecrets: options.missingSecrets,
    loopbackGraphdb: options.loopbackGraphdb,
    egress: options.egress,
  });
  if (host.missingSecrets.length > 0) {
    options.logger?.warn(
      { app: options.appName ?? build.name, missing: host.missingSecrets.map((v) => v.variable) },
      "environment variables not set: calls through their connections will fail until they are",
    );
  }
  let invoker: FunctionInvoker;
  try {
    invoker = await createWorkerPool({
      transpiledDir: build.transpiledDir,
      host,
      world,
      workers: options.workers,
      maxQueue: options.maxQueue,
      maxResultBytes: options.maxResultBytes,
      maxLogBytes: options.maxLogBytes,
      timeoutMs: build.manifest.limits.timeoutMs,
      memoryLimitMb: build.manifest.limits.memoryMb,
    });
  } catch (e) {
    await host.close();
    throw e;
  }
  const appName = options.appName ?? build.name;
  const memory = options.memory ?? ownMemoryPools(appName);
  const graphql: GraphQLHandler = createGraphQLHandler({
    world,
    invoker,
    onExecution: options.onExecution,
    limits: options.operationLimits,
    memory,
  });
  const call = createFunctionCaller({ world, invoker, onExecution: options.onExecution });
  const scopes = functionsByPath(build.manifest);
  // Each @lambda request has a memory account of its own, like a GraphQL request.
  const lambda: LambdaCaller = async (request) => {
    const full = memory.app.fullReason();
    if (full !== undefined) throw new Error(full);
    const account = new RequestMemory(memory.app, memory.requestBytes);
    try {
      return await createAppLambdaCaller({
        appName,
        lambdas: build.manifest.lambdas,
        functions: bindings,
        types: world.types,
        call: (binding, args, callOptions) => call(binding, args, { ...callOptions, memory: account }),
        concurrency: options.workers ?? 2,
        maxParents: options.maxLambdaParents,
      })(request);
    } finally {
      account.release();
    }
  };
  return {
    name: appName,
    world,
    sdl: graphql.sdl,
    manifest: build.manifest,
    endpoints: Object.entries(build.manifest.endpoints).map(([name, e]) => ({
      name,
      path: e.path,
      auth: e.auth,
      ...(e.functions ? { functions: e.functions } : {}),
    })),
    fetch: (request, auth, endpointPath) =>
      graphql.fetch(request, auth, endpointPath === undefined ? undefined : scopes.get(endpointPath)),
    testConnections: () => host.testConnections(),
    missingSecrets: host.missingSecrets,
    lambda,
    unload: () => invoker.unload(),
    async close() {
      await invoker.close();
      await host.close();
    },
  };
}
