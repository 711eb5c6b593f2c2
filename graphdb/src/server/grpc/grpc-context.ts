import type { ServerUnaryCall } from "@grpc/grpc-js";
import type { Logger } from "pino";
import type { GraphEngine } from "../../engine/engine-api.ts";
import type { Guards } from "../guarded-engine.ts";

/** What the gRPC methods share (server-context.ts's counterpart): the engine, the access guards, facts. */
export interface GrpcContext {
  engine: GraphEngine;
  guards: Guards;
  logger: Logger;
  /** Tag reported by CheckVersion. */
  version: string;
}

/**
 * One method of `api.Dgraph`: a request message in, a response message out. Failures are thrown and become
 * Dgraph's statuses (grpc-errors.ts); logging and malformed requests are the `unary` wrapper's business.
 */
export type GrpcMethod<Req, Res> = (ctx: GrpcContext, call: ServerUnaryCall<Req, Res>) => Promise<Res>;
