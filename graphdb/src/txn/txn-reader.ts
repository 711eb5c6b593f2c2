import type { Facet } from "../core/facet.ts";
import type { GraphReader, IndexEntry, SchemaView, UidList, ValuePosting } from "../core/graph-reader.ts";
import { withTail } from "../posting/list-tail.ts";
import type { PostingCache, UidGroup } from "../posting/posting-cache.ts";
import { type DataRecord, decodeRecord } from "../posting/posting-record.ts";
import { sortUnique } from "../posting/uid-list.ts";
import {
  KeyKind,
  keyString,
  type NamespaceKeys,
  prefixEnd,
  readCount,
  readUid,
  restOffset,
} from "../store/keys.ts";
import { isEmptyRecord, type KeyDelta } from "./key-delta.ts";
import type { SnapshotManager } from "./snapshot-manager.ts";
import type { Transaction } from "./transaction.ts";

/**
 * The GraphReader of one transaction in one namespace: its snapshot, seen through the shared posting cache,
 * with the transaction's own pending deltas applied on top (read-your-own-writes). Every key it builds is
 * one of its namespace's (`keys`), so nothing of another namespace can be named through it.
 */
export class TxnReader implements GraphReader {
  /** Merged views of keys this transaction wrote, valid while the delta's version is unchanged. */
  private readonly merged = new Map<string, { rec: DataRecord; version: number }>();

  constructor(
    private readonly txn: Transaction,
    readonly schema: SchemaView,
    /** The keys of the namespace it reads. */
    readonly keys: NamespaceKeys,
    private readonly cache: PostingCache,
    private readonly snapshots: SnapshotManager,
  ) {}

  /** The committed version of a key as of the snapshot. */
  private base(key: Uint8Array, ks: string): DataRecord {
    const snap = this.txn.snapshot;
    const cached = this.cache.get(ks, snap.epoch);
    if (cached !== undefined) return cached;
    const rec = this.load(key);
    if (snap.epoch === this.snapshots.currentEpoch()) this.cache.set(ks, rec, snap.epoch);
    return rec;
  }

  /** A key's committed record read from the snapshot (with its tail), given its raw value if already read. */
  private load(key: Uint8Array, raw?: Uint8Array): DataRecord {
    const kv = this.txn.snapshot.kv;
    return decodeRecord(withTail((k) => kv.get(k), key, raw ?? kv.get(key)));
  }

  /** The key as this transaction sees it. */
  record(key: Uint8Array): DataRecord {
    const ks = keyString(key);
    if (this.txn.deltas.size === 0) return this.base(key, ks);
    const d = this.txn.deltas.get(ks);
    if (d === undefined) return this.base(key, ks);
    const m = this.merged.get(ks);
    if (m !== undefined && m.version === d.version) return m.rec;
    const rec = d.applyTo(this.base(key, ks));
    this.merged.set(ks, { rec, version: d.version });
    return rec;
  }

  /** Number of uids under a key as this transaction sees it (no merged list is built). */
  uidCount(key: Uint8Array): number {
    const ks = keyString(key);
    const d = this.txn.deltas.get(ks);
    const base = this.base(key, ks).uids;
    return d === undefined ? base.length : d.uidCountOn(base);
  }

  /**
   * The committed version of a data or reverse key, found in the cache by uid (no key bytes or string are
   * built on a hit). Only for transactions without writes: own deltas are keyed by key string.
   */
  private baseByUid(group: UidGroup, kind: number, pred: string, uid: number): DataRecord {
    const snap = this.txn.snapshot;
    const cached = this.cache.getIn(group, uid, snap.epoch);
    if (cached !== undefined) return cached;
    const key = kind === KeyKind.data ? this.keys.dataKey(pred, uid) : this.keys.reverseKey(pred, uid);
    const rec = this.load(key);
    if (snap.epoch === this.snapshots.currentEpoch())
      this.cache.setIn(group, uid, rec, snap.epoch, key.length);
    return rec;
  }

  /** The records of a predicate's data (or reverse) keys for these uids, as this transaction sees them. */
  private recordsByUid(pred: string, kind: number, uids: UidList): DataRecord[] {
    const out = new Array<DataRecord>(uids.length);
    if (this.txn.deltas.size > 0) {
      const keys = this.keys;
      for (let i = 0; i < uids.length; i++)
        out[i] = this.record(
          kind === KeyKind.data ? keys.dataKey(pred, uids[i]) : keys.reverseKey(pred, uids[i]),
        );
      return out;
    }
    const group = this.cache.uidGroup(this.keys.kindKeyPrefix(pred, kind));
    for (let i = 0; i < uids.length; i++) out[i] = this.baseByUid(group, kind, pred, uids[i]);
    return out;
  }

  private recordByUid(pred: string, kind: number, uid: number): DataRecord {
    if (this.txn.deltas.size > 0)
      return this.record(
        kind === KeyKind.data ? this.keys.dataKey(pred, uid) : this.keys.reverseKey(pred, uid),
      );
    return this.baseByUid(this.cache.uidGroup(this.keys.kindKeyPrefix(pred, kind)), kind, pred, uid);
  }

  uids(pred: string, subject: number): UidList {
    return this.recordByUid(pred, KeyKind.data, subject).uids;
  }

  uidsMany(pred: string, subjects: UidList): UidList[] {
    return this.recordsByUid(pred, KeyKind.data, subjects).map((r) => r.uids);
  }

  edgeFacets(pred: string, subject: number, object: number): Facet[] | undefined {
    return this.recordByUid(pred, KeyKind.data, subject).uidFacets?.get(object);
  }

  values(pred: string, subject: number): ValuePosting[] {
    return this.recordByUid(pred, KeyKind.data, subject).values;
  }

