/**
 * Engine and request failures as gRPC statuses, the way Dgraph's server returns them: a commit conflict is
 * ABORTED (`Transaction has been aborted. Please retry`), a request on a txn already known to be aborted is
 * FAILED_PRECONDITION (`Transaction conflict`), ACL failures are PERMISSION_DENIED / UNAUTHENTICATED, a
 * passed deadline is DEADLINE_EXCEEDED, and everything else UNKNOWN with the engine's message.
 */
import { Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { DgraphError } from "../../core/errors.ts";
import { RequestError } from "../envelope.ts";

/** `rpc error: code = X desc = ` — the HTTP rendering of a gRPC status, which gRPC itself does not repeat. */
const RPC_ERROR_PREFIX = /^rpc error: code = \w+ desc = /;

export interface GrpcFailure {
  code: status;
  details: string;
  /** The original error when it was not one the engine or the request checks raise on purpose. */
  unexpected?: unknown;
}

/** Maps anything a handler threw to the status Dgraph would send. */
export function grpcFailure(error: unknown): GrpcFailure {
  if (error instanceof DgraphError) {
    const details = error.message.replace(RPC_ERROR_PREFIX, "");
    if (error.grpcCode === status.UNKNOWN && details.includes("context deadline exceeded")) {
      return { code: status.DEADLINE_EXCEEDED, details };
    }
    return { code: error.grpcCode as status, details };
  }
  if (error instanceof RequestError) return { code: status.UNKNOWN, details: error.message };
  const details = error instanceof Error ? error.message : String(error);
  return { code: status.UNKNOWN, details, unexpected: error };
}

/** A `ServiceError` for a unary callback. */
export function serviceError(failure: GrpcFailure): Partial<ServiceError> {
  return { code: failure.code, details: failure.details, metadata: new Metadata() };
}
