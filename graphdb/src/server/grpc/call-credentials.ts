/**
 * A call's access: the ACL JWT in the `accessjwt` metadata, the poor-man's-auth secret in `auth-token`,
 * checked by the same guarded engine as HTTP's (guarded-engine.ts).
 */
import type { Metadata, ServerUnaryCall } from "@grpc/grpc-js";
import { guardEngine, type RequestCredentials, type RequestEngine } from "../guarded-engine.ts";
import type { GrpcContext } from "./grpc-context.ts";

/** gRPC metadata keys (grpc-js lower-cases them; dgraph-js sends `accessJwt`). */
export const ACCESS_JWT_METADATA = "accessjwt";
export const AUTH_TOKEN_METADATA = "auth-token";

function metadataString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : value.toString("utf8");
}

/** The call's credentials; `hash` is the ACL txn hash its request message carries ("" when none). */
export function callCredentials(call: ServerUnaryCall<unknown, unknown>, hash: string): RequestCredentials {
  return {
    accessToken: metadataString(call.metadata, ACCESS_JWT_METADATA),
    authToken: metadataString(call.metadata, AUTH_TOKEN_METADATA),
    hash,
  };
}

/** The engine behind this call's access checks (each call runs in its token's namespace). */
export function callEngine(
  ctx: GrpcContext,
  call: ServerUnaryCall<unknown, unknown>,
  hash: string,
): RequestEngine {
  return guardEngine(ctx.engine, ctx.guards, callCredentials(call, hash));
}
