/**
 * The payload of a generated mutation (`Add/Update/Delete<T>Payload`), built keyed by the response keys the
 * field resolver reads: `numUids`, `msg`, and `<t>(filter, order, first, offset)` — the affected nodes
 * re-queried with that field's own selection.
 */

import {
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  getNamedType,
} from "graphql";
import type { TypeModel } from "../schema/type-model.ts";
import { type ReadOptions, SELECTION_READ } from "./dql-transaction.ts";
import type { OperationContext } from "./operation-context.ts";
import { rewriteContext } from "./query-resolvers.ts";
import { collectFields, edgeModifiers, fieldArgs, selectionDql } from "./selection-rewriter.ts";

export interface PayloadCounts {
  numUids: number;
  msg?: string;
}

/** The payload's `<t>` field name: the type name with its first letter lowercased. */
export const payloadListField = (type: TypeModel) => type.name.charAt(0).toLowerCase() + type.name.slice(1);

/**
 * Reads the payload's node lists for `uids` with `read` (a transaction's query, or a fresh read after the
 * commit), and sets the counts; keys are the selection's response keys.
 */
export async function mutationPayload(
  ctx: OperationContext,
  info: GraphQLResolveInfo,
  type: TypeModel,
  uids: readonly string[],
  counts: PayloadCounts,
  read: (dql: string, options: ReadOptions) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const rc = rewriteContext(ctx, info);
  const payloadType = getNamedType(info.returnType) as GraphQLObjectType;
  const listName = payloadListField(type);
  const out: Record<string, unknown> = {};
  for (const fieldNode of info.fieldNodes) {
    if (fieldNode.selectionSet === undefined) continue;
    for (const { key, node } of collectFields(rc, payloadType, fieldNode.selectionSet)) {
      if (key in out) continue;
      const name = node.name.value;
      if (name === "numUids") out[key] = counts.numUids;
      else if (name === "msg") out[key] = counts.msg ?? null;
      else if (name === listName) {
        if (uids.length === 0) {
          out[key] = [];
          continue;
        }
        const target = getNamedType(payloadType.getFields()[name].type) as GraphQLCompositeType;
        const args = fieldArgs(rc, payloadType, node);
        const { params, filter } = edgeModifiers(rc, type, args, `type(${type.dgraphType})`);
        const funcArgs = [`func: uid(${uids.join(", ")})`, ...params].join(", ");
        const body = selectionDql(rc, target, node.selectionSet);
        const data = await read(
          `query {\n${rc.auth?.takeBlocks() ?? ""}  q(${funcArgs}) @filter(${filter}) { ${body} }\n}`,
          SELECTION_READ,
        );
        out[key] = (data.q as unknown[] | undefined) ?? [];
      }
    }
  }
  return out;
}
