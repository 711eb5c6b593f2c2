import { randomInt } from "node:crypto";
import { DgraphError, GrpcStatus, TxnAbortedError, TxnConflictError } from "../core/errors.ts";
import type { GraphReader } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { PredicateSchema, TypeSchema } from "../core/schema-types.ts";
import type { ConditionAST } from "../dql/ast.ts";
import { conditionVariables } from "../dql/condition-parser.ts";
import { parseCondition, parseDql } from "../dql/parser.ts";
import type { Edge } from "../mutation/edge.ts";
import { EdgeResolver } from "../mutation/edge-resolver.ts";
import { MutationApplier, type ResolvedEdge, type ValueServices } from "../mutation/mutation-applier.ts";
import { type PredicateGuard, reservedPredicateGuard } from "../mutation/reserved-predicates.ts";
import { evaluateCondition } from "../mutation/upsert-condition.ts";
import { deletePostings } from "../posting/list-tail.ts";
import { PostingCache } from "../posting/posting-cache.ts";
import { executeQueryAsync, type QueryOptions, type QueryResult } from "../query/executor.ts";
import { DEFAULT_QUERY_LIMITS, QueryBudget, type QueryLimits, TIME_SLICE_MS } from "../query/query-budget.ts";
import { timeSlicer } from "../sched/time-slicer.ts";
import type { SchemaState } from "../schema/schema-state.ts";
import { allPredicateKeysRange } from "../store/keys.ts";
import type { KVStore } from "../store/kv-store.ts";
import { LmdbStore } from "../store/lmdb-store.ts";
import { StagedBatch } from "../store/staged-batch.ts";
import { CommitQueue } from "../txn/commit-queue.ts";
import { CommitWriter } from "../txn/commit-writer.ts";
import { conflictKeyText } from "../txn/conflict-key.ts";
import { Oracle } from "../txn/oracle.ts";
import { SnapshotManager } from "../txn/snapshot-manager.ts";
import { Transaction } from "../txn/transaction.ts";
import { TxnReader } from "../txn/txn-reader.ts";
import { hashPasswordAsync, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from "../types/password.ts";
import { ACL_SCHEMA, accountUpserts, GROOT_DEFAULT_PASSWORD, GROOT_USER } from "./acl-accounts.ts";
import {
  type AlterLimits,
  checkSchemaBytes,
  checkSchemaCounts,
  DEFAULT_ALTER_LIMITS,
} from "./alter-limits.ts";
import { BulkLoader, type BulkLoadOptions, type BulkLoadResult } from "./bulk-loader.ts";
import { Catalog } from "./catalog.ts";
import { derivedKeysChanged, type IndexBuild, stageDerivedKeys } from "./derived-keys.ts";
import type {
  AlterOperation,
  CommitRequest,
  CreateNamespaceOptions,
  GraphEngine,
  Latency,
  MutateRequest,
  MutateResponse,
  QueryRequest,
  QueryResponse,
  TxnContext,
} from "./engine-api.ts";
import {
  DEFAULT_MUTATION_LIMITS,
  type MutationLimits,
  type ParsedMutation,
  parseMutations,
} from "./mutation-parse.ts";
import { GALAXY_NAMESPACE, type Namespace, namespaceHex } from "./namespace.ts";
import { type AdmissionLimits, DEFAULT_ADMISSION_LIMITS, NamespaceAdmission } from "./namespace-admission.ts";
import { NamespaceRegistry } from "./namespace-registry.ts";
import { applySchemaText, bootstrapSchema, type SchemaChanges } from "./schema-alter.ts";
import { TxnRegistry } from "./txn-registry.ts";
import { valueServices } from "./value-services.ts";

export interface GraphDBOptions {
  /** Data directory (LMDB files). */
  dir: string;
  /** Bytes of decoded posting lists kept in memory (default 256 MiB). */
  cacheBytes?: number;
  /** Pending transactions idle longer than this are aborted (default 5 minutes, as Dgraph). */
  txnAbortAfterMs?: number;
  /**
   * Adds the ACL predicates and types to the schema; namespaces created then get a guardians group and a
   * groot user.
   */
  acl?: boolean;
  /** Skip fsync: only for benchmarks that measure CPU cost. */
  noSync?: boolean;
  /** Use this store instead of LMDB at `dir`. */
  store?: KVStore;
  /**
   * Longest a query (or an upsert's query) may run, in ms, whatever the request asks (its `timeoutMs` can
   * only be shorter). Default 60 s; 0 for no server limit.
   */
  queryTimeoutMs?: number;
  /** Per-query limits: Dgraph's query-edge and normalize-node limits, the response bound. */
  queryLimits?: Partial<QueryLimits>;
  /**
   * Refuse every `dgraph.*` predicate but `dgraph.type` in DQL mutations (N-Quads, JSON, upserts, `S * *`
   * deletes), guardians' too: the ACL's accounts are then changed only by the operations that own them.
   * Default false, as Dgraph (whose guardians may write ACL predicates). The GraphQL schema's predicates
   * (`dgraph.graphql.*`, `dgraph.drop.op`) are refused either way.
   */
  protectReservedPredicates?: boolean;
  /**
   * Bounds on one mutation request: N-Quads (default 1,000,000, Dgraph's), bytes of text (default none)
   * and run time before commit (default none, as Dgraph; a request's own timeout applies either way).
   */
  mutationLimits?: Partial<MutationLimits>;
  /**
   * Bounds on one alter: run time (default none, as Dgraph), values an index build may read (default
   * none), schema text bytes (1 MiB), predicates (20,000) and types (5,000) it may declare.
   */
  alterLimits?: Partial<AlterLimits>;
  /**
   * Fair share between namespaces: operations of one namespace running at once (default 8; 0 for no
   * limit), waiting for their turn (10,000), and the longest wait (60 s); past these, refused.
   */
  admission?: Partial<AdmissionLimits>;
}

/** The server's own bound on a query's run time unless GraphDBOptions.queryTimeoutMs says otherwise. */
export const DEFAULT_QUERY_TIMEOUT_MS = 60_000;

const NO_KEYS: ReadonlySet<number> = new Set();

/** Edges applied between two chances to give the event loop back. */
const APPLY_CHUNK = 1024;
/** Conflict records kept for transactions that have read but not yet written, before those are given up. */
const MAX_CONFLICT_RECORDS = 2_000_000;

const now = () => process.hrtime.bigint();
const ns = (from: bigint, to: bigint) => Number(to - from);

/** Latency of a request parsed t0–t1, given a start timestamp t1–t2 (when `assigned`), processed t2–t3. */
function latency(t0: bigint, t1: bigint, t2: bigint, t3: bigint, assigned: boolean): Latency {
  return {
    parsing_ns: ns(t0, t1),
    processing_ns: ns(t2, t3),
    encoding_ns: 0,
    assign_timestamp_ns: assigned ? ns(t1, t2) : 0,
    total_ns: ns(t0, now()),
  };
}

/**
 * The graph database engine: Dgraph's query, mutate, commit and alter over one store, with client-held
 * snapshot-isolated transactions, in namespaces (Dgraph's multi-tenancy) that see nothing of each other.
 * Transports (HTTP, gRPC) call it through GraphEngine.
 */
export class GraphDB implements GraphEngine {
  /** The galaxy's (namespace 0's) schema. */
  readonly schema: SchemaState;
  private readonly changeListeners = new Set<(namespace: number) => void>();
  private readonly store: KVStore;
  private readonly catalog: Catalog;
  private readonly namespaces: NamespaceRegistry;
  /** Raw-password services: accounts restored after a drop keep their stored password hash. */
  private readonly keepPasswordHashes: ValueServices;
  private readonly oracle: Oracle;
  private readonly cache: PostingCache;
  private readonly snapshots: SnapshotManager;
  private readonly commits: CommitQueue;
  private readonly txns: TxnRegistry;
  private readonly services: ValueServices = valueServices;
  private readonly sweeper: NodeJS.Timeout;
  private readonly abortAfterMs: number;
  private readonly queryTimeoutMs: number;
  private readonly queryLimits: QueryLimits;
  private readonly mutationLimits: MutationLimits;
  private readonly alterLimits: AlterLimits;
  private readonly admission: NamespaceAdmission;
  /** The alter running (or last run) per namespace: the next one waits for it. */
  private readonly alters = new Map<number, Promise<void>>();
  /** Drops of whole namespaces so far: an index build finding it changed does not write. */
  private drops = 0;
  private readonly aclOnOpen: boolean;
  /** What public mutations may not write (reserved predicates). */
  private readonly publicGuard: PredicateGuard;
  /** The read-only timestamp last handed out, per namespace (a transaction belongs to one namespace). */
  private readonly lastReadOnlyTs = new Map<number, number>();
  private commitsSincePurge = 0;
  private closed = false;
  /** Random part of generated JSON blank-node labels (`dg.<rand>.<n>`), as Dgraph. */
  private readonly labelSeed = randomInt(0, 2 ** 32 - 1);
  private labelCounter = 0;

  constructor(options: GraphDBOptions) {
    this.store = options.store ?? new LmdbStore({ dir: options.dir, noSync: options.noSync });
    this.catalog = new Catalog(this.store);
    const schemas = this.catalog.loadSchemas();
    const existing = schemas.size > 0;
    this.namespaces = new NamespaceRegistry(schemas, this.catalog.loadNamespaceLease());
    this.schema = this.namespaces.galaxy.schema;
    this.keepPasswordHashes = { ...this.services, hashPassword: (stored) => stored };
    this.aclOnOpen = options.acl ?? false;
    this.oracle = new Oracle(this.catalog, this.catalog.loadLeases());
    this.cache = new PostingCache(options.cacheBytes ?? 256 * 1024 * 1024);
    this.snapshots = new SnapshotManager(this.store);
    this.snapshots.advance(this.oracle.maxAssigned());
    this.commits = new CommitQueue(
      new CommitWriter(this.store, this.cache, this.snapshots, (ns) => this.namespaces.get(ns)?.schema),
      () => this.oracle.nextTs(),
    );
    this.txns = new TxnRegistry(this.snapshots);
    if (!existing || options.acl) {
      this.persist(this.namespaces.galaxy, bootstrapSchema(this.schema, { acl: options.acl ?? false }));
    }
    this.abortAfterMs = options.txnAbortAfterMs ?? 5 * 60_000;
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    this.queryLimits = { ...DEFAULT_QUERY_LIMITS, ...options.queryLimits };
    this.mutationLimits = { ...DEFAULT_MUTATION_LIMITS, ...options.mutationLimits };
    this.alterLimits = { ...DEFAULT_ALTER_LIMITS, ...options.alterLimits };
    this.admission = new NamespaceAdmission({ ...DEFAULT_ADMISSION_LIMITS, ...options.admission });
    this.publicGuard = reservedPredicateGuard(options.protectReservedPredicates ?? false);
    this.sweeper = setInterval(() => this.sweep(), Math.min(10_000, this.abortAfterMs)).unref();
  }

  // ---------------------------------------------------------------------------------------------
  // Query

  async query(req: QueryRequest): Promise<QueryResponse> {
    this.assertOpen();
    const ns = this.namespaces.require(req.namespace);
    return this.admission.run(ns.id, () => this.queryIn(ns, req));
  }

  private async queryIn(ns: Namespace, req: QueryRequest): Promise<QueryResponse> {
    const t0 = now();
    this.assertOpen();
    if (req.bestEffort && !req.readOnly) throw new DgraphError("A best effort query must be read-only.");
    const doc = parseDql(req.query, req.vars);
    const t1 = now();
    const { txn, assigned } = this.txnForQuery(req, ns);
    const t2 = now();
    const result = await this.execute(txn, doc, req, ns);
    const t3 = now();
    return {
      json: result.json,
      rdf: result.rdf,
      txn: { start_ts: txn.startTs },
      latency: latency(t0, t1, t2, t3, assigned),
      metrics: result.metrics,
    };
  }

  private execute(
    txn: Transaction,
    doc: ReturnType<typeof parseDql>,
    req: QueryRequest,
    ns: Namespace,
  ): Promise<QueryResult> {
    const reader = new TxnReader(txn, ns.schema, ns.keys, this.cache, this.snapshots);
    return this.runQuery(txn, reader, doc, {
      debug: req.debug,
      timeoutMs: this.timeoutFor(req.timeoutMs),
      respFormat: req.respFormat,
      keepEmptyNodes: req.keepEmptyNodes,
    });
  }

  /**
   * Runs a query in slices (executeQueryAsync), other requests being served in between. Meanwhile its
   * transaction may be committed, aborted or evicted by them: the query holds its own reference to the
   * snapshot, so what it reads stays open until it is done.
   */
  private async runQuery(
    txn: Transaction,
    reader: TxnReader,
    doc: ReturnType<typeof parseDql>,
    opts: QueryOptions,
  ): Promise<QueryResult> {
    const snapshot = txn.snapshot;
    snapshot.refs++;
    try {
      return await executeQueryAsync(reader, doc, { ...opts, limits: this.queryLimits });
    } finally {
      this.snapshots.release(snapshot);
    }
  }

  /** The request's timeout (absent or 0: none) bounded by the server's. */
  private timeoutFor(requestMs: number | undefined): number | undefined {
    const server = this.queryTimeoutMs > 0 ? this.queryTimeoutMs : undefined;
    if (requestMs === undefined || requestMs === 0) return server;
    return server === undefined ? requestMs : Math.min(requestMs, server);
  }

  private txnForQuery(req: QueryRequest, ns: Namespace): { txn: Transaction; assigned: boolean } {
    if (req.startTs) return { txn: this.existingTxn(req.startTs, ns.id), assigned: false };
    if (req.readOnly || req.bestEffort) {
      // Read-only timestamps are reused while no other timestamp has been handed out (as Dgraph), within
      // one namespace: a transaction, read-only ones too, belongs to the namespace it was begun in.
      let ts = this.lastReadOnlyTs.get(ns.id);
      const shared = ts === this.oracle.maxAssigned() ? this.txns.get(ts) : undefined;
      if (shared !== undefined && shared.namespace === ns.id) return { txn: shared, assigned: true };
      if (ts !== this.oracle.maxAssigned() || shared !== undefined) {
        ts = this.oracle.nextTs();
        this.lastReadOnlyTs.set(ns.id, ts);
      }
      return { txn: this.txns.begin(ts as number, true, ns.id), assigned: true };
    }
    return { txn: this.txns.begin(this.oracle.nextTs(), false, ns.id), assigned: true };
  }

  /**
   * The live transaction with this start ts, or one adopted at it when nothing committed since. Only a
   * transaction of the request's own namespace: another namespace's cannot be read, written or finished.
   */
  private existingTxn(startTs: number, namespace: number): Transaction {
    const txn = this.txns.get(startTs);
    if (txn !== undefined) {
      if (txn.namespace !== namespace) throw foreignTransaction(startTs);
      return txn;
    }
    if (startTs > this.oracle.maxAssigned()) {
      throw new DgraphError(
        `startTs ${startTs} was never handed out by this server; start a new transaction`,
      );
    }
    const decision = this.oracle.decision(startTs);
    if (decision === 0) throw new TxnConflictError();
    if (this.snapshots.currentEpoch() <= startTs) return this.txns.begin(startTs, false, namespace);
    throw new DgraphError(
      `Transaction with startTs ${startTs} has expired or is unknown (the server may have restarted); start a new transaction`,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Mutate

  async mutate(req: MutateRequest): Promise<MutateResponse> {
    this.assertOpen();
    const ns = this.namespaces.require(req.namespace);
    return this.admission.run(ns.id, () => this.mutateIn(ns, req, this.services, this.publicGuard));
  }

  /**
   * A mutation in a namespace, with the given value services (the engine's own, but for restores). The
   * engine's own writes of reserved predicates (accounts, the GraphQL schema) pass no guard.
   */
  private async mutateIn(
    ns: Namespace,
    req: MutateRequest,
    services: ValueServices,
    guard?: PredicateGuard,
  ): Promise<MutateResponse> {
    const t0 = now();
    this.assertOpen();
    const budget = new QueryBudget({ timeoutMs: this.mutationTimeoutFor(req.timeoutMs) });
    budget.startSlice(TIME_SLICE_MS);
    const parsed = await parseMutations(req.mutations, req.query, this.mutationLimits, budget, () =>
      this.nextBlankLabel(),
    );
    const conds = parsed.map((p) => (p.cond === undefined ? undefined : parseCondition(p.cond)));
    const upsertDoc = req.query
      ? parseDql(req.query, req.vars, { needVars: mutationVariables(parsed, conds) })
      : undefined;
    const t1 = now();
    let assigned = false;
    let txn: Transaction;
    if (req.startTs) {
      txn = this.existingTxn(req.startTs, ns.id);
    } else {
      txn = this.txns.begin(this.oracle.nextTs(), false, ns.id);
      assigned = true;
    }
    checkWritable(txn);
    if (txn.busy > 0) throw txnBusy();
    const t2 = now();
    txn.busy++;
    let queryResult: QueryResult | undefined;
    let resolver: EdgeResolver;
    try {
      ({ queryResult, resolver } = await this.applyMutations(ns, txn, req, upsertDoc, parsed, conds, budget, {
        services,
        guard,
      }));
    } catch (e) {
      // A half-applied mutation must never reach storage: the transaction is aborted.
      // A transaction begun for this request is of no use to anyone after it failed.
      if (txn.state === "open" && (txn.hasWrites || assigned)) this.abortTxn(txn);
      throw e;
    } finally {
      txn.busy--;
    }
    const ctx: TxnContext = req.commitNow ? await this.commitTxn(txn) : this.txnContext(txn);
    // After the commit: pausing before it would let a request end the transaction in between.
    const uids = await blankNodeUids(resolver.newUids);
    const t3 = now();
    return {
      uids,
      queriesJson: queryResult?.json,
      txn: ctx,
      latency: latency(t0, t1, t2, t3, assigned),
    };
  }

  /**
   * Runs the upsert query, resolves the chosen mutations' edges and applies them to the transaction, a
   * chunk of edges at a time with the event loop given back between chunks (the transaction is marked busy
   * meanwhile, so nothing commits it half-applied). Fails past the budget's deadline.
   */
  private async applyMutations(
    ns: Namespace,
    txn: Transaction,
    req: MutateRequest,
    upsertDoc: ReturnType<typeof parseDql> | undefined,
    parsed: ParsedMutation[],
    conds: (ConditionAST | undefined)[],
    budget: QueryBudget,
    how: { services: ValueServices; guard?: PredicateGuard },
  ): Promise<{ queryResult: QueryResult | undefined; resolver: EdgeResolver }> {
    const reader = new TxnReader(txn, ns.schema, ns.keys, this.cache, this.snapshots);
    let queryResult: QueryResult | undefined;
    if (upsertDoc) {
      const left = budget.remainingMs();
      const timeoutMs = this.timeoutFor(req.timeoutMs);
      queryResult = await this.runQuery(txn, reader, upsertDoc, {
        timeoutMs: left === undefined ? timeoutMs : Math.min(left, timeoutMs ?? left),
      });
      // Other requests ran while the query did: the transaction may have been finished by one of them.
      checkWritable(txn);
    }
    const vars = queryResult?.vars;
    const resolver = new EdgeResolver({
      leaseUids: (n) => this.oracle.leaseUids(n),
      maxUid: () => this.oracle.maxUid(),
      uidVar: (name) => vars?.uids.get(name),
      valueVar: (name, subject) => lookupValueVar(vars?.values.get(name), subject),
    });
    const chosen = parsed.filter((_, i) => {
      const cond = conds[i];
      return cond === undefined || evaluateCondition(cond, (v) => vars?.uids.get(v)?.length ?? 0);
    });
    await resolver.allocate(
      chosen.flatMap((p) => [
        { edges: p.del, op: "delete" as const },
        { edges: p.set, op: "set" as const },
      ]),
      () => budget.pace(),
    );
    checkWritable(txn);
    let applyServices = how.services;
    if (how.services === this.services) {
      applyServices = await this.prehashPasswords(
        ns,
        chosen.flatMap((p) => p.set),
      );
      // Other requests ran while the passwords were hashed.
      checkWritable(txn);
    }
    const applier = new MutationApplier(
      txn,
      reader,
      ns.schema,
      applyServices,
      (p) => this.persistPredicate(ns, p),
      how.guard,
    );
    for (const p of chosen) {
      // Every edge is resolved (and its uids checked) before any is applied, a chunk at a time.
      const resolved = { del: [] as ResolvedEdge[], set: [] as ResolvedEdge[] };
      for (const [edges, op] of [
        [p.del, "delete"],
        [p.set, "set"],
      ] as const) {
        const into = op === "delete" ? resolved.del : resolved.set;
        for (let i = 0; i < edges.length; i += APPLY_CHUNK) {
          for (const e of resolver.resolve(edges.slice(i, i + APPLY_CHUNK), op)) into.push(e);
          await budget.pace();
          checkWritable(txn);
        }
      }
      for (const [edges, isDelete] of [
        [resolved.del, true],
        [resolved.set, false],
      ] as const) {
        for (let i = 0; i < edges.length; i += APPLY_CHUNK) {
          const chunk = edges.slice(i, i + APPLY_CHUNK);
          if (isDelete) applier.apply(chunk, []);
          else applier.apply([], chunk);
          await budget.pace();
          checkWritable(txn);
        }
      }
    }
    budget.checkTime();
    return { queryResult, resolver };
  }

  /** The mutation's time bound: the request's timeout (absent or 0: none) bounded by the server's. */
  private mutationTimeoutFor(requestMs: number | undefined): number | undefined {
    const server = this.mutationLimits.timeoutMs > 0 ? this.mutationLimits.timeoutMs : undefined;
    if (requestMs === undefined || requestMs === 0) return server;
    return server === undefined ? requestMs : Math.min(requestMs, server);
  }

  private nextBlankLabel(): string {
    return `dg.${this.labelSeed}.${++this.labelCounter}`;
  }

  /**
   * Hashes the passwords a mutation sets on libuv's thread pool, two at a time (leaving the pool to
   * others), so that a mutation of many password values does not hold the event loop for tens of ms
   * each; the applier then takes the hashes from here. Values it cannot see yet (`val()`) are hashed by
   * the applier itself.
   */
  private async prehashPasswords(ns: Namespace, edges: Edge[]): Promise<ValueServices> {
    const plains = new Set<string>();
    for (const e of edges) {
      if (e.object.kind !== "literal" || ns.schema.predicate(e.predicate)?.type !== "password") continue;
      try {
        const value = this.services.convert(
          { type: e.object.type, value: e.object.value } as TypedValue,
          "password",
          e.predicate,
        );
        plains.add(String(value.value));
      } catch {
        // The applier reports it, with the edge.
      }
    }
    if (plains.size === 0) return this.services;
    const hashes = new Map<string, string>();
    const pending = [...plains];
    const hashInTurn = async () => {
      for (let plain = pending.pop(); plain !== undefined; plain = pending.pop()) {
        hashes.set(plain, await hashPasswordAsync(plain));
      }
    };
    await Promise.all([hashInTurn(), hashInTurn()]);
    return {
      ...this.services,
      hashPassword: (plain) => hashes.get(plain) ?? this.services.hashPassword(plain),
    };
  }

  private txnContext(txn: Transaction): TxnContext {
    const ctx: TxnContext = { start_ts: txn.startTs };
    if (txn.conflictKeys.size > 0) ctx.keys = Array.from(txn.conflictKeys, conflictKeyText).sort();
    if (txn.preds.size > 0) ctx.preds = predsOf(txn);
    return ctx;
  }

  // ---------------------------------------------------------------------------------------------
  // Commit / abort

  async commit(req: CommitRequest): Promise<TxnContext> {
    this.assertOpen();
    const ns = this.namespaces.require(req.namespace);
    return this.admission.run(ns.id, () => this.commitIn(ns, req));
  }

  private async commitIn(ns: Namespace, req: CommitRequest): Promise<TxnContext> {
    this.assertOpen();
    if (!req.startTs) throw new DgraphError("StartTs cannot be zero while committing a transaction");
    const txn = this.txns.get(req.startTs);
    if (txn !== undefined && txn.namespace !== ns.id) throw foreignTransaction(req.startTs);
    if (req.abort) {
      const decision =
        txn?.state === "committed" || txn?.state === "committing" ? 1 : this.oracle.decision(req.startTs);
      if (decision !== undefined && decision > 0) throw new DgraphError("transaction could not be aborted");
      if (txn !== undefined) this.abortTxn(txn);
      else this.oracle.recordAbort(req.startTs);
      return { start_ts: req.startTs, aborted: true };
    }
    if (txn === undefined) {
      const decision = this.oracle.decision(req.startTs);
      if (decision !== undefined && decision > 0) return { start_ts: req.startTs, commit_ts: decision };
      // Aborted, expired, or lost in a restart before commit: its writes are gone.
      throw new TxnAbortedError();
    }
    if (txn.state === "aborted") throw new TxnAbortedError();
    if (txn.state === "committing") throw new DgraphError("Transaction has already been committed");
    if (txn.busy > 0) throw txnBusy();
    return this.commitTxn(txn);
  }

  private async commitTxn(txn: Transaction): Promise<TxnContext> {
    if (!txn.hasWrites) {
      const commitTs = this.oracle.nextTs();
      this.oracle.recordCommit(txn.startTs, commitTs, NO_KEYS);
      txn.state = "committed";
      this.txns.finish(txn);
      return { start_ts: txn.startTs, commit_ts: commitTs };
    }
    const altering = this.namespaces.get(txn.namespace)?.altering;
    if (altering !== undefined && altering.size > 0) {
      for (const p of txn.preds) {
        if (altering.has(p)) {
          this.abortTxn(txn);
          throw indexingInProgress(p);
        }
      }
    }
    // Queued commits will commit after this transaction started: they are concurrent with it.
    if (
      this.oracle.conflicts(txn.conflictKeys, txn.startTs) ||
      this.commits.conflictsWithQueued(txn.conflictKeys)
    ) {
      this.abortTxn(txn);
      throw new TxnAbortedError();
    }
    txn.state = "committing";
    let commitTs: number;
    let durable: Promise<void>;
    try {
      ({ commitTs, durable } = await this.commits.enqueue(
        {
          namespace: txn.namespace,
          deltas: txn.deltas,
          conflictKeys: txn.conflictKeys,
          // Conflict records are only ever checked by transactions that started before this commit and are
          // still open; when this is the only open one (a commitNow load), there is nothing to record.
          assigned: (ts) =>
            this.oracle.recordCommit(txn.startTs, ts, this.txns.size > 1 ? txn.conflictKeys : NO_KEYS),
        },
        this.txns.size === 1,
      ));
    } catch (e) {
      this.abortTxn(txn);
      throw e;
    }
    txn.state = "committed";
    const preds = txn.preds.size > 0 ? predsOf(txn) : undefined;
    this.txns.finish(txn);
    if (++this.commitsSincePurge >= 1000) this.purgeConflicts();
    await durable;
    this.changed(txn.namespace);
    return { start_ts: txn.startTs, commit_ts: commitTs, preds };
  }

  private abortTxn(txn: Transaction): void {
    txn.state = "aborted";
    this.oracle.recordAbort(txn.startTs);
    this.txns.finish(txn);
  }

  private purgeConflicts(): void {
    this.commitsSincePurge = 0;
    const fallback = this.oracle.maxAssigned();
    // Keep every record a live read-write transaction may still need; past the bound, only those of
    // transactions that already wrote (a reader that writes later is then aborted at commit, never lost).
    const writersOnly = this.oracle.trackedKeys() > MAX_CONFLICT_RECORDS;
    this.oracle.purge(this.txns.oldestWriterStartTs(fallback, writersOnly));
  }

  private sweep(): void {
    for (const t of this.txns.expire(Date.now() - this.abortAfterMs)) {
      t.state = "aborted";
      this.oracle.recordAbort(t.startTs);
    }
    this.purgeConflicts();
  }

  // ---------------------------------------------------------------------------------------------
  // Alter

  async alter(op: AlterOperation): Promise<void> {
    this.assertOpen();
    const ns = this.namespaces.require(op.namespace);
    return this.admission.run(ns.id, () => this.alterInTurn(ns, op));
  }

  private async alterInTurn(ns: Namespace, op: AlterOperation): Promise<void> {
    // One alter at a time per namespace: an index build gives the event loop back while it runs.
    const previous = this.alters.get(ns.id);
    const run = (previous ?? Promise.resolve()).then(() => this.alterIn(ns, op));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.alters.set(ns.id, settled);
    try {
      await run;
    } finally {
      if (this.alters.get(ns.id) === settled) this.alters.delete(ns.id);
      this.changed(ns.id);
    }
  }

  /**
   * Registers a listener called after every commit that wrote and every alter, with the namespace that
   * changed (GraphQL subscriptions re-run on it). Returns the function that removes it.
   */
  onChange(listener: (namespace: number) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(namespace: number): void {
    for (const listener of this.changeListeners) {
      try {
        listener(namespace);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  private async alterIn(ns: Namespace, op: AlterOperation): Promise<void> {
    // Drops and index rebuilds act on everything committed: queued commits first.
    await this.commits.flush();
    const dropOp = op.dropOp ?? "NONE";
    const hasSchema = (op.schema ?? "").trim() !== "";
    if (!hasSchema && !op.dropAttr && !op.dropAll && dropOp === "NONE") {
      throw new DgraphError("Operation must have at least one field set", "Error");
    }
    if (op.dropAll || dropOp === "ALL") {
      // As Dgraph: the galaxy's drop-all drops every namespace; any other namespace's, only itself.
      return ns.id === GALAXY_NAMESPACE ? this.dropEverything() : this.wipeNamespace(ns, true);
    }
    if (dropOp === "DATA") {
      if (op.dropValue) throw new DgraphError("If DropOp is set to DATA, DropValue must be empty", "Error");
      // As Dgraph: dropping the data keeps the GraphQL schema, which is stored as data.
      const graphqlSchema = await this.storedGraphQLSchema(ns.id);
      await this.wipeNamespace(ns, false);
      if (graphqlSchema !== undefined) await this.storeGraphQLSchema(ns, graphqlSchema);
      return;
    }
    if (op.dropAttr || dropOp === "ATTR") {
      const name = op.dropAttr || op.dropValue;
      if (!name) throw new DgraphError("If DropOp is set to ATTR, DropValue must not be empty", "Error");
      return this.dropPredicate(ns, name);
    }
    if (dropOp === "TYPE") {
      if (!op.dropValue)
        throw new DgraphError("If DropOp is set to TYPE, DropValue must not be empty", "Error");
      const name = op.dropValue;
      ns.schema.deleteType(name);
      await this.store.write((w) => Catalog.deleteType(w, ns.keys, name)).durable;
      return;
    }
    const text = op.schema ?? "";
    checkSchemaBytes(text, this.alterLimits);
    const changes = applySchemaText(ns.schema, text);
    checkSchemaCounts(changes.predicates.length, changes.types.length, this.alterLimits);
    if (changes.predicates.some((p) => derivedKeysChanged(p.old, p.next))) {
      return this.alterWithIndexBuild(ns, changes, op);
    }
    const { durable } = this.store.write((w) => {
      for (const p of changes.predicates) Catalog.putPredicate(w, ns.keys, p.next);
      for (const t of changes.types) Catalog.putType(w, ns.keys, t);
    });
    this.installSchema(ns, changes);
    await durable;
  }

  /**
   * A schema change that rebuilds derived keys: staged from a snapshot in slices (other requests run
   * meanwhile), bounded by the alter's time and values limits, then written in one atomic batch with the
   * new schema records. Until then the namespace serves the old schema and indexes, and commits writing
   * the predicates it declares are refused (their indexes would miss them); a failure changes nothing.
   */
  private async alterWithIndexBuild(
    ns: Namespace,
    changes: SchemaChanges,
    op: AlterOperation,
  ): Promise<void> {
    const budget = new QueryBudget({ timeoutMs: this.alterTimeoutFor(op.timeoutMs) });
    budget.startSlice(TIME_SLICE_MS);
    const declared = changes.predicates.map((p) => p.next.predicate);
    for (const p of declared) ns.altering.add(p);
    const drops = this.drops;
    const snapshot = this.store.snapshot();
    const batch = new StagedBatch(snapshot);
    try {
      const writer = batch.writer();
      const build: IndexBuild = {
        snapshot,
        keys: ns.keys,
        services: this.services,
        budget,
        writer,
        maxValues: this.alterLimits.indexValues,
        values: 0,
      };
      for (const p of changes.predicates) {
        if (derivedKeysChanged(p.old, p.next)) await stageDerivedKeys(build, p.next);
        Catalog.putPredicate(writer, ns.keys, p.next);
      }
      for (const t of changes.types) Catalog.putType(writer, ns.keys, t);
      budget.checkTime();
      if (drops !== this.drops || this.namespaces.get(ns.id) !== ns) {
        throw new DgraphError("The namespace was dropped while its indexes were being built", "Error");
      }
      batch.release();
      await this.store.applyStaged(batch);
      this.installSchema(ns, changes);
    } finally {
      batch.release();
      for (const p of declared) ns.altering.delete(p);
    }
  }

  private installSchema(ns: Namespace, changes: SchemaChanges): void {
    for (const p of changes.predicates) ns.schema.setPredicate(p.next);
    for (const t of changes.types) ns.schema.setType(t);
    this.afterBulkWrite();
  }

  /** The alter's time bound: the request's timeout (absent or 0: none) bounded by the server's. */
  private alterTimeoutFor(requestMs: number | undefined): number | undefined {
    const server = this.alterLimits.timeoutMs > 0 ? this.alterLimits.timeoutMs : undefined;
    if (requestMs === undefined || requestMs === 0) return server;
    return server === undefined ? requestMs : Math.min(requestMs, server);
  }

  /** The GraphQL schema (input SDL) kept in a namespace's `dgraph.graphql` node, if any. */
  private async storedGraphQLSchema(namespace: number): Promise<string | undefined> {
    const res = await this.queryIn(this.namespaces.require(namespace), {
      query: '{ s(func: eq(dgraph.graphql.xid, "dgraph.graphql.schema")) { dgraph.graphql.schema } }',
    });
    const row = (JSON.parse(res.json) as { s?: { "dgraph.graphql.schema"?: string }[] }).s?.[0];
    return row?.["dgraph.graphql.schema"] || undefined;
  }

  /**
   * Stores a namespace's GraphQL schema (input SDL) in its `dgraph.graphql` node, creating the node when it
   * has none; returns the node's uid. The only way to write `dgraph.graphql.*`: DQL mutations may not. The
   * caller has built and checked the SDL (GraphQLService.updateSchema).
   */
  async putGraphQLSchema(namespace: number, sdl: string): Promise<string> {
    this.assertOpen();
    const ns = this.namespaces.require(namespace);
    return this.admission.run(ns.id, () => this.storeGraphQLSchema(ns, sdl));
  }

  private async storeGraphQLSchema(ns: Namespace, sdl: string): Promise<string> {
    const node = (uid: string) => ({
      uid,
      "dgraph.type": "dgraph.graphql",
      "dgraph.graphql.xid": "dgraph.graphql.schema",
      "dgraph.graphql.schema": sdl,
    });
    const res = await this.mutateIn(
      ns,
      {
        commitNow: true,
        query: '{ s as var(func: eq(dgraph.graphql.xid, "dgraph.graphql.schema")) }',
        mutations: [
          { setJson: node("uid(s)"), cond: "@if(gt(len(s), 0))" },
          { setJson: node("_:schema"), cond: "@if(eq(len(s), 0))" },
        ],
      },
      this.services,
    );
    return res.uids.schema ?? "";
  }

  /** The galaxy's drop-all: every namespace's data and schema; only the galaxy remains, bootstrapped. */
  private async dropEverything(): Promise<void> {
    this.drops++;
    const galaxy = this.namespaces.galaxy;
    const groot = this.grootPasswordOf(galaxy);
    for (const ns of this.namespaces.all()) if (ns.id !== GALAXY_NAMESPACE) this.abortTransactionsOf(ns.id);
    const { durable } = this.store.write((w) => {
      deletePostings(w, allPredicateKeysRange.start, allPredicateKeysRange.end);
      Catalog.deleteAllSchema(w);
    });
    for (const id of this.namespaces.ids()) if (id !== GALAXY_NAMESPACE) this.lastReadOnlyTs.delete(id);
    this.namespaces.removeAllButGalaxy();
    this.schema.clear();
    this.afterBulkWrite();
    await durable;
    this.persist(galaxy, bootstrapSchema(this.schema, { acl: groot !== undefined }));
    if (groot !== undefined) await this.restoreAccounts(galaxy, groot);
  }

  /**
   * A namespace's drop-all (`schema` too) or drop-data: every key of its predicates, and with `schema` its
   * schema and types (the pre-defined ones come back). Its open transactions that wrote are aborted: a
   * commit after the wipe would bring back keys of predicates it no longer has.
   */
  private async wipeNamespace(ns: Namespace, schema: boolean): Promise<void> {
    const groot = this.grootPasswordOf(ns);
    this.abortTransactionsOf(ns.id, true);
    const predicates = ns.schema.predicates().map((p) => p.predicate);
    const { durable } = this.store.write((w) => {
      for (const pred of predicates) {
        const range = ns.keys.predicateRange(pred);
        deletePostings(w, range.start, range.end);
      }
      if (schema) Catalog.deleteSchemaOf(w, ns.keys);
    });
    if (schema) ns.schema.clear();
    this.afterBulkWrite();
    await durable;
    if (schema) this.persist(ns, bootstrapSchema(ns.schema, { acl: groot !== undefined }));
    if (groot !== undefined) await this.restoreAccounts(ns, groot);
  }

  private async dropPredicate(ns: Namespace, name: string): Promise<void> {
    if (name === "dgraph.type" || name.startsWith("dgraph.")) {
      throw new DgraphError(`predicate ${name} is pre-defined and is not allowed to be dropped`, "Error");
    }
    const range = ns.keys.predicateRange(name);
    const { durable } = this.store.write((w) => {
      deletePostings(w, range.start, range.end);
      Catalog.deletePredicate(w, ns.keys, name);
    });
    ns.schema.deletePredicate(name);
    this.afterBulkWrite();
    await durable;
  }

  /** After writes that bypass transactions: forget cached lists, and let new readers see the change. */
  private afterBulkWrite(): void {
    this.cache.clear();
    this.snapshots.advance(this.oracle.nextTs());
  }

  private persistPredicate(ns: Namespace, p: PredicateSchema): void {
    this.store.write((w) => Catalog.putPredicate(w, ns.keys, p));
  }

  private persist(ns: Namespace, changes: { predicates: PredicateSchema[]; types: TypeSchema[] }): void {
    this.store.write((w) => {
      for (const p of changes.predicates) Catalog.putPredicate(w, ns.keys, p);
      for (const t of changes.types) Catalog.putType(w, ns.keys, t);
    });
  }

  /** Aborts a namespace's open transactions (only those that wrote, with `writersOnly`). */
  private abortTransactionsOf(namespace: number, writersOnly = false): void {
    for (const t of [...this.txns.all()]) {
      if (t.namespace !== namespace || (writersOnly && !t.hasWrites)) continue;
      if (t.state === "open") {
        t.state = "aborted";
        this.oracle.recordAbort(t.startTs);
      }
      this.txns.finish(t);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Namespaces

  /**
   * Creates a namespace and returns its id: its pre-defined schema, and when the database has ACL, its
   * guardians group and its groot (password `options.grootPassword`, default Dgraph's "password"). The
   * caller decides who may; the servers allow the galaxy's guardians only.
   */
  async createNamespace(options: CreateNamespaceOptions = {}): Promise<number> {
    this.assertOpen();
    const acl = this.aclOnOpen || this.schema.predicate("dgraph.xid") !== undefined;
    const password = options.grootPassword ?? GROOT_DEFAULT_PASSWORD;
    // Checked before anything is written: a refused password must not leave a namespace without groot.
    if (acl && password.length < MIN_PASSWORD_LENGTH) throw new DgraphError(PASSWORD_TOO_SHORT);
    const ns = this.namespaces.create();
    const boot = bootstrapSchema(ns.schema, { acl });
    await this.store.write((w) => {
      Catalog.putNamespaceLease(w, this.namespaces.leased);
      for (const p of boot.predicates) Catalog.putPredicate(w, ns.keys, p);
      for (const t of boot.types) Catalog.putType(w, ns.keys, t);
    }).durable;
    if (acl) await this.ensureAccounts(ns, password, this.services);
    return ns.id;
  }

  /**
   * Deletes a namespace: every key of its predicates (data, indexes, reverse and count keys, tails), its
   * schema and types; its open transactions are aborted. Requests in it fail from then on, and its id is
   * never handed out again. The galaxy cannot be dropped.
   */
  async dropNamespace(namespace: number): Promise<void> {
    this.assertOpen();
    if (namespace === GALAXY_NAMESPACE) throw new DgraphError("Cannot delete default namespace.");
    const ns = this.namespaces.get(namespace);
    if (ns === undefined) {
      throw new DgraphError(`error deleting non-existing namespace ${namespaceHex(namespace)}`);
    }
    await this.commits.flush();
    this.drops++;
    this.abortTransactionsOf(ns.id);
    const predicates = ns.schema.predicates().map((p) => p.predicate);
    const { durable } = this.store.write((w) => {
      for (const pred of predicates) {
        const range = ns.keys.predicateRange(pred);
        deletePostings(w, range.start, range.end);
      }
      Catalog.deleteSchemaOf(w, ns.keys);
    });
    this.namespaces.remove(ns.id);
    this.lastReadOnlyTs.delete(ns.id);
    this.afterBulkWrite();
    await durable;
  }

  /** Ids of the namespaces that exist, ascending: 0 (the galaxy) first. */
  listNamespaces(): number[] {
    return this.namespaces.ids();
  }

  /**
   * Gives a namespace's groot this password, creating the guardians group and groot when they are missing:
   * what an operator, or a platform issuing one namespace per tenant, uses instead of Dgraph's default
   * "password". Needs a database with ACL; the password needs at least 6 characters.
   */
  async setGrootPassword(namespace: number, password: string): Promise<void> {
    this.assertOpen();
    const ns = this.namespaces.require(namespace);
    if (this.grootPasswordOf(ns) === undefined) {
      throw new DgraphError("setGrootPassword needs ACL: open the database with acl: true", "Error");
    }
    if (password.length < MIN_PASSWORD_LENGTH) throw new DgraphError(PASSWORD_TOO_SHORT);
    await this.ensureAccounts(ns, password, this.services);
    const change: MutateRequest = {
      namespace: ns.id,
      commitNow: true,
      query: `{ u as var(func: eq(dgraph.xid, "${GROOT_USER}")) @filter(type(dgraph.type.User)) }`,
      mutations: [
        { cond: "@if(gt(len(u), 0))", setNquads: `uid(u) <dgraph.password> ${JSON.stringify(password)} .` },
      ],
    };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.mutateIn(ns, change, this.services);
        return;
      } catch (e) {
        if (!(e instanceof TxnAbortedError) || attempt >= 5) throw e;
      }
    }
  }

  async ensureGroot(namespace: number): Promise<void> {
    this.assertOpen();
    const ns = this.namespaces.require(namespace);
    const missing = ["dgraph.xid", "dgraph.password", "dgraph.user.group"].some(
      (p) => ns.schema.predicate(p) === undefined,
    );
    if (missing) await this.alter({ namespace, schema: ACL_SCHEMA });
    await this.ensureAccounts(ns, GROOT_DEFAULT_PASSWORD, this.services);
  }

  /** Makes sure the namespace has its guardians group and groot (idempotent upserts, retried on aborts). */
  private async ensureAccounts(ns: Namespace, password: string, services: ValueServices): Promise<void> {
    for (const req of accountUpserts(password, ns.id)) {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.mutateIn(ns, req, services);
          break;
        } catch (e) {
          if (!(e instanceof TxnAbortedError) || attempt >= 5) throw e;
        }
      }
    }
  }

  /**
   * Groot's stored password (its hash) in a namespace with ACL, "" when it has ACL but no groot, undefined
   * without ACL. A drop keeps it: Dgraph gives groot back its default password after a drop, which would
   * let anyone who can reach the server into a namespace its guardian just wiped.
   */
  private grootPasswordOf(ns: Namespace): string | undefined {
    if (ns.schema.predicate("dgraph.xid") === undefined) return undefined;
    const view = this.readView({ namespace: ns.id });
    try {
      const reader = view.reader;
      const token = this.services.tokens("exact", { type: "string", value: GROOT_USER }, "")[0];
      for (const uid of reader.index("dgraph.xid", token)) {
        if (!reader.values("dgraph.type", uid).some((t) => t.value.value === "dgraph.type.User")) continue;
        const stored = reader.values("dgraph.password", uid)[0]?.value.value;
        if (typeof stored === "string") return stored;
      }
      return "";
    } finally {
      view.release();
    }
  }

  /** Re-creates the guardians group and groot after a drop, with groot's stored password when it had one. */
  private restoreAccounts(ns: Namespace, storedPassword: string): Promise<void> {
    return storedPassword === ""
      ? this.ensureAccounts(ns, GROOT_DEFAULT_PASSWORD, this.services)
      : this.ensureAccounts(ns, storedPassword, this.keepPasswordHashes);
  }

  // ---------------------------------------------------------------------------------------------
  // Uid leases and read views

  /**
   * Leases `n` new uids (Dgraph Zero's `/assign?what=uids&num=n`), so a loader can name nodes `<0x…>`
   * before creating them. Returns the first and last uid of the range.
   */
  assignUids(n: number): { startId: number; endId: number } {
    this.assertOpen();
    if (!Number.isSafeInteger(n) || n < 1) throw new DgraphError(`Invalid number of uids to assign: ${n}`);
    const startId = this.oracle.leaseUids(n);
    return { startId, endId: startId + n - 1 };
  }

  /**
   * A read-only view of the latest committed state of one namespace (default 0), for in-process readers
   * (the GraphQL layer) that run the executor themselves. Release it when done: it holds a storage snapshot.
   */
  readView(options: { namespace?: number } = {}): { reader: GraphReader; startTs: number; release(): void } {
    this.assertOpen();
    const ns = this.namespaces.require(options.namespace);
    const txn = new Transaction(this.oracle.maxAssigned(), this.snapshots.acquire(), true, ns.id);
    let released = false;
    return {
      reader: new TxnReader(txn, ns.schema, ns.keys, this.cache, this.snapshots),
      startTs: txn.startTs,
      release: () => {
        if (!released) this.snapshots.release(txn.snapshot);
        released = true;
      },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Bulk load

  /**
   * Loads N-Quads into a namespace (`options.namespace`, default 0) through the bulk loader (see
   * BulkLoader): much faster than transactions, for loading data rather than for use alongside concurrent
   * writers (nor alongside a drop of the same namespace).
   */
  async bulkLoad(
    source: string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
    options: BulkLoadOptions = {},
  ): Promise<BulkLoadResult> {
    this.assertOpen();
    const ns = this.namespaces.require(options.namespace);
    await this.commits.flush();
    const started = performance.now();
    const loader = new BulkLoader(
      {
        schema: ns.schema,
        keys: ns.keys,
        services: this.services,
        leaseUids: (n) => this.oracle.leaseUids(n),
        maxUid: () => this.oracle.maxUid(),
        persistPredicate: (p) => this.persistPredicate(ns, p),
        stage: () => new StagedBatch(this.store.snapshot()),
        apply: (batch) => {
          batch.release();
          const commitTs = this.oracle.nextTs();
          return this.store.applyStaged(batch).then(() => {
            this.cache.clear();
            this.snapshots.advance(commitTs);
          });
        },
      },
      options,
    );
    const decoder = new TextDecoder();
    let loaded: Awaited<ReturnType<BulkLoader["end"]>>;
    try {
      if (typeof source === "string") await loader.push(source);
      else
        for await (const chunk of source)
          await loader.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
      loaded = await loader.end();
    } catch (e) {
      // Flushes made before the failure stay loaded, as they would with a loader writing synchronously.
      await loader.settle().catch(() => undefined);
      throw e;
    }
    const { nquads, newNodes, xids } = loaded;
    return { nquads, newNodes, xids, seconds: (performance.now() - started) / 1000 };
  }

  // ---------------------------------------------------------------------------------------------

  maxAssignedTs(): number {
    return this.oracle.maxAssigned();
  }

  maxLeasedUid(): number {
    return this.oracle.maxUid();
  }

  private assertOpen(): void {
    if (this.closed) throw new DgraphError("the graph database is shut down", "Error");
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    await this.commits.flush();
    for (const t of [...this.txns.all()]) this.txns.finish(t);
    await this.store.close();
  }
}

/** Touched predicates as Dgraph reports them: "<group>-<namespace hex>-<predicate>", sorted. */
function predsOf(txn: Transaction): string[] {
  const head = `1-${txn.namespace.toString(16)}-`;
  return [...txn.preds].map((p) => head + p).sort();
}

/** Throws unless the transaction may still take writes (another request may have finished it). */
function checkWritable(txn: Transaction): void {
  const state = txn.state;
  if (state === "aborted") throw new TxnConflictError();
  if (state !== "open") throw new DgraphError("Transaction has already been committed");
}

/** Dgraph's refusal of a write to a predicate whose index is being built, and what it means. */
function indexingInProgress(predicate: string): DgraphError {
  return new DgraphError(
    `errIndexingInProgress. Please retry: an alter is building the indexes of predicate ${predicate};` +
      " the transaction is aborted, retry it once the alter has finished",
    "ErrorInvalidRequest",
    GrpcStatus.ABORTED,
  );
}

/** A commit or mutation of a transaction while one of its mutations is still being applied. */
function txnBusy(): DgraphError {
  return new DgraphError(
    "Transaction has a mutation in progress; wait for it to return before committing or mutating again",
  );
}

/** A request naming the start ts of another namespace's transaction (it may not touch it). */
function foreignTransaction(startTs: number): DgraphError {
  return new DgraphError(
    `startTs ${startTs} is not a transaction of this namespace; start a new transaction`,
  );
}

/** Variables the mutations and their conditions use: the upsert query must define them. */
function mutationVariables(
  parsed: { set: Edge[]; del: Edge[] }[],
  conds: (ConditionAST | undefined)[],
): string[] {
  const names = new Set<string>();
  for (const c of conds) for (const v of conditionVariables(c)) names.add(v);
  for (const p of parsed) {
    for (const e of [...p.set, ...p.del]) {
      if (e.subject.kind === "var") names.add(e.subject.name);
      if (e.object.kind === "node" && e.object.ref.kind === "var") names.add(e.object.ref.name);
      if (e.object.kind === "valVar") names.add(e.object.name);
    }
  }
  return [...names];
}

function lookupValueVar(m: Map<number, TypedValue> | undefined, subject: number): TypedValue | undefined {
  if (m === undefined) return undefined;
  // A value variable aggregated to a single value applies to every subject.
  return m.get(subject) ?? (m.size === 1 && m.has(0) ? m.get(0) : undefined);
}

export type { Latency };

/**
 * The uids given to a mutation's blank nodes, by label, as Dgraph answers them: for a large mutation (tens
 * of thousands of labels) built in slices, other requests served in between.
 */
async function blankNodeUids(newUids: ReadonlyMap<string, number>): Promise<Record<string, string>> {
  const uids: Record<string, string> = {};
  const pause = timeSlicer(TIME_SLICE_MS);
  let i = 0;
  for (const [label, uid] of newUids) {
    uids[label] = `0x${uid.toString(16)}`;
    if ((++i & 1023) === 0) {
      const paused = pause();
      if (paused !== undefined) await paused;
    }
  }
  return uids;
}
