/**
 * Dgraph's "poor man's auth" (`--security token=…`): when a shared secret is configured, `/alter` needs it
 * in the `X-Dgraph-AuthToken` header.
 */
import { timingSafeEqual } from "node:crypto";
import { DgraphError, GrpcStatus } from "../core/errors.ts";

export const AUTH_TOKEN_HEADER = "x-dgraph-authtoken";

/** Throws Dgraph's error unless `provided` matches `expected` (no check when nothing is configured). */
export function checkAuthToken(expected: string | undefined, provided: string | undefined): void {
  if (expected === undefined || expected === "") return;
  if (provided === undefined || provided === "") {
    throw new DgraphError(
      "No Auth Token found. Token needed for Admin operations.",
      "Error",
      GrpcStatus.PERMISSION_DENIED,
    );
  }
  const a = Buffer.from(provided);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new DgraphError(
      `Provided auth token [${provided}] does not match. Permission denied.`,
      "Error",
      GrpcStatus.PERMISSION_DENIED,
    );
  }
}
