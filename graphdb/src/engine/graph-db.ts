import { randomInt } from "node:crypto";
import type { ConditionAST } from "../dql/ast.ts";
import { conditionVariables } from "../dql/condition-parser.ts";
import { executeQuery, type QueryResult } from "../dql/executor.ts";
import { parseCondition, parseDql } from "../dql/parser.ts";
import type { Edge } from "../mutation/edge.ts";
import { EdgeResolver } from "../mutation/edge-resolver.ts";
import { parseJsonMutation, parseJsonText } from "../mutation/json-mutation.ts";
import { MutationApplier, type ValueServices } from "../mutation/mutation-applier.ts";
import { parseNQuads } from "../mutation/rdf-parser.ts";
import { evaluateCondition } from "../mutation/upsert-condition.ts";
import { deletePostings } from "../posting/list-tail.ts";
import { PostingCache } from "../posting/posting-cache.ts";
import { SchemaState } from "../schema/schema-state.ts";
import type { PredicateSchema } from "../schema/schema-types.ts";
import { allPredicateKeysRange, predicateRange } from "../store/keys.ts";
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
import type { TypedValue } from "../types/scalar.ts";
import { BulkLoader, type BulkLoadOptions, type BulkLoadResult } from "./bulk-loader.ts";
import { Catalog } from "./catalog.ts";
import { derivedKeysChanged, rebuildDerivedKeys } from "./derived-keys.ts";
import type {
  AlterOperation,
  CommitRequest,
  GraphEngine,
  Latency,
  MutateRequest,
  MutateResponse,
  MutationInput,
  QueryRequest,
  QueryResponse,
  TxnContext,
} from "./engine-api.ts";
import { DgraphError, TxnAbortedError, TxnConflictError } from "./errors.ts";
import type { GraphReader } from "./graph-reader.ts";
import { applySchemaText, bootstrapSchema } from "./schema-alter.ts";
import { TxnRegistry } from "./txn-registry.ts";
import { valueServices } from "./value-services.ts";

export interface GraphDBOptions {
  /** Data directory (LMDB files). */
  dir: string;
  /** Bytes of decoded posting lists kept in memory (default 256 MiB). */
  cacheBytes?: number;
  /** Pending transactions idle longer than this are aborted (default 5 minutes, as Dgraph). */
  txnAbortAfterMs?: number;
  /** Adds the ACL predicates and types to the schema. */
  acl?: boolean;
  /** Skip fsync: only for benchmarks that measure CPU cost. */
  noSync?: boolean;
  /** Use this store instead of LMDB at `dir`. */
  store?: KVStore;
}

const NO_KEYS: ReadonlySet<number> = new Set();

/** Most N-Quads one request may carry (Dgraph's limit). */
export const MAX_NQUADS_PER_REQUEST = 1_000_000;
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
 * snapshot-isolated transactions. Transports (HTTP, gRPC) call it through GraphEngine.
 */
export class GraphDB implements GraphEngine {
  readonly schema = new SchemaState();
  private readonly store: KVStore;
  private readonly catalog: Catalog;
  private readonly oracle: Oracle;
  private readonly cache: PostingCache;
  private readonly snapshots: SnapshotManager;
  private readonly commits: CommitQueue;
  private readonly txns: TxnRegistry;
  private readonly services: ValueServices = valueServices;
  private readonly sweeper: NodeJS.Timeout;
  private readonly abortAfterMs: number;
  private lastReadOnlyTs = 0;
  private commitsSincePurge = 0;
  private closed = false;
  /** Random part of generated JSON blank-node labels (`dg.<rand>.<n>`), as Dgraph. */
  private readonly labelSeed = randomInt(0, 2 ** 32 - 1);
  private labelCounter = 0;

