/**
 * The pieces of the Apollo gateway tests (reference §7.2), each on loopback: Trellis's `/graphql` with a
 * schema posted to `/admin/schema`, a second subgraph built with `@apollo/subgraph`, and an Apollo gateway
 * composing them with IntrospectAndCompose.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApolloGateway, IntrospectAndCompose } from "@apollo/gateway";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import { startStandaloneServer } from "@apollo/server/standalone";
import { buildSubgraphSchema } from "@apollo/subgraph";
import type { GraphQLServiceOptions } from "../../src/graphql/graphql-service.ts";
import { createGraphDB } from "../../src/index.ts";
import { createHttpServer } from "../../src/server/http-server.ts";

/** A GraphQL response as JSON (data and errors as plain objects). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
export type GraphQLJson = { data?: any; errors?: { message: string; path?: unknown[] }[] };

export interface TrellisSubgraph {
  /** The subgraph URL a gateway is given (`…/graphql`). */
  url: string;
  /** POSTs an operation to Trellis's `/graphql` directly. */
  graphql(query: string): Promise<GraphQLJson>;
  close(): Promise<void>;
}

/** A fresh Trellis database served over HTTP on loopback, with `schema` as its GraphQL schema. */
export async function startTrellisSubgraph(
  schema: string,
  graphql: GraphQLServiceOptions = {},
): Promise<TrellisSubgraph> {
  const dir = mkdtempSync(join(tmpdir(), "graphql-gateway-"));
  const db = createGraphDB({ dir });
  const server = createHttpServer(db.engine, { keepAlive: true, graphql });
  const { port } = await server.listen(0, "127.0.0.1");
  const base = `http://127.0.0.1:${port}`;
  const res = await fetch(`${base}/admin/schema`, {
    method: "POST",
    headers: { "content-type": "application/graphql" },
    body: schema,
  });
  const answer = (await res.json()) as GraphQLJson;
  if (answer.errors?.length) throw new Error(`Trellis refused the schema: ${answer.errors[0].message}`);
  return {
    url: `${base}/graphql`,
    graphql: async (query) => {
      const r = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      return (await r.json()) as GraphQLJson;
    },
    close: async () => {
      await server.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ApolloSubgraph {
  url: string;
  stop(): Promise<void>;
}

/**
 * An `@apollo/subgraph` service on loopback. Its federation version follows the SDL, as Apollo decides:
 * Federation 2 with an `@link` to the federation spec, Federation 1 without.
 */
export async function startApolloSubgraph(
  module: Parameters<typeof buildSubgraphSchema>[0],
): Promise<ApolloSubgraph> {
  const server = new ApolloServer({
    schema: buildSubgraphSchema(module),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: "127.0.0.1" } });
  return { url, stop: () => server.stop() };
}

export interface Gateway {
  /** Runs an operation through the gateway; the result as JSON. */
  run(query: string): Promise<GraphQLJson>;
  stop(): Promise<void>;
}

/** An Apollo gateway (Federation 2 query planner) composing `subgraphs` by introspecting their `_service`. */
export async function startGateway(subgraphs: { name: string; url: string }[]): Promise<Gateway> {
  const server = new ApolloServer({
    gateway: new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) }),
  });
  await server.start();
  return {
    run: async (query) => {
      const res = await server.executeOperation({ query });
      if (res.body.kind !== "single") throw new Error("expected a single result");
      return JSON.parse(JSON.stringify(res.body.singleResult)) as GraphQLJson;
    },
    stop: () => server.stop(),
  };
}
