import { createYoga, type Plugin } from "graphql-yoga";
import {
  appMemoryPool,
  DEFAULT_MEMORY_LIMITS,
  type MemoryPool,
  RequestMemory,
  totalMemoryPool,
} from "../memory/memory-budget.ts";
import type { FunctionInvoker } from "../wasm/function-invoker.ts";
import type { JwtClaims, LogEntry } from "../wasm/host-calls.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import { installCustomScalars } from "./custom-scalars.ts";
import type { ExecutionRecord } from "./execution-record.ts";
import { createFunctionCaller } from "./function-caller.ts";
import {
  buildSchema,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  responsePathAsArray,
} from "./graphql-js.ts";
import { DEFAULT_OPERATION_LIMITS, type OperationLimits, operationLimitPlugins } from "./operation-limits.ts";
import { buildAppSchema, type FieldBinding } from "./schema-builder.ts";

/**
 * Serves an app's functions as GraphQL over the fetch API (graphql-yoga). Each root field invokes its WIT
 * function with a fresh execution id; the response carries `extensions.invocations.<alias>` with the
 * execution id, logs and duration, error-level logs as extra `errors[]` entries (`extensions.level`),
 * and a failed call as an error with `path`, a typed `extensions.code` and `data.<alias>: null`.
 */
export interface GraphQLHandlerOptions {
  world: AppWorld;
  invoker: FunctionInvoker;
  newExecutionId?: () => string;
  onExecution?: (e: ExecutionRecord) => void;
  /** Serve yoga's GraphiQL on GET; off by default (the explorer replaces it). */
  graphiql?: boolean;
  /** Bounds on one request (aliases, depth, tokens, cost, directives, function calls). */
  limits?: Partial<OperationLimits>;
  /**
   * The memory its requests hold: the app's pool (inside the server's total) and the bound of one request
   * (defaults: `DEFAULT_MEMORY_LIMITS`, in a pool of this handler's own).
   */
  memory?: RequestMemoryOptions;
}

export interface RequestMemoryOptions {
  app: MemoryPool;
  requestBytes?: number;
}

/** Who a request comes from, as its server verified it (the platform's gateway, `trellis dev`). */
export interface RequestAuth {
  /**
   * The verified claims of the user's JWT that authorized the request (endpoints declared
   * `"auth": "jwt"`); every function call of the request sees them through the `jwt-claims` host call.
   */
  jwtClaims?: JwtClaims;
}

export interface GraphQLHandler {
  sdl: string;
  fields: FieldBinding[];
  /** Serves a request; with `only`, an endpoint serving only these functions (GraphQL field names). */
  fetch(request: Request, auth?: RequestAuth, only?: readonly string[]): Promise<Response>;
}

interface Invocation {
  executionId: string;
  logs: LogEntry[];
  durationMs: number;
}

/** Per-request state the resolvers fill and the response hook reads. */
interface RequestState {
  invocations: Record<string, Invocation>;
  logErrors: GraphQLError[];
  /** Function calls this request has made. */
  calls: number;
  /** The request's verified JWT claims, passed to every call it makes. */
  jwtClaims?: JwtClaims;
  /** What the request's calls received, charged against its memory bounds. */
  memory: RequestMemory;
}