  constructor(options: GraphDBOptions) {
    this.store = options.store ?? new LmdbStore({ dir: options.dir, noSync: options.noSync });
    this.catalog = new Catalog(this.store);
    const existing = this.catalog.loadSchema(this.schema);
    this.oracle = new Oracle(this.catalog, this.catalog.loadLeases());
    this.cache = new PostingCache(options.cacheBytes ?? 256 * 1024 * 1024);
    this.snapshots = new SnapshotManager(this.store);
    this.snapshots.advance(this.oracle.maxAssigned());
    this.commits = new CommitQueue(
      new CommitWriter(this.store, this.cache, this.snapshots, this.schema),
      () => this.oracle.nextTs(),
    );
    this.txns = new TxnRegistry(this.snapshots);
    if (!existing || options.acl) this.persist(bootstrapSchema(this.schema, { acl: options.acl ?? false }));
    this.abortAfterMs = options.txnAbortAfterMs ?? 5 * 60_000;
    this.sweeper = setInterval(() => this.sweep(), Math.min(10_000, this.abortAfterMs)).unref();
  }

  // ---------------------------------------------------------------------------------------------
  // Query

  async query(req: QueryRequest): Promise<QueryResponse> {
    const t0 = now();
    this.assertOpen();
    if (req.bestEffort && !req.readOnly) throw new DgraphError("A best effort query must be read-only.");
    const doc = parseDql(req.query, req.vars);
    const t1 = now();
    const { txn, assigned } = this.txnForQuery(req);
    const t2 = now();
    const result = this.execute(txn, doc, req);
    const t3 = now();
    return {
      json: result.json,
      rdf: result.rdf,
      txn: { start_ts: txn.startTs },
      latency: latency(t0, t1, t2, t3, assigned),
      metrics: result.metrics,
    };
  }

  private execute(txn: Transaction, doc: ReturnType<typeof parseDql>, req: QueryRequest): QueryResult {
    const reader = new TxnReader(txn, this.schema, this.cache, this.snapshots);
    return executeQuery(reader, doc, {
      debug: req.debug,
      deadline: req.timeoutMs ? Date.now() + req.timeoutMs : undefined,
      respFormat: req.respFormat,
    });
  }

  private txnForQuery(req: QueryRequest): { txn: Transaction; assigned: boolean } {
    if (req.startTs) return { txn: this.existingTxn(req.startTs), assigned: false };
    if (req.readOnly || req.bestEffort) {
      // Read-only timestamps are reused while no other timestamp has been handed out (as Dgraph).
      if (this.lastReadOnlyTs !== this.oracle.maxAssigned()) this.lastReadOnlyTs = this.oracle.nextTs();
      const ts = this.lastReadOnlyTs;
      return { txn: this.txns.get(ts) ?? this.txns.begin(ts, true), assigned: true };
    }
    return { txn: this.txns.begin(this.oracle.nextTs()), assigned: true };
  }

