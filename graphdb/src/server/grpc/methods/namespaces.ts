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
import type { ServerUnaryCall } from "@grpc/grpc-js";
import type { GraphEngine } from "../../../engine/engine-api.ts";
import { GROOT_DEFAULT_PASSWORD } from "../../acl.ts";
import { authorizeNamespaceAdmin, type Guards, type RequestCredentials } from "../../guarded-engine.ts";
import type {
  ApiCreateNamespaceResponse,
  ApiDropNamespaceRequest,
  ApiListNamespacesResponse,
} from "../grpc-proto.ts";

type Call<Req> = ServerUnaryCall<Req, unknown>;

export interface NamespaceMethods {
  CreateNamespace(call: Call<unknown>): Promise<ApiCreateNamespaceResponse>;
  DropNamespace(call: Call<ApiDropNamespaceRequest>): Promise<Record<string, never>>;
  ListNamespaces(call: Call<unknown>): Promise<ApiListNamespacesResponse>;
}

export function namespaceMethods(
  engine: GraphEngine,
  guards: Guards,
  credentials: (call: Call<unknown>) => RequestCredentials,
): NamespaceMethods {
  return {
    async CreateNamespace(call) {
      await authorizeNamespaceAdmin(guards, credentials(call));
      return { namespace: await engine.createNamespace({ grootPassword: GROOT_DEFAULT_PASSWORD }) };
    },
    async DropNamespace(call) {
      await authorizeNamespaceAdmin(guards, credentials(call));
      await engine.dropNamespace(call.request.namespace);
      return {};
    },
    async ListNamespaces(call) {
      await authorizeNamespaceAdmin(guards, credentials(call));
      const namespaces: Record<string, { id: number }> = {};
      for (const id of engine.listNamespaces()) namespaces[String(id)] = { id };
      return { namespaces };
    },
  };
}
