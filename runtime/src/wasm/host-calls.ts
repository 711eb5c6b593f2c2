/**
 * What the runtime's main thread serves to guests: one async method per function of the WIT `host`
 * interface (runtime/wit/host.wit), with the same parameters in camelCase. Implemented by
 * connections/host-dispatcher.ts over the app's manifest and secrets; called by the worker bridge.
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
}

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
}

export type LogLevel = "debug" | "info" | "warning" | "error";

export interface LogEntry {
  level: LogLevel;
  message: string;
}
