/** Query — DQL queries, and mutations or upserts when the request carries any. */
import { Metadata, type ServerUnaryCall } from "@grpc/grpc-js";
import { DgraphError } from "../../../core/errors.ts";
import type { MutateRequest, QueryRequest, TxnContext } from "../../../engine/engine-api.ts";
import { TIME_SLICE_MS } from "../../../query/query-budget.ts";
import { timeSlicer } from "../../../sched/time-slicer.ts";
import { apiLatency } from "../../api-latency.ts";
import type { RequestEngine } from "../../guarded-engine.ts";
import { callEngine } from "../call-credentials.ts";
import { remainingMs } from "../call-deadline.ts";
import type { GrpcMethod } from "../grpc-context.ts";
import { type ApiRequest, type ApiResponse, type ApiTxnContext, encodeUids } from "../grpc-proto.ts";
import { mutationInput } from "../mutation-input.ts";

const EMPTY = Buffer.alloc(0);

type QueryCall = ServerUnaryCall<ApiRequest, ApiResponse>;

/** The engine's txn as `api.TxnContext`, every field set (proto defaults for the missing ones). */
function txnMessage(txn: TxnContext, dropKeys = false): Partial<ApiTxnContext> {
  return {
    start_ts: txn.start_ts,
    commit_ts: txn.commit_ts ?? 0,
    aborted: txn.aborted ?? false,
    keys: dropKeys ? [] : (txn.keys ?? []),
    preds: txn.preds ?? [],
    hash: txn.hash ?? "",
  };
}

async function runMutations(
  db: RequestEngine,
  req: ApiRequest,
  timeoutMs: number | undefined,
): Promise<ApiResponse> {
  if (req.read_only) throw new DgraphError("A read-only transaction cannot run mutations");
  const commitNow = req.commit_now || req.mutations.some((m) => m.commit_now);
  const mreq: MutateRequest = {
    startTs: req.start_ts,
    commitNow,
    mutations: req.mutations.map(mutationInput),
  };
  if (req.query.trim() !== "") {
    mreq.query = req.query;
    if (Object.keys(req.vars).length > 0) mreq.vars = req.vars;
  }
  if (timeoutMs !== undefined) mreq.timeoutMs = timeoutMs;
  const res = await db.mutate(mreq);
  return {
    json: res.queriesJson === undefined ? EMPTY : Buffer.from(res.queriesJson),
    // With commit_now the keys are dropped: there is nothing left for the client to commit.
    txn: txnMessage(res.txn, commitNow),
    latency: apiLatency(res.latency),
    encodedUids: await encodeUids(res.uids, timeSlicer(TIME_SLICE_MS)),
  };
}

async function runQuery(
  db: RequestEngine,
  call: QueryCall,
  timeoutMs: number | undefined,
): Promise<ApiResponse> {
  const req = call.request;
  if (req.query.trim() === "") throw new DgraphError("empty request");
  const vars = Object.keys(req.vars).length > 0 ? req.vars : undefined;
  const qreq: QueryRequest = { query: req.query, vars, startTs: req.start_ts };
  if (req.start_ts === 0) {
    if (req.read_only) qreq.readOnly = true;
    if (req.best_effort) qreq.bestEffort = true;
  }
  const rdf = req.resp_format === "RDF";
  if (rdf) qreq.respFormat = "rdf";
  if (timeoutMs !== undefined) qreq.timeoutMs = timeoutMs;
  const res = await db.query(qreq);
  const headers = new Metadata();
  headers.set("dgraph-toucheduids", String(res.metrics?._total ?? 0));
  call.sendMetadata(headers);
  return {
    json: rdf ? EMPTY : Buffer.from(res.json),
    rdf: rdf ? Buffer.from(res.rdf ?? "") : EMPTY,
    txn: txnMessage(res.txn),
    latency: apiLatency(res.latency),
    metrics: { num_uids: res.metrics ?? {} },
  };
}

export const query: GrpcMethod<ApiRequest, ApiResponse> = async (ctx, call) => {
  const db = callEngine(ctx, call, call.request.hash);
  const timeoutMs = remainingMs(call);
  if (call.request.mutations.length > 0) return runMutations(db, call.request, timeoutMs);
  return runQuery(db, call, timeoutMs);
};
