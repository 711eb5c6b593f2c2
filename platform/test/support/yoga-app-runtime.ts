/**
 * A real, small AppRuntime for the platform tests, standing in for the WebAssembly runtime: a build is a
 * folder with `trellis.json` (the manifest), `schema.graphql` and `resolvers.mjs` (the "component"),
 * served with graphql-yoga. Its validation errors are real: a missing or broken file rejects the build.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { parseDgraphConnectionString } from "@trellis/graphdb";
import * as dgraph from "dgraph-js";
import { buildSchema, type GraphQLFieldResolver } from "graphql";
import { createSchema, createYoga } from "graphql-yoga";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import type { AppRuntime, ExecutionRecord, LoadApp, LoadedApp, LogLine } from "../../src/app-runtime.ts";

type Resolvers = Record<string, Record<string, GraphQLFieldResolver<unknown, AppContext>>>;

/** What a resolver in `resolvers.mjs` gets as its context. */
export interface AppContext {
  env: Record<string, string>;
  log(level: string, message: string): void;
  /**
   * The app's graph namespace (LoadApp.graphdb) through the real dgraph-js client, as the WebAssembly
   * runtime's graphdb connections reach it: `query` returns the JSON, `mutate` commits N-Quads.
   */
  graph: {
    query(dql: string): Promise<unknown>;
    mutate(nquads: string): Promise<void>;
    alter(schema: string): Promise<void>;
  };
}

/** A dgraph-js client logged into the namespace of a `dgraph://` connection string, on first use. */
function graphClient(connection: string | undefined): { api: AppContext["graph"]; close(): void } {
  let client: { stub: dgraph.DgraphClientStub; ready: Promise<unknown> } | undefined;
  const open = () => {
    if (!connection) throw new Error("the platform gave this app no graph database");
    if (!client) {
      const target = parseDgraphConnectionString(connection);
      const stub = new dgraph.DgraphClientStub(target.target, credentials.createInsecure());
      const ready = stub.loginIntoNamespace(target.username, target.password, target.namespace ?? 0);
      client = { stub, ready };
    }
    return client;
  };
  return {
    api: {
      async query(dql) {
        const c = open();
        await c.ready;
        return (await new dgraph.DgraphClient(c.stub).newTxn({ readOnly: true }).query(dql)).getJson();
      },
      async mutate(nquads) {
        const c = open();
        await c.ready;
        const mu = new dgraph.Mutation();
        mu.setSetNquads(nquads);
        mu.setCommitNow(true);
        await new dgraph.DgraphClient(c.stub).newTxn().mutate(mu);
      },
      async alter(schema) {
        const c = open();
        await c.ready;
        const op = new dgraph.Operation();
        op.setSchema(schema);
        await new dgraph.DgraphClient(c.stub).alter(op);
      },
    },
    close: () => client?.stub.close(),
  };
}

export class YogaAppRuntime implements AppRuntime {
  /** Counters the tests observe (cold starts and scale-to-zero). */
  loads = 0;
  unloads = 0;

  async prepareBuild(buildDir: string): Promise<{ functions: string[] }> {
    const { typeDefs, resolvers } = await readBuild(buildDir);
    const schema = buildSchema(typeDefs);
    const functions: string[] = [];
    for (const type of [schema.getQueryType(), schema.getMutationType()]) {
      for (const field of Object.keys(type?.getFields() ?? {})) {
        if (!resolvers[type!.name]?.[field])
          throw new Error(`resolvers.mjs has no resolver for ${type!.name}.${field}`);
        functions.push(field);
      }
    }
    return { functions: functions.sort() };
  }

  async loadApp(buildDir: string, options: LoadApp): Promise<LoadedApp> {
    const { typeDefs, resolvers } = await readBuild(buildDir);
    this.loads++;
    const graph = graphClient(options.graphdb);
    const yoga = createYoga({
      schema: createSchema({ typeDefs, resolvers: recorded(resolvers, options, graph.api) }),
      graphqlEndpoint: "*",
      logging: false,
      maskedErrors: false,
    });
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      this.unloads++;
      graph.close();
      await yoga.dispose();
    };
    return {
      fetch: async (request) => {
        if (released) throw new Error("the app was unloaded");
        return yoga.fetch(request);
      },
      unload: release,
      close: release,
    };
  }
}

async function readBuild(buildDir: string): Promise<{ typeDefs: string; resolvers: Resolvers }> {
  const manifestText = await readFile(join(buildDir, "trellis.json"), "utf8").catch(() => {
    throw new Error("trellis.json was not found in the build");
  });
  const errors: ParseError[] = [];
  const manifest = parse(manifestText, errors);
  if (errors.length > 0) {
    const e = errors[0];
    throw new Error(`trellis.json: ${printParseErrorCode(e.error)} at offset ${e.offset}`);
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new Error("trellis.json must be a JSON object");
  }
  const typeDefs = await readFile(join(buildDir, "schema.graphql"), "utf8").catch(() => {
    throw new Error("schema.graphql was not found in the build");
  });
  const componentFile = join(buildDir, "resolvers.mjs");
  await readFile(componentFile).catch(() => {
    throw new Error("the component resolvers.mjs was not found in the build");
  });
  const module = (await import(pathToFileURL(componentFile).href)) as { resolvers?: Resolvers };
  if (!module.resolvers) throw new Error("resolvers.mjs does not export `resolvers`");
  return { typeDefs, resolvers: module.resolvers };
}

/** Wraps every Query/Mutation resolver so each call becomes an ExecutionRecord. */
function recorded(resolvers: Resolvers, options: LoadApp, graph: AppContext["graph"]): Resolvers {
  const out: Resolvers = {};
  for (const [typeName, fields] of Object.entries(resolvers)) {
    out[typeName] = {};
    for (const [field, resolve] of Object.entries(fields)) {
      out[typeName][field] = async (source, args, _ctx, info) => {
        const logs: LogLine[] = [];
        const context: AppContext = {
          env: options.env,
          log: (level, message) => logs.push({ level, message }),
          graph,
        };
        const startedAt = new Date();
        const t0 = performance.now();
        const report = (status: ExecutionRecord["status"], error?: string) =>
          options.onExecution({
            executionId: randomUUID(),
            function: field,
            status,
            durationMs: performance.now() - t0,
            startedAt: startedAt.toISOString(),
            logs,
            error,
          });
        try {
          const result = await resolve(source, args, context, info);
          report("success");
          return result;
        } catch (e) {
          report("error", (e as Error).message);
          throw e;
        }
      };
    }
  }
  return out;
}
