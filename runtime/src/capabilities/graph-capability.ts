/**
 * Host capability `graphdb`: `graph-query`, `graph-mutate` and `graph-alter` on a declared graph database
 * connection over gRPC (one client per connection, opened on first use; loopback targets go to the host's
 * own graph database when it has one), and the probe of those connections.
 */
import { GraphClient, type GraphMutateRequest, isLoopbackTarget } from "../connections/graph-connection.ts";
import type { CapabilityFactory } from "./host-capability.ts";

export const graphCapability: CapabilityFactory<"graphQuery" | "graphMutate" | "graphAlter"> = ({
  connections,
  trace,
  outbound: { timeoutMs },
  loopbackGraphdb,
  egress,
}) => {
  const clients = new Map<string, GraphClient>();

  function client(name: string): GraphClient {
    const conn = connections.get(name, "graphdb");
    let client = clients.get(name);
    if (!client) {
      const local = loopbackGraphdb !== undefined && isLoopbackTarget(conn.grpcTarget);
      // The host's own graph database, reached through the platform's redirect, is not egress; any other
      // target (loopback ones too, when the host has no database to redirect to) is checked.
      client = local
        ? new GraphClient(loopbackGraphdb, undefined, { timeoutMs })
        : new GraphClient(conn.grpcTarget, conn.key, { timeoutMs, egress });
      clients.set(name, client);
    }
    return client;
  }

  return {
    calls: {
      graphQuery: (ctx, connection, query, vars) =>
        trace.onConnection(ctx, "graphQuery", connection, async () =>
          client(connection).query(query, parseJsonObject(vars, "vars"), ctx.deadline),
        ),
      graphMutate: (ctx, connection, request) =>
        trace.onConnection(ctx, "graphMutate", connection, async () =>
          JSON.stringify(await client(connection).mutate(parseMutateRequest(request), ctx.deadline)),
        ),
      graphAlter: (ctx, connection, schema) =>
        trace.onConnection(ctx, "graphAlter", connection, async () => {
          await client(connection).alter(schema, ctx.deadline);
          return JSON.stringify({ code: "Success", message: "Done" });
        }),
    },
    probe: {
      type: "graphdb",
      async check(name) {
        await client(name).query("{ q(func: uid(0x1)) { uid } }", {});
        return { authenticated: true, detail: "query succeeded" };
      },
    },
    async close() {
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
};

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
