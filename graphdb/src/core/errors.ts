import { MAX_KEY_BYTES } from "../store/keys.ts";

/**
 * Errors raised by the engine. Transports map them to wire shapes: HTTP returns them as
 * `{"errors":[{"message","extensions":{"code"}}]}`; gRPC maps `grpcCode` to a status.
 */
export type DgraphErrorCode = "ErrorInvalidRequest" | "Error" | "ErrorUnauthorized" | "ErrorNoData";

/** gRPC status codes used by Dgraph (subset of @grpc/grpc-js `status`). */
export const GrpcStatus = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNAUTHENTICATED: 16,
} as const;

export class DgraphError extends Error {
  constructor(
    message: string,
    readonly code: DgraphErrorCode = "ErrorInvalidRequest",
    readonly grpcCode: number = GrpcStatus.UNKNOWN,
  ) {
    super(message);
    this.name = "DgraphError";
  }
}

/** The commit lost a conflict (first committer wins). Text exactly as Dgraph's. */
export class TxnAbortedError extends DgraphError {
  constructor() {
    super("Transaction has been aborted. Please retry", "ErrorInvalidRequest", GrpcStatus.ABORTED);
    this.name = "TxnAbortedError";
  }
}

/** A mutation or query on a transaction the server already aborted. */
export class TxnConflictError extends DgraphError {
  constructor() {
    super("Transaction conflict", "ErrorInvalidRequest", GrpcStatus.FAILED_PRECONDITION);
    this.name = "TxnConflictError";
  }
}

/** Refuses an index key longer than the store takes (a value too large to index), as Dgraph does. */
export function checkIndexKeyLength(bytes: number): void {
  if (bytes > MAX_KEY_BYTES) throw new DgraphError("value in the mutation is too large for the index");
}