  valuesMany(pred: string, subjects: UidList): ValuePosting[][] {
    return this.recordsByUid(pred, KeyKind.data, subjects).map((r) => r.values);
  }

  reverse(pred: string, object: number): UidList {
    return this.recordByUid(pred, KeyKind.reverse, object).uids;
  }

  index(pred: string, token: Uint8Array): UidList {
    return this.record(this.keys.indexKey(pred, token)).uids;
  }

  indexRange(
    pred: string,
    tokenizerId: number,
    from: Uint8Array | undefined,
    to: Uint8Array | undefined,
    visit: (entry: IndexEntry) => boolean | undefined,
    reverse = false,
  ): void {
    const keys = this.keys;
    const all = keys.kindRange(pred, KeyKind.index, new Uint8Array([tokenizerId]));
    const start = from ? keys.indexKey(pred, from) : all.start;
    const end = to ? prefixEnd(keys.indexKey(pred, to)) : all.end;
    // `to` is inclusive of exactly that token: prefixEnd would also admit longer tokens sharing the prefix.
    const toKey = to ? keys.indexKey(pred, to) : undefined;
    const at = restOffset(all.start);
    this.walk(start, end, reverse, (key, rec) => {
      if (toKey !== undefined && Buffer.compare(key, toKey) > 0) return reverse ? undefined : false;
      if (rec.uids.length === 0) return undefined;
      return visit({ token: key.subarray(at), uids: rec.uids });
    });
  }

  countIndex(pred: string, count: number, reverse: boolean): UidList {
    return this.record(this.keys.countKey(pred, count, reverse)).uids;
  }

  countRange(
    pred: string,
    reverse: boolean,
    min: number,
    max: number,
    visit: (count: number, uids: UidList) => void,
  ): void {
    const start = this.keys.countKey(pred, Math.max(0, min), reverse);
    const end = prefixEnd(this.keys.countKey(pred, Math.min(max, 0xffffffff), reverse));
    this.walk(start, end, false, (key, rec) => {
      if (rec.uids.length > 0) visit(readCount(key, restOffset(key)), rec.uids);
      return undefined;
    });
  }

  subjectsWith(pred: string): UidList {
    return this.keysOfKind(pred, KeyKind.data);
  }

  subjectsWithPage(pred: string, after: number, limit: number): UidList | undefined {
    const { start, end } = this.keys.kindRange(pred, KeyKind.data);
    if (this.pendingIn(start, end).length > 0) return undefined;
    const from = after > 0 ? this.keys.dataKey(pred, after + 1) : start;
    const at = restOffset(start);
    const out = new Float64Array(limit);
    let n = 0;
    for (const key of this.txn.snapshot.kv.scanKeys({ start: from, end, limit })) out[n++] = readUid(key, at);
    return out.subarray(0, n);
  }

  objectsWith(pred: string): UidList {
    return this.keysOfKind(pred, KeyKind.reverse);
  }

  private keysOfKind(pred: string, kind: number): UidList {
    const { start, end } = this.keys.kindRange(pred, kind);
    const at = restOffset(start);
    let out: Float64Array = new Float64Array(64);
    let n = 0;
    const pending = this.pendingIn(start, end);
    if (pending.length === 0) {
      // Fast path: existence of the key is enough (empty lists are deleted on commit).
      for (const key of this.txn.snapshot.kv.scanKeys({ start, end })) {
        if (n === out.length) out = grow(out);
        out[n++] = readUid(key, at);
      }
      return out.subarray(0, n);
    }
    this.walk(start, end, false, (key, rec) => {
      if (!isEmptyRecord(rec)) {
        if (n === out.length) out = grow(out);
        out[n++] = readUid(key, at);
      }
      return undefined;
    });
    return sortUnique(out.subarray(0, n));
  }

  /** Own deltas whose keys fall in [start, end), sorted by key. */
  private pendingIn(start: Uint8Array, end: Uint8Array): KeyDelta[] {
    if (this.txn.deltas.size === 0) return [];
    const out: KeyDelta[] = [];
    for (const d of this.txn.deltas.values()) {
      if (Buffer.compare(d.key, start) >= 0 && Buffer.compare(d.key, end) < 0) out.push(d);
    }
    return out.sort((a, b) => Buffer.compare(a.key, b.key));
  }

  /**
   * Visits keys in [start, end) in order with their records as this transaction sees them, merging
   * snapshot entries with own deltas. The visitor returns false to stop.
   */
  private walk(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
    visit: (key: Uint8Array, rec: DataRecord) => boolean | undefined,
  ): void {
    const pending = this.pendingIn(start, end);
    if (reverse) pending.reverse();
    let p = 0;
    const cmp = (a: Uint8Array, b: Uint8Array) => (reverse ? -Buffer.compare(a, b) : Buffer.compare(a, b));
    for (const { key, value } of this.txn.snapshot.kv.scan({ start, end, reverse })) {
      while (p < pending.length && cmp(pending[p].key, key) < 0) {
        const d = pending[p++];
        if (visit(d.key, this.record(d.key)) === false) return;
      }
      if (p < pending.length && Buffer.compare(pending[p].key, key) === 0) {
        const d = pending[p++];
        if (visit(d.key, this.record(d.key)) === false) return;
        continue;
      }
      const k = Uint8Array.prototype.slice.call(key) as Uint8Array;
      const ks = keyString(k);
      const snap = this.txn.snapshot;
      const rec = this.cache.get(ks, snap.epoch) ?? this.load(k, value);
      if (visit(k, rec) === false) return;
    }
    while (p < pending.length) {
      const d = pending[p++];
      if (visit(d.key, this.record(d.key)) === false) return;
    }
  }
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}
