/**
 * Child process serving one `@apollo/subgraph` of the bench over the in-memory dataset on 127.0.0.1 (free
 * port): `reference` owns Astronaut; `plain` serves Trellis's types (Mission, Astronaut.missions) in
 * Trellis's place. Prints `{"port":N}` once listening; exits when stdin closes or on SIGTERM.
 */
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import { startStandaloneServer } from "@apollo/server/standalone";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { type Astronaut, type Mission, missionsDataset } from "./missions-dataset.ts";
import { PLAIN_SCHEMA, REFERENCE_SCHEMA } from "./subgraph-schemas.ts";

const role = process.argv[2];
if (role !== "reference" && role !== "plain")
  throw new Error("usage: apollo-subgraph-child.ts reference|plain");

const { astronauts, missions } = missionsDataset();
const astronautById = new Map(astronauts.map((a) => [a.id, a]));
const missionById = new Map(missions.map((m) => [m.id, m]));
const missionsOf = new Map<string, Mission[]>();
for (const m of missions) for (const a of m.crew) missionsOf.set(a, [...(missionsOf.get(a) ?? []), m]);

const reference = {
  typeDefs: parse(REFERENCE_SCHEMA),
  resolvers: {
    Query: { astronauts: (_: unknown, { ids }: { ids: string[] }) => ids.map((id) => astronautById.get(id)) },
    Astronaut: { __resolveReference: (ref: { id: string }) => astronautById.get(ref.id) },
  },
};

const plain = {
  typeDefs: parse(PLAIN_SCHEMA),
  resolvers: {
    Query: { missions: (_: unknown, { ids }: { ids: string[] }) => ids.map((id) => missionById.get(id)) },
    Mission: {
      __resolveReference: (ref: { id: string }) => missionById.get(ref.id),
      // Like Trellis with @provides, the crew's name and age come from this side's own copy.
      crew: (m: Mission): Astronaut[] => m.crew.map((id) => astronautById.get(id) as Astronaut),
    },
    Astronaut: {
      // An astronaut this side knows (Trellis: one added by its id) with its missions.
      __resolveReference: (ref: { id: string }) =>
        astronautById.has(ref.id) ? { id: ref.id, missions: missionsOf.get(ref.id) ?? [] } : null,
    },
  },
};

const server = new ApolloServer({
  schema: buildSubgraphSchema(role === "reference" ? reference : plain),
  plugins: [ApolloServerPluginInlineTraceDisabled()],
});
const { url } = await startStandaloneServer(server, { listen: { port: 0, host: "127.0.0.1" } });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(url).port) })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await server.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.stdin.on("end", () => void shutdown());
process.stdin.resume();
