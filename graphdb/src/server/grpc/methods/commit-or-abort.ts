/** CommitOrAbort — commit or abort a transaction. */
import { callEngine } from "../call-credentials.ts";
import type { GrpcMethod } from "../grpc-context.ts";
import type { ApiTxnContext } from "../grpc-proto.ts";

export const commitOrAbort: GrpcMethod<ApiTxnContext, Partial<ApiTxnContext>> = async (ctx, call) => {
  const tc = call.request;
  const db = callEngine(ctx, call, tc.hash);
  if (tc.aborted) {
    await db.commit({ startTs: tc.start_ts, abort: true });
    return { start_ts: tc.start_ts, aborted: true };
  }
  const txn = await db.commit({ startTs: tc.start_ts, keys: tc.keys, preds: tc.preds });
  return { start_ts: txn.start_ts, commit_ts: txn.commit_ts ?? 0 };
};
