/**
 * The messages between the platform's main thread and its graph database worker, and how errors and
 * lambda answers cross: structured clone keeps plain data only, so a `DgraphError` (or a
 * `GraphQLSchemaError` with its problems) is sent as its fields and built again on the other side, and an
 * `Error` standing for one parent's failed `@lambda` field travels as a marked object.
 */
import { DgraphError, GraphQLSchemaError, type LambdaRequest, type SchemaProblem } from "@trellis/graphdb";
import type { GraphOperationName } from "./graph-operations.ts";

/** An error as it crosses the thread boundary. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  grpcCode?: number;
  problems?: SchemaProblem[];
  /** A GraphQL error's `extensions` (an app function's failure carries its `code`). */
  extensions?: Record<string, unknown>;
}

/** Main thread → worker. */
export type ToGraphWorker =
  | { type: "call"; id: number; method: GraphOperationName; args: unknown[] }
  | { type: "lambda-answer"; id: number; ok: true; value: unknown }
  | { type: "lambda-answer"; id: number; ok: false; error: WireError }
  | { type: "close" };

/** Worker → main thread. */
export type FromGraphWorker =
  | { type: "ready"; httpPort: number; grpcPort: number }
  | { type: "failed"; error: WireError }
  | { type: "result"; id: number; ok: true; value: unknown }
  | { type: "result"; id: number; ok: false; error: WireError }
  | { type: "lambda"; id: number; request: LambdaRequest }
  | { type: "log"; line: string }
  | { type: "closed" };

export function toWireError(e: unknown): WireError {
  if (e instanceof GraphQLSchemaError) {
    return { name: e.name, message: e.message, code: e.code, problems: e.problems };
  }
  if (e instanceof DgraphError) {
    return { name: e.name, message: e.message, code: e.code, grpcCode: e.grpcCode };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  const { extensions } = err as { extensions?: unknown };
  return typeof extensions === "object" && extensions !== null
    ? { name: err.name, message: err.message, extensions: { ...extensions } }
    : { name: err.name, message: err.message };
}

/** The error again, as the class the engine threw (so routes tell a caller's mistake from a failure). */
export function fromWireError(wire: WireError): Error {
  if (wire.problems !== undefined) return new GraphQLSchemaError(wire.problems);
  if (wire.code !== undefined) {
    const e = new DgraphError(wire.message, wire.code as DgraphError["code"], wire.grpcCode);
    e.name = wire.name;
    return e;
  }
  const e = new Error(wire.message) as Error & { extensions?: Record<string, unknown> };
  e.name = wire.name;
  if (wire.extensions !== undefined) e.extensions = wire.extensions;
  return e;
}

const FAILED_PARENT = "__trellisLambdaError";

/** A lambda answer made cloneable: `Error` entries (one parent's failure) become marked objects. */
export function encodeLambdaAnswer(value: unknown): unknown {
  const mark = (v: unknown) => (v instanceof Error ? { [FAILED_PARENT]: toWireError(v) } : v);
  return Array.isArray(value) ? value.map(mark) : mark(value);
}

/** The answer as the database expects it: marked entries are `Error`s again. */
export function decodeLambdaAnswer(value: unknown): unknown {
  const revive = (v: unknown) =>
    v !== null && typeof v === "object" && FAILED_PARENT in v
      ? fromWireError((v as Record<string, WireError>)[FAILED_PARENT])
      : v;
  return Array.isArray(value) ? value.map(revive) : revive(value);
}
