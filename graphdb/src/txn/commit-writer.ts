import type { SchemaView } from "../core/graph-reader.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import { appendUids, readList, writeList } from "../posting/list-tail.ts";
import type { PostingCache } from "../posting/posting-cache.ts";
import {
  appendableHeader,
  type DataRecord,
  decodeRecord,
  decodeRecordView,
  encodeRecord,
} from "../posting/posting-record.ts";
import { sortInSlices } from "../sched/sort-in-slices.ts";
import {
  attrOfKey,
  countKeyOf,
  KeyKind,
  keyKind,
  keyString,
  readUid,
  restOffset,
  tailKey,
} from "../store/keys.ts";
import type { KVStore, KVWriter } from "../store/kv-store.ts";
import { PendingWrites } from "../store/pending-writes.ts";
import { isEmptyRecord, KeyDelta } from "./key-delta.ts";
import type { SnapshotManager } from "./snapshot-manager.ts";

/**
 * Applies transactions' deltas to the latest committed state in one atomic write, then publishes the new
 * versions to the posting cache and advances the snapshot epoch. Deltas are written in key order, which
 * keeps LMDB's B-tree inserts local. Several commits can share one write (`CommitQueue`).
 */
export class CommitWriter {
  constructor(
    private readonly store: KVStore,
    private readonly cache: PostingCache,
    private readonly snapshots: SnapshotManager,
    /** The schema of a namespace (keys carry theirs), undefined for one that no longer exists. */
    private readonly schemaOf: (namespace: number) => SchemaView | undefined,
  ) {}

  private readonly counting = new Map<
    string,
    {
      name: string;
      state: SchemaView | undefined;
      schema: PredicateSchema | undefined;
      counted: Counted | undefined;
    }
  >();

  /**
   * Writes the deltas of one or more commits, in commit-ts order, in one atomic write: each commit's deltas
   * apply on top of the ones before it. Returns a promise that resolves when the write is durable.
   *
   * Count index keys (`@count`) are derived here, from the lengths of the data and reverse lists before
   * and after each commit's changes, not taken from the transactions: a transaction computed its count
   * moves from its snapshot, and a concurrent commit to the same list (another value added to a list
   * predicate, another subject pointing at the same object) would make them wrong. So count keys need no
   * conflict keys, and concurrent writers of one popular object's reverse list both commit.
   */
  apply(commits: readonly { commitTs: number; deltas: Iterable<[string, KeyDelta]> }[]): Promise<void> {
    const group = this.begin(commits.map((c) => c.deltas));
    const { durable } = this.store.write((w) => {
      for (const _ of this.applyAll(w, group));
    });
    this.publish(
      group,
      commits.map((c) => c.commitTs),
      true,
    );
    return durable;
  }

  /**
   * `apply` for a large group, in parts: the group's new records are computed against a snapshot of the
   * latest committed state, pausing (`pause`, between keys) while other work runs, and recorded; only
   * `commitPrepared` writes them, in one short atomic write. Nothing else may write the group's keys in
   * between: the commit queue writes groups one after another, and alters and drops wait for it.
   */
  async prepare(
    deltas: readonly Iterable<[string, KeyDelta]>[],
    pause: () => Promise<void> | undefined,
  ): Promise<PreparedGroup> {
    const group = await this.beginInSlices(deltas, pause);
    const pending = new PendingWrites(this.store.snapshot());
    try {
      const steps = this.applyAll(pending.writer(), group);
      for (;;) {
        if (steps.next().done) break;
        const paused = pause();
        if (paused !== undefined) await paused;
      }
    } catch (e) {
      pending.release();
      throw e;
    }
    return { group, pending };
  }

  /**
   * Writes a prepared group (`prepare`) in one atomic write, in the background: the thread goes on while
   * the store writes it. Once it lands, `takeTs` gives the commit timestamps (one per commit) and the group
   * is published. Until then every snapshot handed out is the one pinned before the write, which does not
   * see it; nothing else may write or advance the snapshot epoch meanwhile (the commit queue holds its
   * other commits back). Its keys are dropped from the posting cache rather than re-published: copying a
   * large group's records into the cache would take as long as writing them.
   */
  async commitPrepared(
    prepared: PreparedGroup,
    takeTs: () => readonly number[],
  ): Promise<{ commitTs: readonly number[]; durable: Promise<void> }> {
    let durable: Promise<void>;
    try {
      this.snapshots.pin();
      const write = this.store.writeStaged(prepared.pending.staged());
      durable = write.durable;
      await write.landed;
    } finally {
      prepared.pending.release();
    }
    const commitTs = takeTs();
    this.publish(prepared.group, commitTs, false);
    return { commitTs, durable };
  }

  /** Whether the store is writing in the background: a write now would wait for it, holding the thread. */
  get storeBusy(): boolean {
    return this.store.writingInBackground;
  }

