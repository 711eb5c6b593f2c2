import type { RequestMemory } from "../memory/memory-budget.ts";

/**
 * What the runtime's main thread serves to guests: one async method per function of the WIT `host`
 * interface (runtime/wit/host.wit), with the same parameters in camelCase. Implemented by
 * capabilities/host-dispatcher.ts over the app's manifest and secrets; called by the worker bridge.
 *
 * A rejected promise becomes the `err` side of the WIT result (its message is what the guest sees).
 */
export interface HttpResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** Per-call context: which execution a host call belongs to (for logs and activity). */
export interface HostCallContext {
  executionId: string;
  functionName: string;
  /** When the function call's time runs out (epoch ms), set once it runs: host calls need not outlive it. */
  deadline?: number;
  /**
   * The verified claims of the user's JWT that authorized this call, as the gateway or `trellis dev`
   * verified them (endpoints declared `"auth": "jwt"`); absent for API keys and public endpoints.
   */
  jwtClaims?: JwtClaims;
  /**
   * The memory account of the request the call serves (main thread only): host answers are charged to it
   * by the dispatcher (`createHostDispatcher`), and refused once the request, its app or the server is over
   * its bound.
   */
  memory?: RequestMemory;
}

/** A verified JWT's claims (its JSON payload). */
export type JwtClaims = Record<string, unknown>;

export interface HostCalls {
  httpFetch(
    ctx: HostCallContext,
    url: string,
    method: string,
    headers: [string, string][],
    body: string | undefined,
  ): Promise<HttpResponse>;
  sqlQuery(ctx: HostCallContext, connection: string, statement: string, params: string): Promise<string>;
  sqlExecute(ctx: HostCallContext, connection: string, statement: string, params: string): Promise<string>;
  graphQuery(ctx: HostCallContext, connection: string, query: string, vars: string): Promise<string>;
  graphMutate(ctx: HostCallContext, connection: string, request: string): Promise<string>;
  graphAlter(ctx: HostCallContext, connection: string, schema: string): Promise<string>;
  modelInvoke(ctx: HostCallContext, name: string, input: string): Promise<string>;
  appSecret(ctx: HostCallContext, name: string): Promise<string>;
  /** The claims of the call's verified JWT as JSON, or undefined (WIT `none`) when it has none. */
  jwtClaims(ctx: HostCallContext): Promise<string | undefined>;
}

/**
 * The one list of host calls as values: each `HostCalls` method and the WIT `host` function it serves
 * (every function of `host` but `log`, which the worker answers itself). `satisfies` keeps it equal to
 * `HostCalls`; the bridge protocol, the worker's import object and the capability units take their names
 * from here.
 */
export const HOST_CALLS = {
  httpFetch: "http-fetch",
  sqlQuery: "sql-query",
  sqlExecute: "sql-execute",
  graphQuery: "graph-query",
  graphMutate: "graph-mutate",
  graphAlter: "graph-alter",
  modelInvoke: "model-invoke",
  appSecret: "app-secret",
  jwtClaims: "jwt-claims",
} as const satisfies Record<keyof HostCalls, string>;

/** A host call's name (camelCase, as in `HostCalls`). */
export type HostCallName = keyof typeof HOST_CALLS;

/** Every host call's name. */
export const HOST_CALL_NAMES = Object.keys(HOST_CALLS) as HostCallName[];

export type LogLevel = "debug" | "info" | "warning" | "error";

export interface LogEntry {
  level: LogLevel;
  message: string;
}
