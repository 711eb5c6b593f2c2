/**
 * GraphQL over WebSocket at `/graphql`, for subscriptions (and any operation): the `graphql-transport-ws`
 * protocol (graphql-ws) and the legacy `graphql-ws` one of subscriptions-transport-ws, which Dgraph's own
 * clients speak. With ACL the access token comes in the connection's init payload
 * (`X-Dgraph-AccessToken`) or the upgrade request's header. Bounds: 100 operations per connection, 10,000
 * in all, messages up to the body limit.
 */
import type { IncomingMessage, Server } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import { makeServer } from "graphql-ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { GraphQLRequest } from "../graphql/graphql-service.ts";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { tokenNamespace } from "./graphql-request.ts";
import { headerValue } from "./header-value.ts";
import type { ServerContext } from "./server-context.ts";

/** Operations (subscriptions) running at once: per connection, and on the whole server. */
export interface SubscriptionLimits {
  perConnection: number;
  total: number;
}

/**
 * graphql-ws accepts refusals from onSubscribe only as `instanceof GraphQLError` of the graphql it loads
 * itself, which Node resolves to the package's CommonJS main; the class is taken from there, so the check
 * holds wherever this file is loaded from (a bundler or test runner may hand it graphql's ESM build).
 */
const { GraphQLError } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { perConnection: 100, total: 10_000 };

/**
 * The server's count of running operations. A slot is taken when an operation is accepted, before any
 * await, and given back if it does not start after all: concurrent subscribes can never pass the bound
 * between its check and its count.
 */
class OperationSlots {
  private taken = 0;

  constructor(readonly limits: SubscriptionLimits) {}

  take(): boolean {
    if (this.taken >= this.limits.total) return false;
    this.taken++;
    return true;
  }

  give(count = 1): void {
    this.taken -= count;
  }

  tooMany(): string {
    const { perConnection, total } = this.limits;
    return `too many subscriptions: at most ${perConnection} per connection and ${total} in all; close some first`;
  }
}

function tokenOf(payload: unknown, request: IncomingMessage): string | undefined {
  if (payload !== null && typeof payload === "object") {
    for (const [key, value] of Object.entries(payload)) {
      if (key.toLowerCase() === ACCESS_TOKEN_HEADER && typeof value === "string") return value;
    }
  }
  return headerValue(request.headers, ACCESS_TOKEN_HEADER);
}

/** Serves GraphQL WebSocket connections on `server`'s `/graphql`; returns a function closing them all. */
export function attachGraphQLWebSocket(
  server: Server,
  ctx: ServerContext,
  limits: SubscriptionLimits = DEFAULT_SUBSCRIPTION_LIMITS,
): () => void {
  const slots = new OperationSlots(limits);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: ctx.bodyLimit,
    handleProtocols: (protocols) =>
      protocols.has("graphql-transport-ws")
        ? "graphql-transport-ws"
        : protocols.has("graphql-ws")
          ? "graphql-ws"
          : false,
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? "/", "http://x").pathname !== "/graphql") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (ws.protocol === "graphql-ws") serveLegacy(ws, request, ctx, slots);
      else serveTransportWs(ws, request, ctx, slots);
    });
  });
  return () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

/** `graphql-transport-ws`, by graphql-ws's server over our service. */
function serveTransportWs(
  ws: WebSocket,
  request: IncomingMessage,
  ctx: ServerContext,
  slots: OperationSlots,
): void {
  let namespace = 0;
  /** This connection's running operations, so each is counted off the global bound exactly once. */
  const open = new Set<string>();
  const server = makeServer<Record<string, unknown>>({
    onConnect: async (c) => {
      try {
        namespace = await tokenNamespace(ctx, tokenOf(c.connectionParams, request));
        return true;
      } catch {
        return false;
      }
    },
    onSubscribe: async (_c, id, payload) => {
      // Counted on acceptance, before the await below (concurrent subscribes each see the others).
      if (open.has(id) || open.size >= slots.limits.perConnection || !slots.take()) {
        return [new GraphQLError(slots.tooMany())];
      }
      open.add(id);
      let started = false;
      try {
        const operation: GraphQLRequest = {
          query: payload.query,
          variables: payload.variables ?? null,
          operationName: payload.operationName ?? null,
        };
        const result = await ctx.graphql.subscribe(namespace, operation);
        if (!(Symbol.asyncIterator in result) && result.errors?.length && result.data === undefined) {
          return result.errors;
        }
        started = true;
        // graphql-ws executes what onSubscribe returns; hand it the stream through `subscribe` below.
        return { schema: EMPTY_SCHEMA_MARKER, document: DOCUMENT_MARKER, rootValue: result } as never;
      } finally {
        if (!started && open.delete(id)) slots.give();
      }
    },
    subscribe: (args) => args.rootValue as never,
    execute: (args) => args.rootValue as never,
    onComplete: (_c, id) => {
      if (open.delete(id)) slots.give();
    },
  });
  const closed = server.opened(
    {
      protocol: ws.protocol,
      send: (data) =>
        new Promise<void>((resolve, reject) => ws.send(data, (err) => (err ? reject(err) : resolve()))),
      close: (code, reason) => ws.close(code, reason),
      onMessage: (cb) => ws.on("message", (data) => void cb(String(data)).catch(() => ws.close(4400))),
    },
    {},
  );
  ws.once("close", (code, reason) => {
    slots.give(open.size);
    open.clear();
    void closed(code, String(reason));
  });
}