  /** `begin` for a large group: its deltas gathered and sorted pausing between steps. */
  private async beginInSlices(
    deltas: readonly Iterable<[string, KeyDelta]>[],
    pause: () => Promise<void> | undefined,
  ): Promise<Group> {
    const sorted: [string, KeyDelta][][] = [];
    for (const d of deltas) {
      const list: [string, KeyDelta][] = [];
      let n = 0;
      for (const entry of d) {
        if (!isCountKey(entry[1].key)) list.push(entry);
        if ((++n & 8191) === 0) {
          const paused = pause();
          if (paused !== undefined) await paused;
        }
      }
      sorted.push(await sortInSlices(list, byKey, pause));
    }
    return { sorted, published: [], touched: deltas.length > 1 ? new Set<string>() : undefined };
  }

  /** Sorts each commit's deltas into key order, count keys left out (derived as the group is applied). */
  private begin(deltas: readonly Iterable<[string, KeyDelta]>[]): Group {
    // Latin-1 key strings order exactly as the key bytes do, and compare natively.
    const sorted = deltas.map((d) => [...d].filter(([, k]) => !isCountKey(k.key)).sort(byKey));
    // A key an earlier commit of the group changed: its cached view is stale until the group is published.
    return { sorted, published: [], touched: deltas.length > 1 ? new Set<string>() : undefined };
  }

  /**
   * Applies a group's deltas through `w`, commit after commit, each commit's count keys after its own
   * deltas; yields after every few keys, so that a caller may pause in between.
   */
  private *applyAll(w: KVWriter, group: Group): Generator<void, void, void> {
    const { sorted, published, touched } = group;
    for (let c = 0; c < sorted.length; c++) {
      const counts = new Map<string, KeyDelta>();
      const moveCount = (
        _s: PredicateSchema,
        key: Uint8Array,
        reverse: boolean,
        before: number,
        after: number,
      ) => {
        if (before === after) return;
        const uid = readUid(key, restOffset(key));
        // The count keys of the data or reverse key's own predicate, in its own namespace.
        if (before > 0) countDelta(counts, countKeyOf(key, before, reverse)).removeUid(uid);
        if (after > 0) countDelta(counts, countKeyOf(key, after, reverse)).addUid(uid);
      };
      const deltas = sorted[c];
      const out: (DataRecord | undefined)[] = [];
      for (let i = 0; i < deltas.length; i++) {
        out.push(this.applyDelta(w, deltas[i][0], deltas[i][1], touched, moveCount));
        if ((i & 31) === 31) yield;
      }
      const countDeltas = [...counts].sort(byKey);
      for (let i = 0; i < countDeltas.length; i++) {
        const [ks, d] = countDeltas[i];
        deltas.push([ks, d]);
        out.push(this.applyDelta(w, ks, d, touched));
        if ((i & 31) === 31) yield;
      }
      published.push(out);
    }
  }

  /**
   * After a group's write: its records go to the posting cache (or its keys leave it), and later snapshots
   * see the write.
   */
  private publish(group: Group, commitTs: readonly number[], republish: boolean): void {
    const { sorted, published, touched } = group;
    for (let c = 0; c < sorted.length; c++) {
      const deltas = sorted[c];
      for (let i = 0; i < deltas.length; i++) {
        const rec = published[c][i];
        const ks = deltas[i][0];
        if (!republish) {
          this.cache.invalidate(ks);
          continue;
        }
        if (rec === undefined) {
          // Appended in this group after an earlier commit of it published the key: drop that view.
          if (touched?.has(ks)) this.cache.invalidate(ks);
          continue;
        }
        // Mutations read data and reverse lists back (values, reverse counts); index and count lists are
        // only read by queries, so they are dropped and cached again by the next query that reads them.
        const kind = keyKind(deltas[i][1].key);
        if (kind === KeyKind.data || kind === KeyKind.reverse) this.cache.set(ks, rec, commitTs[c]);
        else this.cache.invalidate(ks);
      }
    }
    this.snapshots.advance(commitTs[commitTs.length - 1]);
  }

