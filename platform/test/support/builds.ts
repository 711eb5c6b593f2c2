/** Build folders for the YogaAppRuntime, and archives of them, as `trellis build` would leave them. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packBuild } from "@trellis/runtime";

export interface BuildFiles {
  /** Returned by the `version` query, to tell deployments apart. */
  version?: string;
  /** null leaves the file out. */
  manifest?: string | null;
  schema?: string | null;
  resolvers?: string | null;
}

export const MANIFEST = JSON.stringify({
  connections: {
    api: {
      type: "http",
      baseUrl: "https://api.example.com/",
      headers: { Authorization: "Bearer {{API_KEY}}" },
    },
    db: { type: "relationaldb", connStr: "{{DATABASE_URL}}" },
  },
});

export const SCHEMA = `type Query {
  hello(name: String!): String!
  version: String!
  apiKey: String
  fail: String
}`;

export const resolvers = (version: string) => `export const resolvers = {
  Query: {
    hello: (_source, { name }, ctx) => { ctx.log("info", "greeting " + name); return "Hello, " + name + "!"; },
    version: () => ${JSON.stringify(version)},
    apiKey: (_source, _args, ctx) => ctx.env.TRELLIS_API_API_KEY ?? null,
    fail: () => { throw new Error("this function always fails"); },
  },
};
`;

/** Writes a build folder into `dir` and returns it. */
export async function writeBuild(dir: string, files: BuildFiles = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const version = files.version ?? "v1";
  const contents: Record<string, string | null> = {
    "trellis.json": files.manifest === undefined ? MANIFEST : files.manifest,
    "schema.graphql": files.schema === undefined ? SCHEMA : files.schema,
    "resolvers.mjs": files.resolvers === undefined ? resolvers(version) : files.resolvers,
  };
  for (const [name, text] of Object.entries(contents)) {
    if (text !== null) await writeFile(join(dir, name), text);
  }
  return dir;
}

/** A tar.gz of a fresh build folder. */
export async function buildArchive(dir: string, files: BuildFiles = {}): Promise<Buffer> {
  return packBuild(await writeBuild(dir, files));
}

/** Apps that write and read their graph through the platform-issued connection (dgraph-js, logged in). */
export const GRAPH_APP = {
  schema: `type Query { names: [String!]! }
type Mutation { seed(names: [String!]!): Boolean! }`,
  resolvers: `export const resolvers = {
  Query: {
    names: async (_s, _a, ctx) => {
      const json = await ctx.graph.query("{ q(func: has(name), orderasc: name) { name } }");
      return json.q.map((n) => n.name);
    },
  },
  Mutation: {
    seed: async (_s, { names }, ctx) => {
      await ctx.graph.alter("name: string @index(exact) .\\ntype Person {\\n  name\\n}");
      await ctx.graph.mutate(names.map((n, i) => "_:n" + i + " <name> " + JSON.stringify(n) + " .").join("\\n"));
      return true;
    },
  },
};
`,
};
