/**
 * The host side of the WIT `host` interface: maps each guest call onto the app's declared connections.
 * Secrets are resolved once, at creation (missing ones fail startup by name), and stay here: guests
 * get response bodies and rows, never connection settings. Database pools and gRPC clients are created
 * on first use and released by `close`.
 */
import type { Connection, ConnectionType, HttpConnection, Manifest } from "../manifest/manifest-schema.ts";
import { appSecretVarName } from "../secrets/env-var-name.ts";
import { MissingSecretsError } from "../secrets/missing-secrets-error.ts";
import { type RequiredVariable, requiredVariables } from "../secrets/required-variables.ts";
import { type ResolvedConnections, resolveConnections } from "../secrets/resolve-connections.ts";
import type { HostCallContext, HostCalls, HttpResponse } from "../wasm/host-calls.ts";
import { GraphClient, type GraphMutateRequest, isLoopbackTarget } from "./graph-connection.ts";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  findHttpConnection,
  httpFetch,
  sendThroughConnection,
} from "./http-connection.ts";
import { invokeModel, type ModelTarget } from "./model-connection.ts";
import { createSqlClient, parseSqlParams, type SqlClient, sqlJson } from "./relational-connection.ts";

/** Structural subset of a pino logger. */
export interface HostLogger {
  debug(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface ConnectionStatus {
  name: string;
  /** A connection's type, or `model` for a model (tested through its connection). */
  type: ConnectionType | "model";
  reachable: boolean;
  authenticated: boolean;
  detail: string;
  ms: number;
}

export interface HostDispatcherOptions {
  manifest: Manifest;
  /** The app's environment (see loadEnvFiles): connection secrets and TRELLIS_APP_* app secrets. */
  env: Record<string, string | undefined>;
  logger?: HostLogger;
  /** Largest outbound HTTP response body (default 16 MiB). */
  maxResponseBytes?: number;
  /**
   * `throw` (default): creation fails with MissingSecretsError naming every unset variable. `defer`: the
   * app starts; calls through an affected connection fail with that error (the platform serves an app
   * whose env vars are not all set yet; `missingSecrets` lists them for the startup warning).
   */
  missingSecrets?: "throw" | "defer";
  /**
   * The graph database of the host the app runs on, as a `dgraph://` connection string with the app's
   * own credentials and namespace (the platform's per-app tenant). `graphdb` connections whose target is
   * a loopback address (`localhost:9080`, as the starter app declares) reach it instead of their declared
   * target and key; connections to other hosts are used as declared.
   */
  loopbackGraphdb?: string;
}

export type HostDispatcher = HostCalls & {
  /** Variables that were unset at creation (only with `missingSecrets: "defer"`). */
  missingSecrets: RequiredVariable[];
  /** Probes every connection and model, in parallel. */
  testConnections(): Promise<ConnectionStatus[]>;
  /** Closes pools and gRPC channels; the dispatcher may not be used afterwards. */
  close(): Promise<void>;
};

/** Longest a connection probe waits. */
const PROBE_TIMEOUT_MS = 10_000;

/** Creates the dispatcher; throws MissingSecretsError when a placeholder's variable is not set. */
export function createHostDispatcher(options: HostDispatcherOptions): HostDispatcher {
  const { manifest, env, logger } = options;
  const missing = requiredVariables(manifest).filter((v) => env[v.variable] === undefined);
  if (missing.length > 0 && options.missingSecrets !== "defer") throw new MissingSecretsError(missing);
  const missingByConnection = new Map<string, RequiredVariable[]>();
  for (const v of missing)
    missingByConnection.set(v.connection, [...(missingByConnection.get(v.connection) ?? []), v]);
  const unresolvable = (name: string) => {
    const vars = missingByConnection.get(name);
    if (vars) throw new MissingSecretsError(vars);
  };
  const resolved: ResolvedConnections = resolveConnections(
    {
      ...manifest,
      connections: Object.fromEntries(
        Object.entries(manifest.connections).filter(([name]) => !missingByConnection.has(name)),
      ),
    },
    env,
  );
  /** Every declared http connection (unresolved ones too), to tell "not allowed" from "not configured". */
  const declaredHttp: Record<string, HttpConnection> = {};
  for (const [name, c] of Object.entries(manifest.connections)) if (c.type === "http") declaredHttp[name] = c;
  const timeoutMs = manifest.limits.timeoutMs;
  const outbound = { timeoutMs, maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES };
  const httpConnections: Record<string, HttpConnection> = {};
  for (const [name, c] of Object.entries(resolved)) if (c.type === "http") httpConnections[name] = c;
  const sqlClients = new Map<string, SqlClient>();
  const graphClients = new Map<string, GraphClient>();
  let closed = false;

  function connectionOf<T extends Connection["type"]>(
    name: string,
    type: T,
  ): Extract<Connection, { type: T }> {
    if (closed) throw new Error("the app's connections are closed");
    unresolvable(name);
    const conn = Object.hasOwn(resolved, name) ? resolved[name] : undefined;
    if (!conn) throw new Error(`no connection "${name}" in trellis.json`);
    if (conn.type !== type) throw new Error(`connection "${name}" is a ${conn.type} connection, not ${type}`);
    return conn as Extract<Connection, { type: T }>;
  }

  function sqlClient(name: string): SqlClient {
    const conn = connectionOf(name, "relationaldb");
    let client = sqlClients.get(name);
    if (!client) sqlClients.set(name, (client = createSqlClient(conn.connStr, { timeoutMs })));
    return client;
  }

  function graphClient(name: string): GraphClient {
    const conn = connectionOf(name, "graphdb");
    let client = graphClients.get(name);
    if (!client) {
      const local = options.loopbackGraphdb !== undefined && isLoopbackTarget(conn.grpcTarget);
      client = local
        ? new GraphClient(options.loopbackGraphdb as string, undefined, { timeoutMs })
        : new GraphClient(conn.grpcTarget, conn.key, { timeoutMs });
      graphClients.set(name, client);
    }
    return client;
  }

  function modelTarget(name: string): ModelTarget {
    const model = Object.hasOwn(manifest.models, name) ? manifest.models[name] : undefined;
    if (!model) throw new Error(`no model "${name}" in trellis.json`);
    const credentialVariables = requiredVariables(manifest)
      .filter((v) => v.connection === model.connection)
      .map((v) => v.variable);
    return { name, model, connection: connectionOf(model.connection, "http"), credentialVariables };
  }

  /** Runs a host call, logging it (never its data) and prefixing failures with what was attempted. */
  async function traced<T>(
    ctx: HostCallContext,
    call: string,
    target: string,
    failure: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    const start = performance.now();
    try {
      const result = await run();
      logger?.debug(
        { ...ctxFields(ctx), hostCall: call, target, ms: elapsed(start) },
        "Host call completed.",
      );
      return result;
    } catch (e) {
      const message = failure ? `${failure}: ${errorText(e)}` : errorText(e);
      logger?.warn(
        { ...ctxFields(ctx), hostCall: call, target, ms: elapsed(start), error: message },
        "Host call failed.",
      );
      throw new Error(message);
    }
  }

  async function probe(name: string, conn: Connection): Promise<ConnectionStatus> {
    const start = performance.now();
    const status = (reachable: boolean, authenticated: boolean, detail: string): ConnectionStatus => ({
      name,
      type: conn.type,
      reachable,
      authenticated,
      detail,
      ms: elapsed(start),
    });
    try {
      if (conn.type === "http") {
        const url = (conn.baseUrl ?? conn.endpoint)!;
        const probeOptions = { ...outbound, timeoutMs: Math.min(timeoutMs, PROBE_TIMEOUT_MS) };
        const send = (method: string) =>
          sendThroughConnection(
            { ...conn, timeoutMs: undefined },
            url,
            { method, headers: [], body: undefined },
            probeOptions,
          );
        let res: HttpResponse = await send("HEAD");
        if (res.status === 405 || res.status === 501) res = await send("GET");
        const denied = res.status === 401 || res.status === 403;
        return status(true, !denied, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
      }
      if (conn.type === "relationaldb") {
        await sqlClient(name).query("SELECT 1", []);
        return status(true, true, "SELECT 1 succeeded");
      }
      await graphClient(name).query("{ q(func: uid(0x1)) { uid } }", {});
      return status(true, true, "query succeeded");
    } catch (e) {
      const detail = errorText(e);
      return isAuthFailure(e) ? status(true, false, detail) : status(false, false, detail);
    }
  }

  return {
    missingSecrets: missing,
    httpFetch(ctx, url, method, headers, body) {
      return traced(ctx, "http-fetch", url.split("?")[0], undefined, async () => {
        const declared = findHttpConnection(declaredHttp, url);
        if (declared !== undefined) unresolvable(declared);
        return httpFetch(httpConnections, url, { method, headers, body }, outbound);
      });
    },
    sqlQuery(ctx, connection, statement, params) {
      return traced(
        ctx,
        "sql-query",
        connection,
        `sql query on connection "${connection}" failed`,
        async () => sqlJson(await sqlClient(connection).query(statement, parseSqlParams(params))),
      );
    },
    sqlExecute(ctx, connection, statement, params) {
      return traced(
        ctx,
        "sql-execute",
        connection,
        `sql execute on connection "${connection}" failed`,
        async () => sqlJson(await sqlClient(connection).execute(statement, parseSqlParams(params))),
      );
    },
    graphQuery(ctx, connection, query, vars) {
      return traced(
        ctx,
        "graph-query",
        connection,
        `graph query on connection "${connection}" failed`,
        async () =>
          JSON.stringify(
            await graphClient(connection).query(query, parseJsonObject(vars, "vars"), ctx.deadline),
          ),
      );
    },
    graphMutate(ctx, connection, request) {
      return traced(
        ctx,
        "graph-mutate",
        connection,
        `graph mutate on connection "${connection}" failed`,
        async () =>
          JSON.stringify(await graphClient(connection).mutate(parseMutateRequest(request), ctx.deadline)),
      );
    },
    graphAlter(ctx, connection, schema) {
      return traced(
        ctx,
        "graph-alter",
        connection,
        `graph alter on connection "${connection}" failed`,
        async () => {
          await graphClient(connection).alter(schema, ctx.deadline);
          return JSON.stringify({ code: "Success", message: "Done" });
        },
      );
    },
    modelInvoke(ctx, name, input) {
      return traced(ctx, "model-invoke", name, undefined, async () =>
        invokeModel(modelTarget(name), input, outbound),
      );
    },
    async appSecret(ctx, name) {
      return traced(ctx, "app-secret", name, undefined, async () => {
        if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid app secret name ${JSON.stringify(name)}`);
        const variable = appSecretVarName(name);
        const value = env[variable];
        if (value === undefined) {
          throw new Error(
            `app secret "${name}" is not set: set ${variable} in .env.dev.local or in the platform's environment variables`,
          );
        }
        return value;
      });
    },
    async testConnections() {
      const unconfigured = [...missingByConnection].map(
        ([name, vars]): ConnectionStatus => ({
          name,
          type: manifest.connections[name].type,
          reachable: false,
          authenticated: false,
          detail: new MissingSecretsError(vars).message.split("\n")[0],
          ms: 0,
        }),
      );
      const connectionStatuses = [
        ...(await Promise.all(Object.entries(resolved).map(([name, c]) => probe(name, c)))),
        ...unconfigured,
      ];
      const byName = new Map(connectionStatuses.map((s) => [s.name, s]));
      const modelStatuses = Object.entries(manifest.models).map(([name, model]): ConnectionStatus => {
        const c = byName.get(model.connection)!;
        return {
          name,
          type: "model",
          reachable: c.reachable,
          authenticated: c.authenticated,
          detail: `through connection "${model.connection}": ${c.detail}`,
          ms: c.ms,
        };
      });
      return [...connectionStatuses, ...modelStatuses];
    },
    async close() {
      closed = true;
      const sql = [...sqlClients.values()];
      sqlClients.clear();
      for (const g of graphClients.values()) g.close();
      graphClients.clear();
      await Promise.allSettled(sql.map((c) => c.close()));
    },
  };
}

/** A gRPC failure's `details`, or any error's message. */
function errorText(e: unknown): string {
  const err = e as { details?: string; message?: string };
  return err.details || err.message || String(e);
}

function ctxFields(ctx: HostCallContext) {
  return { executionId: ctx.executionId, function: ctx.functionName };
}

function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** Credentials refused: PostgreSQL 28P01/28000, MySQL 1044/1045, gRPC UNAUTHENTICATED/PERMISSION_DENIED. */
function isAuthFailure(e: unknown): boolean {
  const err = e as { code?: unknown; errno?: unknown };
  return (
    err.code === "28P01" ||
    err.code === "28000" ||
    err.errno === 1044 ||
    err.errno === 1045 ||
    err.code === 16 ||
    err.code === 7
  );
}

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} is not JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${what} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

function parseMutateRequest(text: string): GraphMutateRequest {
  const req = parseJsonObject(text, "request");
  if (!Array.isArray(req.mutations)) throw new Error("request.mutations must be an array");
  if (req.query !== undefined && typeof req.query !== "string")
    throw new Error("request.query must be a string");
  const vars = req.vars === undefined ? undefined : parseJsonObject(JSON.stringify(req.vars), "request.vars");
  return {
    query: req.query as string | undefined,
    vars,
    mutations: req.mutations as GraphMutateRequest["mutations"],
  };
}
