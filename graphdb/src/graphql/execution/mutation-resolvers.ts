/** The generated Mutation fields: not yet built. */
import type { GraphQLResolveInfo } from "graphql";
import type { OperationContext } from "./operation-context.ts";

export async function resolveMutationField(
  _ctx: OperationContext,
  _args: Record<string, unknown>,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  throw new Error(`${info.fieldName}: mutations are not served yet`);
}