const EMPTY_SCHEMA_MARKER = {};
const DOCUMENT_MARKER = {
  kind: "Document",
  definitions: [{ kind: "OperationDefinition", operation: "subscription" }],
};

/** The legacy `graphql-ws` protocol (subscriptions-transport-ws): init/ack, start/data/complete, stop. */
function serveLegacy(
  ws: WebSocket,
  request: IncomingMessage,
  ctx: ServerContext,
  slots: OperationSlots,
): void {
  let namespace: number | undefined;
  const running = new Map<string, AsyncIterator<unknown>>();
  const send = (message: Record<string, unknown>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const stop = (id: string) => {
    const it = running.get(id);
    if (it === undefined) return;
    running.delete(id);
    slots.give();
    void it.return?.();
  };
  const pump = async (id: string, stream: AsyncIterator<unknown>) => {
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done || !running.has(id)) break;
        send({ id, type: "data", payload: JSON.parse(JSON.stringify(next.value)) });
      }
    } finally {
      if (running.has(id)) {
        stop(id);
        send({ id, type: "complete" });
      }
    }
  };
  const handle = async (data: unknown) => {
    let message: { id?: string; type?: string; payload?: Record<string, unknown> };
    try {
      message = JSON.parse(String(data));
    } catch {
      send({ type: "connection_error", payload: { message: "messages must be JSON" } });
      return;
    }
    const id = String(message.id ?? "");
    switch (message.type) {
      case "connection_init":
        try {
          namespace = await tokenNamespace(ctx, tokenOf(message.payload, request));
          send({ type: "connection_ack" });
          send({ type: "ka" });
        } catch (e) {
          send({ type: "connection_error", payload: { message: (e as Error).message } });
          ws.close(1011);
        }
        return;
      case "start": {
        if (namespace === undefined) {
          send({ id, type: "error", payload: { message: "connection_init must come first" } });
          return;
        }
        if (running.has(id)) {
          send({
            id,
            type: "error",
            payload: { message: `an operation with id "${id}" is already running` },
          });
          return;
        }
        // Counted on acceptance, before the await below (messages of one connection come in order).
        if (running.size >= slots.limits.perConnection || !slots.take()) {
          send({ id, type: "error", payload: { message: slots.tooMany() } });
          return;
        }
        const payload = message.payload ?? {};
        let result: Awaited<ReturnType<typeof ctx.graphql.subscribe>>;
        try {
          result = await ctx.graphql.subscribe(namespace, {
            query: String(payload.query ?? ""),
            variables: (payload.variables as Record<string, unknown> | null) ?? null,
            operationName: (payload.operationName as string | null) ?? null,
          });
        } catch (error) {
          slots.give();
          throw error;
        }
        if (!(Symbol.asyncIterator in result) || ws.readyState !== ws.OPEN) {
          slots.give();
          if (Symbol.asyncIterator in result) void result.return?.();
          else send({ id, type: "data", payload: JSON.parse(JSON.stringify(result)) });
          send({ id, type: "complete" });
          return;
        }
        running.set(id, result);
        void pump(id, result);
        return;
      }
      case "stop":
        stop(id);
        return;
      case "connection_terminate":
        ws.close(1000);
        return;
    }
  };
  // Messages are handled in order (a start waits for the init before it), streams run on their own.
  let queue = Promise.resolve();
  ws.on("message", (data) => {
    queue = queue.then(() => handle(data)).catch(() => ws.close(1011));
  });
  ws.once("close", () => {
    for (const id of [...running.keys()]) stop(id);
  });
}
