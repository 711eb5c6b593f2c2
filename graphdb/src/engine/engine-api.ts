/**
 * The engine's face towards transports (HTTP, gRPC, GraphQL). Transports parse wire formats into these
 * requests and render the responses; the engine knows nothing of HTTP or protobuf.
 *
 * Every request runs in one namespace (`namespace`, default 0, the galaxy) and sees nothing of any other.
 * Transports set it from the caller's access token, never from anything else the caller sends.
 */

/** Transaction context returned with every response (Dgraph's `api.TxnContext`). */
export interface TxnContext {
  start_ts: number;
  commit_ts?: number;
  aborted?: boolean;
  /** Conflict keys, base-36 fingerprints, sorted. Omitted when empty. */
  keys?: string[];
  /** Touched predicates as "1-<namespace hex>-<pred>", sorted. Omitted when empty. */
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
  /** The namespace to read (default 0); it must exist. */
  namespace?: number;
  query: string;
  /** DQL variables, keys with the leading `$` (`{"$a": "x"}`), values strings. */
  vars?: Record<string, string>;
  /** 0 or absent: a new read timestamp. */
  startTs?: number;
  readOnly?: boolean;
  bestEffort?: boolean;
  debug?: boolean;
  /**
   * Deadline for the request in ms, never longer than the server's query timeout; exceeded → error
   * containing "context deadline exceeded".
   */
  timeoutMs?: number;
  respFormat?: "json" | "rdf";
  /**
   * In-process callers only (no transport sets it): a node whose selection yields nothing is written as
   * `{}` instead of being dropped, so a client need not select a value every node has (the GraphQL
   * layer's `dgraph.uid`) to keep every node of a list.
   */
  keepEmptyNodes?: boolean;
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
  /** The namespace to write (default 0); it must exist. */
  namespace?: number;
  startTs?: number;
  commitNow?: boolean;
  mutations: MutationInput[];
  /** The upsert query (DQL text), whose variables the mutations use. */
  query?: string;
  vars?: Record<string, string>;
  /**
   * Milliseconds the request may run before its commit (parsing, the upsert query, applying the edges),
   * never longer than the engine's mutation timeout; exceeded → "context deadline exceeded", and the
   * transaction is aborted. gRPC sets it from the call's deadline, HTTP from `/mutate?timeout=`.
   */
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
  /**
   * The namespace altered (default 0). Drops stay inside it, except drop-all in the galaxy, which drops
   * every namespace, as Dgraph's does.
   */
  namespace?: number;
  schema?: string;
  dropAttr?: string;
  dropAll?: boolean;
  dropOp?: "NONE" | "ALL" | "DATA" | "ATTR" | "TYPE";
  dropValue?: string;
  runInBackground?: boolean;
  /**
   * Milliseconds the alter may run (a gRPC call's deadline, `/alter?timeout=`), never longer than the
   * engine's alter timeout: an index build still running then stops with "context deadline exceeded" and
   * leaves the previous schema and indexes as they were.
   */
  timeoutMs?: number;
}

export interface CommitRequest {
  /** The namespace of the transaction (default 0): another namespace's transaction is refused. */
  namespace?: number;
  startTs: number;
  /** Keys the client collected (ignored for correctness: the server tracks its own). */
  keys?: string[];
  preds?: string[];
  abort?: boolean;
}

/** Options of a new namespace. */
export interface CreateNamespaceOptions {
  /**
   * Password of the new namespace's `groot` (a guardian of it), when the database has ACL: at least 6
   * characters. Default Dgraph's "password" — pass your own unless the namespace is for tests.
   */
  grootPassword?: string;
}

/** What the transports call. Every method throws DgraphError (or a subclass) on failure. */
export interface GraphEngine {
  query(req: QueryRequest): Promise<QueryResponse>;
  mutate(req: MutateRequest): Promise<MutateResponse>;
  commit(req: CommitRequest): Promise<TxnContext>;
  alter(op: AlterOperation): Promise<void>;
  /**
   * Creates a namespace (its pre-defined schema, and with ACL its guardians group and groot) and returns
   * its id. Ids are never reused. Callers check who may (the galaxy's guardians).
   */
  createNamespace(options?: CreateNamespaceOptions): Promise<number>;
  /** Deletes a namespace: every key of its data, indexes, schema and types. Not the galaxy (0). */
  dropNamespace(namespace: number): Promise<void>;
  /** Ids of the namespaces that exist, ascending (0 first). */
  listNamespaces(): number[];
  /** Highest timestamp handed out so far (for /health max_assigned and /state). */
  maxAssignedTs(): number;
  /** Highest uid leased so far. */
  maxLeasedUid(): number;
  /**
   * Registers a listener called after every commit that wrote and every alter, with the namespace that
   * changed; returns the function that removes it. Optional: GraphQL subscriptions need it.
   */
  onChange?(listener: (namespace: number) => void): () => void;
  /**
   * Makes sure a namespace has the ACL predicates, the `guardians` group and `groot` (default password
   * "password" when it is created here): what an ACL server runs at startup. Idempotent.
   */
  ensureGroot(namespace: number): Promise<void>;
  /**
   * Stores a namespace's GraphQL schema (its `dgraph.graphql` node, created when missing) and returns the
   * node's uid. The only writer of `dgraph.graphql.*` (DQL mutations are refused them); callers check the SDL.
   */
  putGraphQLSchema(namespace: number, sdl: string): Promise<string>;
  /** Leases `n` new uids (Dgraph Zero's `/assign?what=uids&num=n`): the first and last of the range. */
  assignUids(n: number): { startId: number; endId: number };
  close(): Promise<void>;
}
