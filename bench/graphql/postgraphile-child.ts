/**
 * Child process for the PostGraphile peer: serves the bench's relational schema (argv[2]) with PostGraphile 4
 * on 127.0.0.1 (free port), as the Trellis server child does for the graph. Prints `{"port":N}` once
 * listening and the GraphQL schema is built; exits when stdin closes or on SIGTERM.
 */
import { createServer } from "node:http";
import Module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { PG_CONFIG } from "../graphdb/postgres.ts";

// PostGraphile 4 needs graphql 15 (its own copy, under node_modules/postgraphile); two of its dependencies
// that npm hoists (graphile-build-pg, graphql-parse-resolve-info) would otherwise load the workspace's
// graphql 16, and graphql refuses types from two copies. In this process every `graphql` is PostGraphile's.
const postGraphileDir = dirname(createRequire(import.meta.url).resolve("postgraphile/package.json"));
type Resolve = (request: string, parent: unknown, isMain: boolean, options?: { paths?: string[] }) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolveFilename = loader._resolveFilename;
loader._resolveFilename = function (this: unknown, request, parent, isMain, options) {
  const ours = request === "graphql" || request.startsWith("graphql/");
  return resolveFilename.call(this, request, parent, isMain, ours ? { paths: [postGraphileDir] } : options);
};
const { postgraphile } = await import("postgraphile");

const schema = process.argv[2];
if (!schema) throw new Error("usage: postgraphile-child.ts <PostgreSQL schema>");

// Options as a production deployment would set them: no GraphiQL, no query log, no mutations (reads only).
const middleware = postgraphile({ ...PG_CONFIG, max: 4 }, schema, {
  graphqlRoute: "/graphql",
  graphiql: false,
  disableQueryLog: true,
  disableDefaultMutations: true,
  dynamicJson: true,
  setofFunctionsContainNulls: false,
  legacyRelations: "omit",
  ignoreRBAC: false,
  retryOnInitFail: false,
});
await middleware.getGraphQLSchema();
const server = createServer(middleware);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
if (address === null || typeof address === "string") throw new Error("no TCP address");
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await middleware.release();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.stdin.on("end", () => void shutdown());
process.stdin.resume();
