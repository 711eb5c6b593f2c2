import type { UidList, ValuePosting } from "../engine/graph-reader.ts";
import type { Edge, Facet, NodeRef } from "../mutation/edge.ts";
import type { ValueServices } from "../mutation/mutation-applier.ts";
import { NQuadChunkParser } from "../mutation/rdf-parser.ts";
import {
  appendToUidList,
  type DataRecord,
  decodeRecord,
  encodeRecord,
  encodeUidList,
  valueIdentity,
} from "../posting/posting-record.ts";
import { applyUidDelta, containsUid, EMPTY_UIDS, sortUnique } from "../posting/uid-list.ts";
import type { SchemaState } from "../schema/schema-state.ts";
import { blankPredicate, type PredicateSchema } from "../schema/schema-types.ts";
import { countKey, dataKey, indexKey, MAX_KEY_BYTES, reverseKey } from "../store/keys.ts";
import type { KVWriter } from "../store/kv-store.ts";
import { keyString } from "../txn/transaction.ts";
import { DgraphError } from "./errors.ts";

export interface BulkLoadOptions {
  /** Map IRIs that are not uids (`</en/film>`) to nodes, one per IRI, as Dgraph's loaders' xidmap does. */
  iriAsBlank?: boolean;
  /** Edges buffered before they are written (memory bound). Default 250,000. */
  flushEdges?: number;
  /** Called after each flush with the N-Quads loaded so far. */
  onProgress?: (nquads: number) => void;
  /** Return the label → uid map of the nodes created (Dgraph's bulk loader writes it out as its xidmap). */
  returnXids?: boolean;
}

export interface BulkLoadResult {
  nquads: number;
  /** Nodes created for blank labels (and IRIs with iriAsBlank). */
  newNodes: number;
  seconds: number;
  /** With `returnXids`: blank label (without `_:`) or IRI → uid. */
  xids?: Map<string, number>;
}

/** What the loader needs from the engine. */
export interface BulkLoadHost {
  schema: SchemaState;
  services: ValueServices;
  leaseUids(n: number): number;
  maxUid(): number;
  /** Persists an auto-created predicate. */
  persistPredicate(p: PredicateSchema): void;
  /** Writes one batch atomically at a new commit ts and publishes it to readers; resolves when durable. */
  commit(write: (w: KVWriter) => void): Promise<void>;
}

interface PendingData {
  key: Uint8Array;
  subject: number;
  schema: PredicateSchema;
  uids?: number[];
  facets?: Map<number, Facet[]>;
  values?: ValuePosting[];
}

/**
 * The bulk loader (Dgraph's bulk loader, in-process): streams N-Quads into the store without per-edge
 * transaction bookkeeping. Edges are grouped by data key in memory; each flush reads every touched data
 * key once, merges, and derives the index, reverse and count changes from the key's before and after
 * state, all written in one atomic, sorted write. Blank labels keep their node across chunks (xidmap).
 *
 * Meant for loading, not for concurrent use: transactions running meanwhile are not conflict-checked
 * against it.
 */
export class BulkLoader {
  private readonly xid = new Map<string, number>();
  private pending = new Map<string, PendingData>();
  private pendingEdges = 0;
  private nquads = 0;
  private readonly parser: NQuadChunkParser;
  private readonly flushEdges: number;

  constructor(
    private readonly host: BulkLoadHost,
    private readonly options: BulkLoadOptions = {},
  ) {
    this.parser = new NQuadChunkParser({ op: "set", iriAsBlank: options.iriAsBlank });
    this.flushEdges = options.flushEdges ?? 250_000;
  }

  /** Loads N-Quad text (chunks may split lines anywhere). */
  async push(chunk: string): Promise<void> {
    this.addEdges(this.parser.push(chunk));
    if (this.pendingEdges >= this.flushEdges) await this.flush();
  }

  async end(): Promise<{ nquads: number; newNodes: number; xids?: Map<string, number> }> {
    this.addEdges(this.parser.end());
    await this.flush();
    return {
      nquads: this.nquads,
      newNodes: this.xid.size,
      xids: this.options.returnXids ? this.xid : undefined,
    };
  }

  private node(ref: NodeRef): number {
    switch (ref.kind) {
      case "uid":
        if (ref.uid > this.host.maxUid()) {
          throw new DgraphError(`Uid: [${ref.uid}] cannot be greater than lease: [${this.host.maxUid()}]`);
        }
        return ref.uid;
      case "blank": {
        let uid = this.xid.get(ref.label);
        if (uid === undefined) {
          uid = this.host.leaseUids(1);
          this.xid.set(ref.label, uid);
        }
        return uid;
      }
      case "var":
        throw new DgraphError("uid(...) variables are only valid in upserts");
    }
  }

