/** Alter — schema changes and drops. */
import { DgraphError } from "../../../core/errors.ts";
import type { AlterOperation } from "../../../engine/engine-api.ts";
import { validateOperation } from "../../alter-operation.ts";
import { callEngine } from "../call-credentials.ts";
import { remainingMs } from "../call-deadline.ts";
import type { GrpcMethod } from "../grpc-context.ts";
import type { ApiOperation, DropOp } from "../grpc-proto.ts";

const DROP_OPS: readonly DropOp[] = ["NONE", "ALL", "DATA", "ATTR", "TYPE"];

/** `api.Operation` → the engine's AlterOperation, with Dgraph's structural checks. */
export function alterOperation(msg: ApiOperation): AlterOperation {
  const op: AlterOperation = {};
  if (msg.schema !== "") op.schema = msg.schema;
  if (msg.drop_attr !== "") op.dropAttr = msg.drop_attr;
  if (msg.drop_all) op.dropAll = true;
  if (!DROP_OPS.includes(msg.drop_op)) throw new DgraphError(`invalid drop_op ${String(msg.drop_op)}`);
  if (msg.drop_op !== "NONE") op.dropOp = msg.drop_op;
  if (msg.drop_value !== "") op.dropValue = msg.drop_value;
  if (msg.run_in_background) op.runInBackground = true;
  validateOperation(op);
  return op;
}

export const alter: GrpcMethod<ApiOperation, Record<string, never>> = async (ctx, call) => {
  const op = alterOperation(call.request);
  const timeoutMs = remainingMs(call);
  if (timeoutMs !== undefined) op.timeoutMs = timeoutMs;
  await callEngine(ctx, call, "").alter(op);
  return {};
};