export function createGraphQLHandler(options: GraphQLHandlerOptions): GraphQLHandler {
  const { sdl, fields } = buildAppSchema(options.world);
  const call = createFunctionCaller({
    world: options.world,
    invoker: options.invoker,
    newExecutionId: options.newExecutionId,
    onExecution: options.onExecution,
  });
  const limits: OperationLimits = { ...DEFAULT_OPERATION_LIMITS, ...options.limits };
  const memory = options.memory ?? { app: appMemoryPool("app", totalMemoryPool()) };
  const requestBytes = memory.requestBytes ?? DEFAULT_MEMORY_LIMITS.requestBytes;

  async function resolveCall(
    binding: FieldBinding,
    args: Record<string, unknown>,
    state: RequestState,
    info: GraphQLResolveInfo,
  ): Promise<unknown> {
    if (++state.calls > limits.maxCalls) {
      throw new GraphQLError(
        `this request calls more than ${limits.maxCalls} functions, the limit per request; split it into several requests`,
        { extensions: { code: "RESOURCE_EXHAUSTED" } },
      );
    }
    const { executionId, logs, durationMs, value, failure } = await call(binding, args, {
      memory: state.memory,
      ...(state.jwtClaims ? { jwtClaims: state.jwtClaims } : {}),
    });
    state.invocations[info.path.key as string] = { executionId, logs, durationMs };
    for (const log of logs) {
      if (log.level === "error") {
        state.logErrors.push(
          new GraphQLError(log.message, {
            path: responsePathAsArray(info.path),
            extensions: { level: "error" },
          }),
        );
      }
    }
    if (failure) throw new GraphQLError(failure.message, { extensions: { code: failure.code } });
    return value;
  }

  const yogaFor = (built: { sdl: string; fields: FieldBinding[] }) => {
    const schema = buildSchema(built.sdl);
    installCustomScalars(schema);
    for (const binding of built.fields) {
      const root = schema.getType(binding.rootType) as GraphQLObjectType;
      root.getFields()[binding.fieldName]!.resolve = (_src, args, ctx, info) =>
        resolveCall(
          binding,
          args as Record<string, unknown>,
          (ctx as { trellis: RequestState }).trellis,
          info,
        );
    }
    return createYoga<{ trellisAuth?: RequestAuth; memory: RequestMemory }, { trellis: RequestState }>({
      schema,
      graphqlEndpoint: "*",
      graphiql: options.graphiql ?? false,
      landingPage: false,
      logging: false,
      maskedErrors: { isDev: false },
      context: ({ trellisAuth, memory }) => ({
        trellis: {
          invocations: {},
          logErrors: [],
          calls: 0,
          memory,
          ...(trellisAuth?.jwtClaims ? { jwtClaims: trellisAuth.jwtClaims } : {}),
        },
      }),
      plugins: [...operationLimitPlugins(limits), invocationsExtension()],
    });
  };
  const yoga = yogaFor({ sdl, fields });
  /** Yoga servers of endpoints that serve some functions, by their list. */
  const scoped = new Map<string, ReturnType<typeof yogaFor>>();
  const yogaOf = (only: readonly string[] | undefined) => {
    if (only === undefined) return yoga;
    const key = [...only].sort().join(",");
    let found = scoped.get(key);
    if (found === undefined) scoped.set(key, (found = yogaFor(buildAppSchema(options.world, only))));
    return found;
  };

  return {
    sdl,
    fields,
    // The auth travels as yoga's server context: per request, never shared between concurrent ones.
    async fetch(request, auth, only) {
      const full = memory.app.fullReason();
      if (full !== undefined) return memoryRefusal(full);
      const account = new RequestMemory(memory.app, requestBytes);
      let response: Response;
      try {
        response = await yogaOf(only).fetch(request, { trellisAuth: auth ?? {}, memory: account });
      } catch (error) {
        account.release();
        throw error;
      }
      return releasedWhenSent(response, () => account.release());
    },
  };
}

/** Pieces a response body is handed on in, so that its end is seen only when the client has taken the rest. */
const PIECE_BYTES = 64 * 1024;

/**
 * The response, with `release` called once its body has been read to the end or cancelled: the answer
 * holds the request's memory until it has left (a client that reads slowly keeps it held). The body goes
 * out in 64 KiB pieces, read one at a time, so that a consumer's read-ahead cannot reach the end early.
 */
function releasedWhenSent(response: Response, release: () => void): Response {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  let rest: Uint8Array | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!rest || rest.byteLength === 0) {
          const { done, value } = await reader.read().catch((error) => {
            release();
            throw error;
          });
          if (done) {
            release();
            controller.close();
            return;
          }
          rest = value;
        }
        controller.enqueue(rest.subarray(0, PIECE_BYTES));
        rest = rest.subarray(PIECE_BYTES);
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A request refused before it runs because its app (or the server) holds all the memory it may. */
function memoryRefusal(message: string): Response {
  const body = { errors: [{ message, extensions: { code: "RESOURCE_EXHAUSTED" } }] };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { "content-type": "application/json; charset=utf-8", "retry-after": "1" },
  });
}

/** Adds `extensions.invocations` and the error-level log entries to each execution result. */
function invocationsExtension(): Plugin<{ trellis: RequestState }> {
  return {
    onExecute({ args }) {
      const state = (args.contextValue as { trellis: RequestState }).trellis;
      return {
        onExecuteDone({ result, setResult }) {
          if (!state || Symbol.asyncIterator in result) return;
          if (Object.keys(state.invocations).length === 0 && state.logErrors.length === 0) return;
          const errors = [...(result.errors ?? []), ...state.logErrors];
          setResult({
            ...result,
            ...(errors.length > 0 ? { errors } : {}),
            extensions: { ...(result.extensions ?? {}), invocations: state.invocations },
          });
        },
      };
    },
  };
}
