/**
 * The graph database's `@lambda` fields served by an app's functions. trellis.json's `lambdas` maps each
 * resolver (`Type.field`, `Query.field`, `Mutation.field`) to a function as the app's GraphQL API names
 * it; the database calls the app through this `LambdaCaller` (in `trellis dev` and on the platform), and
 * each call goes the way of any GraphQL call: the same worker pool, timeout, memory cap and execution
 * record (marked with the resolver it served).
 *
 * How a function receives its inputs: each parameter is filled by name, first from the field's
 * arguments, then from the parent object's fields (a type's field: the stored fields, and for an
 * `_entities` representation the fields `@requires` asked the gateway for). A parameter named `parent`
 * whose type is a record (an object type) receives the whole parent. A parameter found nowhere is passed
 * as absent: fine for an optional one, an error of that field for a required one.
 *
 * A type's field is one call per parent (up to `concurrency` at once); a failed call fails the field of
 * its parent only (an `Error` in the answer array), so a function that throws or runs past its timeout
 * leaves the rest of the response intact.
 */
import type { LambdaCaller, LambdaRequest } from "@trellis/graphdb";
import type { FunctionCaller } from "../graphql/function-caller.ts";
import type { ArgBinding, FieldBinding } from "../graphql/schema-builder.ts";
import { isTimestampRecord } from "../wit/well-known-types.ts";
import type { WitType, WitTypeDef } from "../wit/wit-types.ts";

/** Parents one lambda request may ask for (each is one function call): the default of `maxParents`. */
export const DEFAULT_MAX_LAMBDA_PARENTS = 1000;

export interface AppLambdaOptions {
  /** The app's name, for errors. */
  appName: string;
  /** trellis.json's `lambdas`: `Type.field` → function (GraphQL name). */
  lambdas: Record<string, string>;
  /** The app's functions as its GraphQL API binds them. */
  functions: readonly FieldBinding[];
  /** The app's record and enum types (WIT names). */
  types: Map<string, WitTypeDef>;
  /** Calls a function the way the app's GraphQL API does (invoker, records). */
  call: FunctionCaller;
  /** Calls made at once for one request's parents (the worker pool's size). */
  concurrency: number;
  /** Parents one request may ask for; default DEFAULT_MAX_LAMBDA_PARENTS. */
  maxParents?: number;
}

/** A failed call of a lambda's function: its field's GraphQL error, with the call's `code`. */
export class LambdaFunctionError extends Error {
  override name = "LambdaFunctionError";
  readonly extensions: { code: string; executionId?: string };

  constructor(message: string, code: string, executionId?: string) {
    super(message);
    this.extensions = executionId ? { code, executionId } : { code };
  }
}

/**
 * Why a `lambdas` map cannot be served by functions of these names, or undefined when it can. Checked
 * when an app loads and when a build is deployed.
 */
export function lambdaMapProblem(
  lambdas: Record<string, string>,
  functions: readonly string[],
): string | undefined {
  const known = new Set(functions);
  const unknown = Object.entries(lambdas).filter(([, fn]) => !known.has(fn));
  if (unknown.length === 0) return undefined;
  const list = unknown.map(([resolver, fn]) => `"${resolver}": "${fn}"`).join(", ");
  const available = functions.length > 0 ? functions.join(", ") : "none";
  return `trellis.json "lambdas" names functions the app does not export (${list}); the app's functions are: ${available}`;
}

export function createAppLambdaCaller(options: AppLambdaOptions): LambdaCaller {
  const byName = new Map(options.functions.map((f) => [f.fieldName, f]));
  const maxParents = options.maxParents ?? DEFAULT_MAX_LAMBDA_PARENTS;
  const concurrency = Math.max(1, options.concurrency);

  return async (request: LambdaRequest) => {
    if (request.resolver === WEBHOOK_RESOLVER) return callWebhook(options, byName, request);
    const { resolver } = request;
    const functionName = options.lambdas[resolver];
    const binding = functionName === undefined ? undefined : byName.get(functionName);
    if (binding === undefined) {
      const mapped = Object.keys(options.lambdas);
      throw new Error(
        `app ${options.appName} serves no lambda ${resolver} (its trellis.json "lambdas" maps ${mapped.length > 0 ? mapped.join(", ") : "nothing"}): add "${resolver}": "<function>" to it, or point the field at another app`,
      );
    }
    const callOne = async (parent: Record<string, unknown> | null): Promise<unknown> => {
      const args = fillParameters(binding, request.args, parent, options.types, resolver);
      const result = await options.call(binding, args, { lambda: resolver });
      if (result.failure) {
        throw new LambdaFunctionError(result.failure.message, result.failure.code, result.executionId);
      }
      return jsonValue(result.value);
    };
    if (request.parents === null) return callOne(null);
    if (request.parents.length > maxParents) {
      throw new Error(
        `lambda ${resolver} was asked for ${request.parents.length} objects at once; an app serves at most ${maxParents} per request (each is a call of ${binding.fieldName}): ask for fewer, e.g. with first:`,
      );
    }
    return mapConcurrently(request.parents, concurrency, (parent) =>
      callOne(parent).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
    );
  };
}

