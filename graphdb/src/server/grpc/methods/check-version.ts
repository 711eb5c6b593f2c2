/** CheckVersion — the server's version tag (open to anyone, as in Dgraph). */
import type { GrpcMethod } from "../grpc-context.ts";

export const checkVersion: GrpcMethod<unknown, { tag: string }> = async ({ version }) => ({ tag: version });
