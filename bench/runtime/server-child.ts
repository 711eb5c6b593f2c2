/**
 * One benchmark server in its own process (so the load generator does not share its event loop):
 *   trellis <buildDir>  the built app through @trellis/runtime (worker pool, generated GraphQL, yoga)
 *   yoga                the same logic as a plain graphql-yoga resolver (the ceiling)
 * Prints `{"port": N}` on stdout when listening.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSchema, createYoga } from "graphql-yoga";
import { loadApp, startDevServer } from "../../runtime/src/index.ts";

const [mode, buildDir] = process.argv.slice(2);
if (mode === "trellis") {
  const app = await loadApp(buildDir, { env: {}, workers: 2 });
  const server = await startDevServer({
    port: 0,
    getApp: () => ({ ...app, graphql: app }),
  });
  process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.url).port) })}\n`);
} else {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: "type Query { sayHello(name: String!): String }",
      resolvers: { Query: { sayHello: (_: unknown, { name }: { name: string }) => `Hello, ${name}!` } },
    }),
    logging: false,
  });
  const server = createServer(yoga);
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
}
