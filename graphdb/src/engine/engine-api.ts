/**
 * The engine's face towards transports (HTTP, gRPC, GraphQL). Transports parse wire formats into these
 * requests and render the responses; the engine knows nothing of HTTP or protobuf.
 */

/** Transaction context returned with every response (Dgraph's `api.TxnContext`). */
export interface TxnContext {
  start_ts: number;
  commit_ts?: number;
  aborted?: boolean;
  /** Conflict keys, base-36 fingerprints, sorted. Omitted when empty. */
  keys?: string[];
  /** Touched predicates as "1-0-<pred>", sorted. Omitted when empty. */
  preds?: string[];
  hash?: string;
}

/** Nanosecond timings (Dgraph's `api.Latency`); zero fields are omitted on the wire. */
export interface Latency {
  parsing_ns: number;
  processing_ns: number;
  encoding_ns: number;
  assign_timestamp_ns: number;
  total_ns: number;
}

export interface QueryRequest {
  query: string;
  /** DQL variables, keys with the leading `$` (`{"$a": "x"}`), values strings. */
  vars?: Record<string, string>;
  /** 0 or absent: a new read timestamp. */
  startTs?: number;
  readOnly?: boolean;
  bestEffort?: boolean;
  debug?: boolean;
  /** Deadline for the request in ms; exceeded → error containing "context deadline exceeded". */
  timeoutMs?: number;
  respFormat?: "json" | "rdf";
}

export interface QueryResponse {
  /** The `data` object serialised as JSON text (Dgraph's `Response.json`), e.g. `{"q":[...]}`. */
  json: string;
  /** With respFormat "rdf": the N-Quads text instead of json. */
  rdf?: string;
  txn: TxnContext;
  latency: Latency;
  /** Per-predicate uid counts touched, plus `_total`. */
  metrics: Record<string, number>;
}

/** One mutation of a request (Dgraph's `api.Mutation`). */
export interface MutationInput {
  /** JSON text or an already-parsed JSON value. */
  setJson?: string | unknown;
  deleteJson?: string | unknown;
  setNquads?: string;
  delNquads?: string;
  /** `@if(...)` condition of an upsert. */
  cond?: string;
}

export interface MutateRequest {
  startTs?: number;
  commitNow?: boolean;
  mutations: MutationInput[];
  /** The upsert query (DQL text), whose variables the mutations use. */
  query?: string;
  vars?: Record<string, string>;
  timeoutMs?: number;
}

export interface MutateResponse {
  /** New nodes: blank label (without `_:`) → "0x…". */
  uids: Record<string, string>;
  /** JSON text of the upsert query's result (`{"q":[...]}`), or undefined when there was no query. */
  queriesJson?: string;
  txn: TxnContext;
  latency: Latency;
}

/** `/alter` input (Dgraph's `api.Operation`). */
export interface AlterOperation {
  schema?: string;
  dropAttr?: string;
  dropAll?: boolean;
  dropOp?: "NONE" | "ALL" | "DATA" | "ATTR" | "TYPE";
  dropValue?: string;
  runInBackground?: boolean;
}

export interface CommitRequest {
  startTs: number;
  /** Keys the client collected (ignored for correctness: the server tracks its own). */
  keys?: string[];
  preds?: string[];
  abort?: boolean;
}

/** What the transports call. Every method throws DgraphError (or a subclass) on failure. */
export interface GraphEngine {
  query(req: QueryRequest): Promise<QueryResponse>;
  mutate(req: MutateRequest): Promise<MutateResponse>;
  commit(req: CommitRequest): Promise<TxnContext>;
  alter(op: AlterOperation): Promise<void>;
  /** Highest timestamp handed out so far (for /health max_assigned and /state). */
  maxAssignedTs(): number;
  /** Highest uid leased so far. */
  maxLeasedUid(): number;
  /** Leases `n` new uids (Dgraph Zero's `/assign?what=uids&num=n`): the first and last of the range. */
  assignUids(n: number): { startId: number; endId: number };
  close(): Promise<void>;
}