  /** The live transaction with this start ts, or one adopted at it when nothing committed since. */
  private existingTxn(startTs: number): Transaction {
    const txn = this.txns.get(startTs);
    if (txn !== undefined) return txn;
    if (startTs > this.oracle.maxAssigned()) {
      throw new DgraphError(
        `startTs ${startTs} was never handed out by this server; start a new transaction`,
      );
    }
    const decision = this.oracle.decision(startTs);
    if (decision === 0) throw new TxnConflictError();
    if (this.snapshots.currentEpoch() <= startTs) return this.txns.begin(startTs);
    throw new DgraphError(
      `Transaction with startTs ${startTs} has expired or is unknown (the server may have restarted); start a new transaction`,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Mutate

  async mutate(req: MutateRequest): Promise<MutateResponse> {
    const t0 = now();
    this.assertOpen();
    const parsed = req.mutations.map((m) => this.parseMutation(m));
    const total = parsed.reduce((n, p) => n + p.set.length + p.del.length, 0);
    if (total > MAX_NQUADS_PER_REQUEST) {
      throw new DgraphError(
        `NQuad count in the request: ${total}, is more that threshold: ${MAX_NQUADS_PER_REQUEST}`,
      );
    }
    const conds = parsed.map((p) => (p.cond === undefined ? undefined : parseCondition(p.cond)));
    const upsertDoc = req.query
      ? parseDql(req.query, req.vars, { needVars: mutationVariables(parsed, conds) })
      : undefined;
    const t1 = now();
    let assigned = false;
    let txn: Transaction;
    if (req.startTs) {
      txn = this.existingTxn(req.startTs);
    } else {
      txn = this.txns.begin(this.oracle.nextTs());
      assigned = true;
    }
    if (txn.state === "aborted") throw new TxnConflictError();
    if (txn.state === "committed" || txn.state === "committing")
      throw new DgraphError("Transaction has already been committed");
    const t2 = now();
    const reader = new TxnReader(txn, this.schema, this.cache, this.snapshots);
    let queryResult: QueryResult | undefined;
    if (upsertDoc)
      queryResult = executeQuery(reader, upsertDoc, {
        deadline: req.timeoutMs ? Date.now() + req.timeoutMs : undefined,
      });
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
    resolver.allocate(
      chosen.flatMap((p) => [
        { edges: p.del, op: "delete" as const },
        { edges: p.set, op: "set" as const },
      ]),
    );
    const applier = new MutationApplier(txn, reader, this.schema, this.services, (p) =>
      this.persistPredicate(p),
    );
    try {
      for (const p of chosen)
        applier.apply(resolver.resolve(p.del, "delete"), resolver.resolve(p.set, "set"));
    } catch (e) {
      // A half-applied mutation must never reach storage: the transaction is aborted.
      if (txn.hasWrites) this.abortTxn(txn);
      throw e;
    }
    const uids: Record<string, string> = {};
    for (const [label, uid] of resolver.newUids) uids[label] = `0x${uid.toString(16)}`;
    const ctx: TxnContext = req.commitNow ? await this.commitTxn(txn) : this.txnContext(txn);
    const t3 = now();
    return {
      uids,
      queriesJson: queryResult?.json,
      txn: ctx,
      latency: latency(t0, t1, t2, t3, assigned),
    };
  }

  private parseMutation(m: MutationInput): { set: Edge[]; del: Edge[]; cond?: string } {
    const ctx = { nextBlankLabel: () => `dg.${this.labelSeed}.${++this.labelCounter}` };
    const json = (v: unknown) => (typeof v === "string" ? parseJsonText(v) : v);
    const set: Edge[][] = [];
    const del: Edge[][] = [];
    if (m.setJson !== undefined) set.push(parseJsonMutation(json(m.setJson), "set", ctx));
    if (m.deleteJson !== undefined) del.push(parseJsonMutation(json(m.deleteJson), "delete", ctx));
    if (m.setNquads) set.push(parseNQuads(m.setNquads, { op: "set" }));
    if (m.delNquads) del.push(parseNQuads(m.delNquads, { op: "delete" }));
    // concat, not push(...): spreading 100k+ edges overflows the call stack.
    return { set: ([] as Edge[]).concat(...set), del: ([] as Edge[]).concat(...del), cond: m.cond };
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
    if (!req.startTs) throw new DgraphError("StartTs cannot be zero while committing a transaction");
    const txn = this.txns.get(req.startTs);
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
    return this.commitTxn(txn);
  }

  private async commitTxn(txn: Transaction): Promise<TxnContext> {
    if (!txn.hasWrites) {
      const commitTs = this.oracle.nextTs();
      this.oracle.recordCommit(txn.startTs, commitTs, []);
      txn.state = "committed";
      this.txns.finish(txn);
      return { start_ts: txn.startTs, commit_ts: commitTs };
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
    // Drops and index rebuilds act on everything committed: queued commits first.
    this.commits.flush();
    const dropOp = op.dropOp ?? "NONE";
    const hasSchema = (op.schema ?? "").trim() !== "";
    if (!hasSchema && !op.dropAttr && !op.dropAll && dropOp === "NONE") {
      throw new DgraphError("Operation must have at least one field set", "Error");
    }
    if (op.dropAll || dropOp === "ALL") return this.dropAll();
    if (dropOp === "DATA") {
      if (op.dropValue) throw new DgraphError("If DropOp is set to DATA, DropValue must be empty", "Error");
      return this.dropData();
    }
    if (op.dropAttr || dropOp === "ATTR") {
      const name = op.dropAttr || op.dropValue;
      if (!name) throw new DgraphError("If DropOp is set to ATTR, DropValue must not be empty", "Error");
      return this.dropPredicate(name);
    }
    if (dropOp === "TYPE") {
      if (!op.dropValue)
        throw new DgraphError("If DropOp is set to TYPE, DropValue must not be empty", "Error");
      const name = op.dropValue;
      this.schema.deleteType(name);
      await this.store.write((w) => Catalog.deleteType(w, name)).durable;
      return;
    }
    const changes = applySchemaText(this.schema, op.schema ?? "");
    const { durable } = this.store.write((w) => {
      for (const p of changes.predicates) {
        Catalog.putPredicate(w, p.next);
        if (derivedKeysChanged(p.old, p.next)) rebuildDerivedKeys(w, p.next, this.services);
      }
      for (const t of changes.types) Catalog.putType(w, t);
    });
    for (const p of changes.predicates) this.schema.setPredicate(p.next);
    for (const t of changes.types) this.schema.setType(t);
    this.afterBulkWrite();
    await durable;
  }

  private async dropAll(): Promise<void> {
    const { durable } = this.store.write((w) => {
      deletePostings(w, allPredicateKeysRange.start, allPredicateKeysRange.end);
      Catalog.deleteAllSchema(w);
    });
    this.schema.clear();
    this.afterBulkWrite();
    await durable;
    this.persist(bootstrapSchema(this.schema, { acl: this.schema.predicate("dgraph.xid") !== undefined }));
  }

  private async dropData(): Promise<void> {
    const { durable } = this.store.write((w) =>
      deletePostings(w, allPredicateKeysRange.start, allPredicateKeysRange.end),
    );
    this.afterBulkWrite();
    await durable;
  }

  private async dropPredicate(name: string): Promise<void> {
    if (name === "dgraph.type" || name.startsWith("dgraph.")) {
      throw new DgraphError(`predicate ${name} is pre-defined and is not allowed to be dropped`, "Error");
    }
    const range = predicateRange(name);
    const { durable } = this.store.write((w) => {
      deletePostings(w, range.start, range.end);
      Catalog.deletePredicate(w, name);
    });
    this.schema.deletePredicate(name);
    this.afterBulkWrite();
    await durable;
  }

  /** After writes that bypass transactions: forget cached lists, and let new readers see the change. */
  private afterBulkWrite(): void {
    this.cache.clear();
    this.snapshots.advance(this.oracle.nextTs());
  }

  private persistPredicate(p: PredicateSchema): void {
    this.store.write((w) => Catalog.putPredicate(w, p));
  }

  private persist(changes: {
    predicates: PredicateSchema[];
    types: { name: string; fields: string[] }[];
  }): void {
    this.store.write((w) => {
      for (const p of changes.predicates) Catalog.putPredicate(w, p);
      for (const t of changes.types) Catalog.putType(w, t);
    });
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
   * A read-only view of the latest committed state, for in-process readers (the GraphQL layer) that run
   * the executor themselves. Release it when done: it holds a storage snapshot.
   */
  readView(): { reader: GraphReader; startTs: number; release(): void } {
    this.assertOpen();
    const txn = new Transaction(this.oracle.maxAssigned(), this.snapshots.acquire());
    let released = false;
    return {
      reader: new TxnReader(txn, this.schema, this.cache, this.snapshots),
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
   * Loads N-Quads through the bulk loader (see BulkLoader): much faster than transactions, for loading
   * data rather than for use alongside concurrent writers.
   */
  async bulkLoad(
    source: string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
    options: BulkLoadOptions = {},
  ): Promise<BulkLoadResult> {
    this.assertOpen();
    this.commits.flush();
    const started = performance.now();
    const loader = new BulkLoader(
      {
        schema: this.schema,
        services: this.services,
        leaseUids: (n) => this.oracle.leaseUids(n),
        maxUid: () => this.oracle.maxUid(),
        persistPredicate: (p) => this.persistPredicate(p),
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
    this.commits.flush();
    for (const t of [...this.txns.all()]) this.txns.finish(t);
    await this.store.close();
  }
}

/** Touched predicates as Dgraph reports them: "<group>-<namespace>-<predicate>", sorted. */
function predsOf(txn: Transaction): string[] {
  return [...txn.preds].map((p) => `1-0-${p}`).sort();
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
