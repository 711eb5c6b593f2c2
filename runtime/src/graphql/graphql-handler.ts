import { createYoga, type Plugin } from "graphql-yoga";
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
  fetch(request: Request, auth?: RequestAuth): Promise<Response>;
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
}

export function createGraphQLHandler(options: GraphQLHandlerOptions): GraphQLHandler {
  const { sdl, fields } = buildAppSchema(options.world);
  const schema = buildSchema(sdl);
  installCustomScalars(schema);
  const call = createFunctionCaller({
    world: options.world,
    invoker: options.invoker,
    newExecutionId: options.newExecutionId,
    onExecution: options.onExecution,
  });
  const limits: OperationLimits = { ...DEFAULT_OPERATION_LIMITS, ...options.limits };

  for (const binding of fields) {
    const root = schema.getType(binding.rootType) as GraphQLObjectType;
    root.getFields()[binding.fieldName]!.resolve = (_src, args, ctx, info) =>
      resolveCall(binding, args as Record<string, unknown>, (ctx as { trellis: RequestState }).trellis, info);
  }

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
    const { executionId, logs, durationMs, value, failure } = await call(
      binding,
      args,
      state.jwtClaims ? { jwtClaims: state.jwtClaims } : {},
    );
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

  const yoga = createYoga<{ trellisAuth?: RequestAuth }, { trellis: RequestState }>({
    schema,
    graphqlEndpoint: "*",
    graphiql: options.graphiql ?? false,
    landingPage: false,
    logging: false,
    maskedErrors: { isDev: false },
    context: ({ trellisAuth }) => ({
      trellis: {
        invocations: {},
        logErrors: [],
        calls: 0,
        ...(trellisAuth?.jwtClaims ? { jwtClaims: trellisAuth.jwtClaims } : {}),
      },
    }),
    plugins: [...operationLimitPlugins(limits), invocationsExtension()],
  });

  return {
    sdl,
    fields,
    // The auth travels as yoga's server context: per request, never shared between concurrent ones.
    fetch: (request, auth) => Promise.resolve(yoga.fetch(request, { trellisAuth: auth ?? {} })),
  };
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