  private schemaFor(e: Edge): PredicateSchema {
    const found = this.host.schema.predicate(e.predicate);
    if (found !== undefined) return found;
    const o = e.object;
    const type = o.kind === "node" ? "uid" : o.kind === "literal" ? o.type : "default";
    const p = blankPredicate(e.predicate, type, o.kind === "node" ? true : e.list);
    if (o.kind === "literal" && o.lang && type === "string") p.lang = true;
    this.host.schema.setPredicate(p);
    this.host.persistPredicate(p);
    return p;
  }

  private addEdges(edges: Edge[]): void {
    for (const e of edges) {
      const s = this.schemaFor(e);
      const subject = this.node(e.subject);
      const key = dataKey(e.predicate, subject);
      const ks = keyString(key);
      let p = this.pending.get(ks);
      if (p === undefined) {
        p = { key, subject, schema: s };
        this.pending.set(ks, p);
      }
      const o = e.object;
      if (o.kind === "node") {
        if (s.type !== "uid")
          throw new DgraphError(`Input for predicate "${e.predicate}" of type scalar is uid.`);
        const obj = this.node(o.ref);
        if (s.list) (p.uids ??= []).push(obj);
        else p.uids = [obj];
        if (e.facets.length > 0) (p.facets ??= new Map()).set(obj, e.facets);
      } else if (o.kind === "literal") {
        if (s.type === "uid")
          throw new DgraphError(`Input for predicate "${e.predicate}" of type uid is scalar.`);
        const lang = o.lang ?? "";
        if (lang !== "" && !s.lang) {
          throw new DgraphError(
            `Attr: [${e.predicate}] should have @lang directive in schema to mutate edge`,
          );
        }
        let value = this.host.services.convert({ type: o.type, value: o.value }, s.type, e.predicate);
        if (s.type === "password")
          value = { type: "password", value: this.host.services.hashPassword(String(value.value)) };
        const posting: ValuePosting = { value, lang };
        if (e.facets.length > 0) posting.facets = e.facets;
        (p.values ??= []).push(posting);
      } else {
        throw new DgraphError("the bulk loader only sets edges and values");
      }
      this.pendingEdges++;
      this.nquads++;
    }
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.pending = new Map();
    this.pendingEdges = 0;
    const services = this.host.services;
    await this.host.commit((w) => {
      const derived = new Map<string, DerivedDelta>();
      const deriveByString = (
        ks: string,
        makeKey: () => Uint8Array,
        uid: number,
        add: boolean,
        reverseCount?: ReverseCount,
      ) => {
        let d = derived.get(ks);
        if (d === undefined)
          derived.set(ks, (d = { key: makeKey(), add: [], remove: NO_REMOVALS, reverseCount }));
        if (add) {
          d.add.push(uid);
          if (d.remove.size > 0) d.remove.delete(uid);
        } else {
          if (d.remove === NO_REMOVALS) d.remove = new Set();
          d.remove.add(uid);
        }
      };
      const derive = (key: Uint8Array, uid: number, add: boolean, reverseCount?: ReverseCount) =>
        deriveByString(keyString(key), () => key, uid, add, reverseCount);
      /** Removals skip tokens that `remaining` values of the subject still produce. */
      const indexValues = (
        s: PredicateSchema,
        subject: number,
        values: ValuePosting[],
        add: boolean,
        remaining: ValuePosting[] = [],
      ) => {
        // Index keys are looked up by string (prefix + token) and only built as bytes once per distinct key.
        const prefix = keyString(indexKey(s.predicate, EMPTY_TOKEN));
        for (const tok of s.tokenizers) {
          const keep = new Set<string>();
          for (const r of remaining)
            for (const t of services.tokens(tok, r.value, r.lang)) keep.add(keyString(t));
          for (const v of values) {
            for (const token of services.tokens(tok, v.value, v.lang)) {
              const ts = keyString(token);
              if (keep.size > 0 && keep.has(ts)) continue;
              if (prefix.length + token.length > MAX_KEY_BYTES) {
                throw new DgraphError("value in the mutation is too large for the index");
              }
              deriveByString(prefix + ts, () => indexKey(s.predicate, token), subject, add);
            }
          }
        }
      };
      for (const [, p] of batch) {
        const s = p.schema;
        const before = decodeRecord(w.get(p.key));
        const after = merge(before, p);
        w.put(p.key, encodeRecord(after));
        if (s.type === "uid") {
          if (s.reverse) {
            const rc = (o: number) => (s.count ? { s, object: o } : undefined);
            for (const o of after.uids) {
              if (!containsUid(before.uids, o)) derive(reverseKey(s.predicate, o), p.subject, true, rc(o));
            }
            for (const o of before.uids) {
              if (!containsUid(after.uids, o)) derive(reverseKey(s.predicate, o), p.subject, false, rc(o));
            }
          }
          if (s.count) moveCount(derive, s, p.subject, before.uids.length, after.uids.length);
        } else {
          if (s.tokenizers.length > 0) {
            const old = new Set(before.values.map((v) => valueIdentity(true, v.lang, v.value)));
            const now = new Set(after.values.map((v) => valueIdentity(true, v.lang, v.value)));
            indexValues(
              s,
              p.subject,
              before.values.filter((v) => !now.has(valueIdentity(true, v.lang, v.value))),
              false,
              after.values,
            );
            indexValues(
              s,
              p.subject,
              after.values.filter((v) => !old.has(valueIdentity(true, v.lang, v.value))),
              true,
            );
          }
          if (s.count && s.list) moveCount(derive, s, p.subject, before.values.length, after.values.length);
        }
      }
      // Reverse counts (@count on a @reverse predicate) move with the reverse lists' lengths.
      for (const d of [...derived.values()]) {
        if (d.reverseCount === undefined) continue;
        const before = decodeRecord(w.get(d.key)).uids;
        const after = applyUidDelta(before, false, d.add, d.remove);
        const { s, object } = d.reverseCount;
        if (before.length === after.length) continue;
        if (before.length > 0) derive(countKey(s.predicate, before.length, true), object, false);
        if (after.length > 0) derive(countKey(s.predicate, after.length, true), object, true);
      }
      const keys = [...derived].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      for (const [, d] of keys) {
        const raw = w.get(d.key);
        if (d.remove.size === 0) {
          const appended = appendToUidList(raw, sortUnique(Float64Array.from(d.add)));
          if (appended) {
            w.put(d.key, appended);
            continue;
          }
        }
        const old = decodeRecord(raw).uids;
        const next = applyUidDelta(old, false, d.add, d.remove);
        if (next.length === 0) w.delete(d.key);
        else w.put(d.key, encodeUidList(next));
      }
    });
    this.options.onProgress?.(this.nquads);
  }
}

