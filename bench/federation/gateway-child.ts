/**
 * Child process running an Apollo gateway (`@apollo/gateway` with IntrospectAndCompose, served by
 * `@apollo/server`) over the subgraphs named in argv (`name=url` each) on 127.0.0.1 (free port). Prints
 * `{"port":N}` once the supergraph is composed; exits when stdin closes or on SIGTERM.
 *
 * It times each subgraph fetch as the gateway sees it (request out, response parsed): a `fetches` line on
 * stdin is answered on stdout with `{"fetches":{"<subgraph>":[ms, …]}}`, the fetches since the last ask.
 */
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from "@apollo/gateway";
import { ApolloServer } from "@apollo/server";
import { startStandaloneServer } from "@apollo/server/standalone";

const subgraphs = process.argv.slice(2).map((arg) => {
  const at = arg.indexOf("=");
  if (at < 1) throw new Error(`usage: gateway-child.ts name=url …; got ${arg}`);
  return { name: arg.slice(0, at), url: arg.slice(at + 1) };
});
if (subgraphs.length === 0) throw new Error("usage: gateway-child.ts name=url …");

const fetches = new Map<string, number[]>();

/** The gateway's data source, timing each operation it sends (the SDL fetch at start-up included). */
class TimedDataSource extends RemoteGraphQLDataSource {
  constructor(
    private readonly subgraph: string,
    url: string,
  ) {
    super({ url });
  }

  override async process(options: Parameters<RemoteGraphQLDataSource["process"]>[0]) {
    const t0 = performance.now();
    try {
      return await super.process(options);
    } finally {
      const list = fetches.get(this.subgraph) ?? [];
      list.push(performance.now() - t0);
      fetches.set(this.subgraph, list);
    }
  }
}

const server = new ApolloServer({
  gateway: new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs }),
    buildService: ({ name, url }) => new TimedDataSource(name, url ?? ""),
  }),
});
const { url } = await startStandaloneServer(server, { listen: { port: 0, host: "127.0.0.1" } });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(url).port) })}\n`);

let input = "";
process.stdin.on("data", (chunk: Buffer) => {
  input += chunk.toString("utf8");
  for (let nl = input.indexOf("\n"); nl >= 0; nl = input.indexOf("\n")) {
    const command = input.slice(0, nl).trim();
    input = input.slice(nl + 1);
    if (command !== "fetches") continue;
    process.stdout.write(`${JSON.stringify({ fetches: Object.fromEntries(fetches) })}\n`);
    fetches.clear();
  }
});

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await server.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown());
process.stdin.on("end", () => void shutdown());
