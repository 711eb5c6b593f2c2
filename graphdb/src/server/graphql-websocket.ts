/**
 * GraphQL over WebSocket at `/graphql`, for subscriptions (and any operation): the `graphql-transport-ws`
 * protocol (graphql-ws) and the legacy `graphql-ws` one of subscriptions-transport-ws, which Dgraph's own
 * clients speak. With ACL the access token comes in the connection's init payload
 * (`X-Dgraph-AccessToken`) or the upgrade request's header. Bounds: 100 operations per connection, 10,000
 * in all, messages up to the body limit.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { GraphQLError } from "graphql";
import { makeServer } from "graphql-ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { GraphQLRequest } from "../graphql/graphql-service.ts";
import { ACCESS_TOKEN_HEADER } from "./acl.ts";
import { tokenNamespace } from "./graphql-request.ts";
import { headerValue } from "./header-value.ts";
import type { ServerContext } from "./server-context.ts";

export const MAX_OPERATIONS_PER_CONNECTION = 100;
export const MAX_OPERATIONS = 10_000;

let operations = 0;

function tokenOf(payload: unknown, request: IncomingMessage): string | undefined {
  if (payload !== null && typeof payload === "object") {
    for (const [key, value] of Object.entries(payload)) {
      if (key.toLowerCase() === ACCESS_TOKEN_HEADER && typeof value === "string") return value;
    }
  }
  return headerValue(request.headers, ACCESS_TOKEN_HEADER);
}

/** Serves GraphQL WebSocket connections on `server`'s `/graphql`; returns a function closing them all. */
export function attachGraphQLWebSocket(server: Server, ctx: ServerContext): () => void {
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
      if (ws.protocol === "graphql-ws") serveLegacy(ws, request, ctx);
      else serveTransportWs(ws, request, ctx);
    });
  });
  return () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

/** `graphql-transport-ws`, by graphql-ws's server over our service. */
function serveTransportWs(ws: WebSocket, request: IncomingMessage, ctx: ServerContext): void {
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
      if (open.size >= MAX_OPERATIONS_PER_CONNECTION || operations >= MAX_OPERATIONS) {
        return [new GraphQLError("too many subscriptions: at most 100 per connection and 10,000 in all")];
      }
      const operation: GraphQLRequest = {
        query: payload.query,
        variables: payload.variables ?? null,
        operationName: payload.operationName ?? null,
      };
      const result = await ctx.graphql.subscribe(namespace, operation);
      if (!(Symbol.asyncIterator in result) && result.errors?.length && result.data === undefined) {
        return result.errors;
      }
      open.add(id);
      operations++;
      // graphql-ws executes what onSubscribe returns; hand it the stream through `subscribe` below.
      return { schema: EMPTY_SCHEMA_MARKER, document: DOCUMENT_MARKER, rootValue: result } as never;
    },
    subscribe: (args) => args.rootValue as never,
    execute: (args) => args.rootValue as never,
    onComplete: (_c, id) => {
      if (open.delete(id)) operations--;
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
    operations -= open.size;
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
function serveLegacy(ws: WebSocket, request: IncomingMessage, ctx: ServerContext): void {
  let namespace: number | undefined;
  const running = new Map<string, AsyncIterator<unknown>>();
  const send = (message: Record<string, unknown>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const stop = (id: string) => {
    const it = running.get(id);
    if (it === undefined) return;
    running.delete(id);
    operations--;
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
        if (
          running.has(id) ||
          running.size >= MAX_OPERATIONS_PER_CONNECTION ||
          operations >= MAX_OPERATIONS
        ) {
          send({ id, type: "error", payload: { message: "too many subscriptions or a repeated id" } });
          return;
        }
        const payload = message.payload ?? {};
        const result = await ctx.graphql.subscribe(namespace, {
          query: String(payload.query ?? ""),
          variables: (payload.variables as Record<string, unknown> | null) ?? null,
          operationName: (payload.operationName as string | null) ?? null,
        });
        if (!(Symbol.asyncIterator in result)) {
          send({ id, type: "data", payload: JSON.parse(JSON.stringify(result)) });
          send({ id, type: "complete" });
          return;
        }
        running.set(id, result);
        operations++;
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