  /**
   * Applies one key's delta inside the write; returns the record to publish, if any. With `moveCount`,
   * reports how the length of a counted data or reverse list changed.
   */
  private applyDelta(
    w: KVWriter,
    ks: string,
    d: KeyDelta,
    touched: Set<string> | undefined,
    moveCount?: (
      s: PredicateSchema,
      key: Uint8Array,
      reverse: boolean,
      before: number,
      after: number,
    ) => void,
  ): DataRecord | undefined {
    const counted = moveCount ? this.countedPredicate(d.key, ks) : undefined;
    const reverse = counted !== undefined && keyKind(d.key) === KeyKind.reverse;
    /** The delta applied to the key's record, reporting how a counted list's length moved. */
    const apply = (prev: DataRecord): DataRecord => {
      const next = d.applyTo(prev);
      if (counted) moveCount!(counted.s, d.key, reverse, counted.length(prev), counted.length(next));
      touched?.add(ks);
      return next;
    };
    // The posting cache holds only latest committed versions (a key absent from the store is cached as an
    // empty record): a cached record that cannot have a tail is the key's value, decoded, without a read.
    // Not for keys an earlier commit of this group changed (published only after the write).
    const cached = touched?.has(ks) ? undefined : this.cache.peek(ks);
    const known = cached !== undefined && cannotHaveTail(cached) ? cached : undefined;
    // Otherwise one lookup for most keys: only long (appendable) lists can have a tail or be appended to.
    const raw = known === undefined ? w.peek(d.key) : undefined;
    const list = appendableHeader(raw);
    if (list === undefined) {
      const prev = known ?? decodeRecordView(raw);
      const next = apply(prev);
      if (!isEmptyRecord(next)) w.put(d.key, encodeRecord(next));
      else if (raw !== undefined || !isEmptyRecord(prev)) w.delete(d.key);
      return next;
    }
    const adds = d.appendOnlyUids();
    if (adds) {
      const before = counted ? list.count + (appendableHeader(w.peek(tailKey(d.key)))?.count ?? 0) : 0;
      if (appendUids(w, d.key, adds, list)) {
        if (counted) moveCount!(counted.s, d.key, reverse, before, before + adds.length);
        // Large list, only higher uids added: appended (or added to its tail) without re-encoding it.
        touched?.add(ks);
        // Re-publishing a long list would copy all of it on every commit (8 bytes a uid): drop it instead,
        // and let the next reader decode it once.
        if (cached !== undefined && cached.uids.length < PUBLISH_APPENDED_MAX)
          return { uids: concatUids(cached.uids, adds), values: [] };
        this.cache.invalidate(ks);
        return undefined;
      }
    }
    const { value, tail } = readList(w, d.key);
    const next = apply(decodeRecord(value));
    writeList(w, d.key, isEmptyRecord(next) ? undefined : encodeRecord(next), tail);
    return next;
  }

  /**
   * How a data or reverse key's list length is counted, when its predicate has `@count`; undefined
   * otherwise. Cached by the key's predicate prefix (namespace included), and checked against the schema
   * (an alter replaces the predicate's schema object).
   */
  private countedPredicate(key: Uint8Array, ks: string): Counted | undefined {
    const kind = keyKind(key);
    if (kind !== KeyKind.data && kind !== KeyKind.reverse) return undefined;
    const prefix = ks.slice(0, restOffset(key));
    let entry = this.counting.get(prefix);
    if (entry === undefined || entry.state?.predicate(entry.name) !== entry.schema) {
      const { namespace, name } = attrOfKey(key);
      const state = this.schemaOf(namespace);
      const s = state?.predicate(name);
      entry = { name, state, schema: s, counted: s ? counting(s, kind) : undefined };
      if (this.counting.size >= 10_000) this.counting.clear();
      this.counting.set(prefix, entry);
    }
    return entry.counted;
  }
}

/** A group of commits being applied: each commit's deltas in key order, and the records they produced. */
interface Group {
  sorted: [string, KeyDelta][][];
  published: (DataRecord | undefined)[][];
  touched: Set<string> | undefined;
}

/** A group prepared in parts (`CommitWriter.prepare`), waiting for its write. */
export interface PreparedGroup {
  readonly group: Group;
  readonly pending: PendingWrites;
}

const byKey = (a: [string, KeyDelta], b: [string, KeyDelta]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** A counted predicate and how its lists' lengths are measured. */
interface Counted {
  s: PredicateSchema;
  length(r: DataRecord): number;
}

function counting(s: PredicateSchema, kind: number): Counted | undefined {
  if (!s.count) return undefined;
  if (kind === KeyKind.reverse) return s.reverse ? { s, length: uidLength } : undefined;
  // As rebuildDerivedKeys counts: uid predicates by their uids, list scalars by their values.
  if (s.type === "uid") return { s, length: uidLength };
  return s.list ? { s, length: valueLength } : undefined;
}

const uidLength = (r: DataRecord) => r.uids.length;
const valueLength = (r: DataRecord) => r.values.length;

function isCountKey(key: Uint8Array): boolean {
  const kind = keyKind(key);
  return kind === KeyKind.count || kind === KeyKind.countReverse;
}

function countDelta(counts: Map<string, KeyDelta>, key: Uint8Array): KeyDelta {
  const ks = keyString(key);
  let d = counts.get(ks);
  if (d === undefined) counts.set(ks, (d = new KeyDelta(key, true)));
  return d;
}

/**
 * Whether a record's stored form cannot have a tail key: values, facets, or fewer uids than a list needs
 * before it is stored appendable (tails only extend appendable lists of 1,024+ uids).
 */
function cannotHaveTail(r: DataRecord): boolean {
  return r.values.length > 0 || r.uidFacets !== undefined || r.uids.length < 128;
}

/** Appended lists at least this long are dropped from the posting cache rather than re-published. */
const PUBLISH_APPENDED_MAX = 1024;

function concatUids(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