function moveCount(
  derive: (key: Uint8Array, uid: number, add: boolean) => void,
  s: PredicateSchema,
  uid: number,
  before: number,
  after: number,
): void {
  if (before === after) return;
  if (before > 0) derive(countKey(s.predicate, before, false), uid, false);
  if (after > 0) derive(countKey(s.predicate, after, false), uid, true);
}

const EMPTY_TOKEN = new Uint8Array(0);
/** Shared empty removal set: most derived lists only gain uids. Replaced before the first removal. */
const NO_REMOVALS: Set<number> = new Set();

interface ReverseCount {
  s: PredicateSchema;
  object: number;
}

/** A pending change to an index, reverse or count list. */
interface DerivedDelta {
  key: Uint8Array;
  add: number[];
  remove: Set<number>;
  reverseCount?: ReverseCount;
}

/** The data record after a bulk batch: lists union, single values replace (last one wins). */
function merge(before: DataRecord, p: PendingData): DataRecord {
  const s = p.schema;
  if (p.uids !== undefined) {
    const uids: UidList = s.list
      ? applyUidDelta(before.uids, false, p.uids, new Set())
      : Float64Array.of(p.uids[0]);
    const rec: DataRecord = { uids, values: [] };
    if (before.uidFacets || p.facets) {
      const facets = new Map(before.uidFacets);
      if (p.facets) for (const [u, f] of p.facets) facets.set(u, f);
      rec.uidFacets = facets;
    }
    return rec;
  }
  const byId = new Map<string, ValuePosting>();
  for (const v of before.values) byId.set(valueIdentity(s.list, v.lang, v.value), v);
  for (const v of p.values ?? []) byId.set(valueIdentity(s.list, v.lang, v.value), v);
  return { uids: EMPTY_UIDS, values: [...byId.values()] };
}
