/**
 * Host capability `relationaldb`: `sql-query` and `sql-execute` on a declared PostgreSQL or MySQL/MariaDB
 * connection (one pool per connection, opened on first use), and the probe of those connections.
 */
import {
  createSqlClient,
  parseSqlParams,
  type SqlClient,
  sqlJson,
} from "../connections/relational-connection.ts";
import type { CapabilityFactory } from "./host-capability.ts";

export const relationalCapability: CapabilityFactory<"sqlQuery" | "sqlExecute"> = ({
  connections,
  trace,
  outbound,
  egress,
}) => {
  const clients = new Map<string, SqlClient>();

  function client(name: string): SqlClient {
    const conn = connections.get(name, "relationaldb");
    let client = clients.get(name);
    if (!client)
      clients.set(name, (client = createSqlClient(conn.connStr, { timeoutMs: outbound.timeoutMs, egress })));
    return client;
  }

  return {
    calls: {
      sqlQuery: (ctx, connection, statement, params) =>
        trace.onConnection(ctx, "sqlQuery", connection, async () =>
          sqlJson(await client(connection).query(statement, parseSqlParams(params))),
        ),
      sqlExecute: (ctx, connection, statement, params) =>
        trace.onConnection(ctx, "sqlExecute", connection, async () =>
          sqlJson(await client(connection).execute(statement, parseSqlParams(params))),
        ),
    },
    probe: {
      type: "relationaldb",
      async check(name) {
        await client(name).query("SELECT 1", []);
        return { authenticated: true, detail: "SELECT 1 succeeded" };
      },
    },
    async close() {
      const open = [...clients.values()];
      clients.clear();
      await Promise.allSettled(open.map((c) => c.close()));
    },
  };
};
