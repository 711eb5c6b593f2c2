/**
 * The platform's graph database, in a worker thread of its own: the engine, its HTTP and gRPC servers, and
 * the operations the platform asks of it (graph-operations.ts). Heavy graph work — an index build, a large
 * sort, a big mutation — then takes this thread's time and heap, never the gateway's, the console's or
 * the control plane's; its heap is bounded by the worker's resource limits, and if it dies the platform
 * starts it again (platform-graph.ts).
 *
 * `@lambda` fields are answered by the main thread (the app owning the operation's namespace), and log
 * lines go to the main thread's logger.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import {
  createGraphDB,
  createGrpcServer,
  createHttpServer,
  exportNamespace,
  GALAXY_NAMESPACE,
  type GraphDB,
  type GraphDBOptions,
  GraphQLService,
  type GraphQLServiceOptions,
  type LambdaCaller,
  LoginThrottle,
} from "@trellis/graphdb";
import { createGuardedFetch, type EgressOptions } from "@trellis/runtime/egress";
import { pino } from "pino";
import type { GraphOperations } from "./graph-operations.ts";
import {
  decodeLambdaAnswer,
  type FromGraphWorker,
  fromWireError,
  type ToGraphWorker,
  toWireError,
} from "./graph-wire.ts";
import { schemaLambdaFields } from "./lambda-field-map.ts";

export interface GraphWorkerData {
  /** The store's folder. */
  dir: string;
  /** Bytes of posting lists the engine caches (a share of the worker's heap bound). */
  cacheBytes: number;
  /** The tenants' bounds (tenant-bounds.ts): the engine's, and its GraphQL services'. */
  bounds: Pick<GraphDBOptions, "protectReservedPredicates" | "mutationLimits" | "alterLimits" | "admission">;
  graphql: Pick<GraphQLServiceOptions, "maxRemoteAnswerBytes">;
  /** The galaxy groot's password (the operator's login). */
  grootPassword: string;
  logLevel: string;
  /** Per-operation time budget of the console's GraphQL operations. */
  consoleGraphQLTimeoutMs: number;
  /** Where a tenant's schema may reach (`@custom(http:)`, `@auth` JWKS): the platform's egress policy. */
  egress: EgressOptions;
  /** Serve HTTP and gRPC; absent: the engine alone, for the console. */
  serve?: { httpPort: number; grpcPort: number; host: string; aclSecret: Uint8Array };
}

if (parentPort === null) throw new Error("graph-worker.ts runs as a worker thread of the platform");
const port: MessagePort = parentPort;
const data = workerData as GraphWorkerData;
const send = (message: FromGraphWorker) => port.postMessage(message);

const logger = pino(
  { name: "trellis-graphdb", level: data.logLevel, base: undefined },
  { write: (line: string) => send({ type: "log", line }) },
);

/** `@lambda` calls, answered by the main thread. */
const lambdaCalls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let lastLambda = 0;
const lambda: LambdaCaller = (request) =>
  new Promise((resolve, reject) => {
    const id = ++lastLambda;
    lambdaCalls.set(id, { resolve, reject });
    send({ type: "lambda", id, request });
  }).then(decodeLambdaAnswer);

function operations(engine: GraphDB, graphql: GraphQLService): GraphOperations {
  return {
    listNamespaces: async () => engine.listNamespaces(),
    createNamespace: (grootPassword) => engine.createNamespace({ grootPassword }),
    setGrootPassword: (namespace, password) => engine.setGrootPassword(namespace, password),
    dropNamespace: (namespace) => engine.dropNamespace(namespace),
    async query(namespace, query, vars) {
      const res = await engine.query({ namespace, query, vars, readOnly: true });
      return { json: res.json, latency: { ...res.latency }, txn: { start_ts: res.txn.start_ts } };
    },
    alter: (operation) => engine.alter(operation),
    async exportNamespace(namespace, format, exportDir) {
      const graphqlSchema = (await graphql.storedSchema(namespace))?.schema;
      return exportNamespace(engine, namespace, format, exportDir, graphqlSchema);
    },
    storedGraphQLSchema: (namespace) => graphql.storedSchema(namespace),
    async currentGraphQLSchema(namespace) {
      const build = await graphql.current(namespace);
      if (build === undefined) return undefined;
      return {
        generatedSchema: build.generatedSchema,
        federated: build.federated,
        lambdaFields: schemaLambdaFields(build.schema),
      };
    },
    async updateGraphQLSchema(namespace, sdl) {
      const { build } = await graphql.updateSchema(namespace, sdl);
      return { generatedSchema: build.generatedSchema };
    },
    executeGraphQL: (namespace, operation) => graphql.executeJson(namespace, operation),
  };
}

async function start(): Promise<() => Promise<void>> {
  const db = createGraphDB({ dir: data.dir, acl: true, cacheBytes: data.cacheBytes, ...data.bounds });
  const closers: (() => Promise<void>)[] = [() => db.close()];
  const close = async () => {
    for (const c of closers.reverse())
      await c().catch((err) => logger.warn({ err }, "graph shutdown step failed"));
  };
  try {
    await db.engine.setGrootPassword(GALAXY_NAMESPACE, data.grootPassword);
    // A tenant's schema reaches other servers only under the egress policy, on both paths.
    const fetch = createGuardedFetch(data.egress);
    closers.push(() => fetch.close());
    const graphql = new GraphQLService(db.engine, {
      ...data.graphql,
      timeoutMs: data.consoleGraphQLTimeoutMs,
      lambda,
      fetch,
    });
    const ops = operations(db.engine, graphql);
    port.on("message", (message: ToGraphWorker) => void handle(ops, message, close));
    let httpPort = 0;
    let grpcPort = 0;
    if (data.serve) {
      const { aclSecret, host } = data.serve;
      // One count of failed logins for both transports: a guesser gets no second allowance over gRPC.
      const loginThrottle = new LoginThrottle();
      const http = createHttpServer(db.engine, {
        requireAuth: true,
        aclSecret,
        logger,
        loginThrottle,
        graphql: { ...data.graphql, lambda, fetch },
      });
      httpPort = (await http.listen(data.serve.httpPort, host)).port;
      closers.push(() => http.close());
      const grpc = createGrpcServer(db.engine, { requireAuth: true, aclSecret, logger, loginThrottle });
      grpcPort = (await grpc.listen(data.serve.grpcPort, host)).port;
      closers.push(() => grpc.close());
    }
    send({ type: "ready", httpPort, grpcPort });
    return close;
  } catch (e) {
    await close();
    throw e;
  }
}

async function handle(
  ops: GraphOperations,
  message: ToGraphWorker,
  close: () => Promise<void>,
): Promise<void> {
  switch (message.type) {
    case "call": {
      try {
        const method = ops[message.method] as (...args: unknown[]) => Promise<unknown>;
        const value = await method(...message.args);
        send({ type: "result", id: message.id, ok: true, value });
      } catch (e) {
        send({ type: "result", id: message.id, ok: false, error: toWireError(e) });
      }
      return;
    }
    case "lambda-answer": {
      const call = lambdaCalls.get(message.id);
      lambdaCalls.delete(message.id);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(fromWireError(message.error));
      return;
    }
    case "close":
      await close();
      send({ type: "closed" });
      return;
  }
}

start().catch((e) => send({ type: "failed", error: toWireError(e) }));