/** The resolver of `@lambdaOnMutate` events (Dgraph's webhooks). */
const WEBHOOK_RESOLVER = "$webhook";

interface WebhookEventShape {
  __typename?: unknown;
  operation?: unknown;
  commitTs?: unknown;
  [operation: string]: unknown;
}

/**
 * A `@lambdaOnMutate` event: served by the function `lambdas` maps `Type.add`, `Type.update` or
 * `Type.delete` to (as Dgraph's `addWebHookResolver("Type.add", …)`), its parameters filled by name from
 * `typename`, `operation`, `commitTs` and the operation's part of the event (`rootUIDs`, `input`,
 * `setPatch`, `removePatch`); an object value given to a string parameter arrives as JSON. An event no
 * function is mapped to is dropped: webhooks are fire-and-forget, as in Dgraph.
 */
async function callWebhook(
  options: AppLambdaOptions,
  byName: Map<string, FieldBinding>,
  request: LambdaRequest,
): Promise<unknown> {
  const event = (request as { event?: WebhookEventShape }).event;
  if (event === undefined || typeof event.__typename !== "string" || typeof event.operation !== "string")
    throw new Error("a $webhook request needs an event with __typename and operation");
  const resolver = `${event.__typename}.${event.operation}`;
  const fn = options.lambdas[resolver];
  const binding = fn === undefined ? undefined : byName.get(fn);
  if (binding === undefined) return null;
  const part = event[event.operation];
  const fields: Record<string, unknown> = {
    typename: event.__typename,
    operation: event.operation,
    commitTs: event.commitTs,
    ...(part !== null && typeof part === "object" ? (part as Record<string, unknown>) : {}),
  };
  // Parameter names went through the app's naming (`rootUIDs` may be `rootUiDs`): match them caselessly.
  const byLowerName = new Map(Object.entries(fields).map(([k, v]) => [k.toLowerCase(), v]));
  const values: Record<string, unknown> = {};
  for (const param of binding.args) {
    const v = byLowerName.get(param.name.toLowerCase());
    if (v === undefined) continue;
    const inner = param.type.kind === "option" ? param.type.of : param.type;
    const stringParam = inner.kind === "prim" && inner.name === "string";
    values[param.name] = v !== null && typeof v === "object" && stringParam ? JSON.stringify(v) : v;
  }
  const args = fillParameters(binding, values, null, options.types, resolver);
  const result = await options.call(binding, args, { lambda: resolver });
  if (result.failure)
    throw new LambdaFunctionError(result.failure.message, result.failure.code, result.executionId);
  return null;
}

/** The function's arguments by parameter name: the field's arguments, then the parent's fields. */
function fillParameters(
  binding: FieldBinding,
  fieldArgs: Record<string, unknown>,
  parent: Record<string, unknown> | null,
  types: Map<string, WitTypeDef>,
  resolver: string,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const param of binding.args) {
    const value = parameterValue(param, fieldArgs, parent, types);
    if ((value === undefined || value === null) && param.type.kind !== "option") {
      throw new LambdaFunctionError(
        `lambda ${resolver}: parameter "${param.name}" of ${binding.fieldName} is neither an argument of the field nor a field of its parent; add the argument, @requires the field, or make the parameter optional`,
        "INVALID_ARGUMENT",
      );
    }
    args[param.name] = value;
  }
  return args;
}

function parameterValue(
  param: ArgBinding,
  fieldArgs: Record<string, unknown>,
  parent: Record<string, unknown> | null,
  types: Map<string, WitTypeDef>,
): unknown {
  if (Object.hasOwn(fieldArgs, param.name)) return fieldArgs[param.name];
  if (parent === null) return undefined;
  if (param.name === "parent" && isRecordType(param.type, types)) return parent;
  return Object.hasOwn(parent, param.name) ? parent[param.name] : undefined;
}

function isRecordType(type: WitType, types: Map<string, WitTypeDef>): boolean {
  const inner = type.kind === "option" ? type.of : type;
  if (inner.kind !== "ref") return false;
  const def = types.get(inner.name);
  return def?.kind === "record" && !isTimestampRecord(def);
}

/** A GraphQL value as the database stores JSON: 64-bit integers as numbers when exact, else strings. */
function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  }
  return value;
}

/** `fn` over `items`, at most `limit` at a time, answers in order. */
async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
