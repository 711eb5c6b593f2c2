/**
 * The v25 namespace methods of `api.Dgraph` (CreateNamespace, DropNamespace, ListNamespaces), for the
 * galaxy's guardians only (Dgraph's rule): a guardian of any other namespace is refused with
 * "Only guardian of galaxy is allowed to do this operation". Without ACL they are open (to holders of the
 * auth token, when one is set), as Dgraph's are: there are no guardians then.
 *
 * A namespace created over gRPC gets Dgraph's default groot password ("password"): Dgraph's request has
 * no password field. Create namespaces in-process (`GraphDB.createNamespace({ grootPassword })`) to give
 * each its own.
 */
import { GROOT_DEFAULT_PASSWORD } from "../../acl.ts";
import { authorizeNamespaceAdmin } from "../../guarded-engine.ts";
import { callCredentials } from "../call-credentials.ts";
import type { GrpcMethod } from "../grpc-context.ts";
import type {
  ApiCreateNamespaceResponse,
  ApiDropNamespaceRequest,
  ApiListNamespacesResponse,
} from "../grpc-proto.ts";

export const createNamespace: GrpcMethod<unknown, ApiCreateNamespaceResponse> = async (ctx, call) => {
  await authorizeNamespaceAdmin(ctx.guards, callCredentials(call, ""));
  return { namespace: await ctx.engine.createNamespace({ grootPassword: GROOT_DEFAULT_PASSWORD }) };
};

export const dropNamespace: GrpcMethod<ApiDropNamespaceRequest, Record<string, never>> = async (
  ctx,
  call,
) => {
  await authorizeNamespaceAdmin(ctx.guards, callCredentials(call, ""));
  await ctx.engine.dropNamespace(call.request.namespace);
  return {};
};

export const listNamespaces: GrpcMethod<unknown, ApiListNamespacesResponse> = async (ctx, call) => {
  await authorizeNamespaceAdmin(ctx.guards, callCredentials(call, ""));
  const namespaces: Record<string, { id: number }> = {};
  for (const id of ctx.engine.listNamespaces()) namespaces[String(id)] = { id };
  return { namespaces };
};
