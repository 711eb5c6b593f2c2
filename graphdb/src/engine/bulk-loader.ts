import type { UidList, ValuePosting } from "../engine/graph-reader.ts";
import type { Edge, Facet, NodeRef } from "../mutation/edge.ts";
import type { ValueServices } from "../mutation/mutation-applier.ts";
import { NQuadChunkParser } from "../mutation/rdf-parser.ts";
import { appendUids, readList, writeList } from "../posting/list-tail.ts";
import {
  type DataRecord,
  decodeRecord,
  encodeRecord,
  encodeUidList,
  valueIdentity,
} from "../posting/posting-record.ts";
import { applyUidDelta, containsUid, EMPTY_UIDS, sortUnique } from "../posting/uid-list.ts";
import type { SchemaState } from "../schema/schema-state.ts";
import { blankPredicate, type PredicateSchema } from "../schema/schema-types.ts";
import { countKey, dataKey, indexKey, MAX_KEY_BYTES, predicatePrefix, reverseKey } from "../store/keys.ts";
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
  /**
   * Uid ranges this loader leased since its last flush: nothing is stored under them yet, so their data and
   * reverse keys need not be read back (the loader is not for concurrent use).
   */
  private fresh: { first: number; last: number }[] = [];
  /** Pending data keys by predicate, then subject: no key bytes or key string built per edge. */
  private pending = new Map<string, Map<number, PendingData>>();
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
          const r = this.fresh[this.fresh.length - 1];
          if (r !== undefined && r.last + 1 === uid) r.last = uid;
          else this.fresh.push({ first: uid, last: uid });
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
      let bySubject = this.pending.get(e.predicate);
      if (bySubject === undefined) this.pending.set(e.predicate, (bySubject = new Map()));
      let p = bySubject.get(subject);
      if (p === undefined) {
        p = { key: dataKey(e.predicate, subject), subject, schema: s };
        bySubject.set(subject, p);
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
    // Key order: predicates by their key prefix bytes, then subjects (big-endian uids) ascending.
    const preds = [...this.pending.keys()]
      .map((pred) => ({ pred, prefix: keyString(predicatePrefix(pred)) }))
      .sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
    const batch: PendingData[] = [];
    for (const { pred } of preds) {
      const part = [...this.pending.get(pred)!.values()].sort((a, b) => a.subject - b.subject);
      for (const p of part) batch.push(p);
    }
    this.pending = new Map();
    this.pendingEdges = 0;
    const fresh = this.fresh;
    this.fresh = [];
    const isFresh = (uid: number) => {
      for (const r of fresh) if (uid >= r.first && uid <= r.last) return true;
      return false;
    };
    const services = this.host.services;
    await this.host.commit((w) => {
      const derived = new Map<string, DerivedDelta>();
      /** Index keys by predicate, then token (latin1): no per-token concatenation of the key prefix. */
      const indexDeltas = new Map<string, Map<string, DerivedDelta>>();
      /**
       * Token strings by predicate, tokenizer, language and value: names and dates repeat across subjects.
       * Values are already of the predicate's type, so the raw value identifies them within a predicate.
       */
      const tokenCache = new Map<string, Map<string, Map<string, Map<unknown, string[]>>>>();
      let cachedTokens = 0;
      const derive = (
        key: Uint8Array,
        uid: number,
        add: boolean,
        reverseCount?: ReverseCount,
      ): DerivedDelta => {
        const ks = keyString(key);
        let d = derived.get(ks);
        if (d === undefined) derived.set(ks, (d = { ks, key, add: [], remove: NO_REMOVALS, reverseCount }));
        change(d, uid, add);
        return d;
      };
      /** A reverse list change; the lists of nodes this flush creates start empty. */
      const deriveReverse = (s: PredicateSchema, object: number, subject: number, add: boolean) => {
        const d = derive(reverseKey(s.predicate, object), subject, add, s.count ? { s, object } : undefined);
        if (isFresh(object)) d.fresh = true;
      };
      const tokenStrings = (
        byTok: Map<string, Map<string, Map<unknown, string[]>>>,
        tok: string,
        v: ValuePosting,
      ): string[] => {
        const raw = v.value.value;
        if (typeof raw === "object") return services.tokens(tok, v.value, v.lang).map(keyString);
        let byLang = byTok.get(tok);
        if (byLang === undefined) byTok.set(tok, (byLang = new Map()));
        let byValue = byLang.get(v.lang);
        if (byValue === undefined) byLang.set(v.lang, (byValue = new Map()));
        let t = byValue.get(raw);
        if (t === undefined) {
          t = services.tokens(tok, v.value, v.lang).map(keyString);
          if (++cachedTokens > TOKEN_CACHE_MAX) {
            tokenCache.clear();
            cachedTokens = 0;
          }
          byValue.set(raw, t);
        }
        return t;
      };
      /** Removals skip tokens that `remaining` values of the subject still produce. */
      const indexValues = (
        s: PredicateSchema,
        subject: number,
        values: ValuePosting[],
        add: boolean,
        remaining: ValuePosting[] = [],
      ) => {
        let byToken = indexDeltas.get(s.predicate);
        if (byToken === undefined) indexDeltas.set(s.predicate, (byToken = new Map()));
        let byTok = tokenCache.get(s.predicate);
        if (byTok === undefined) tokenCache.set(s.predicate, (byTok = new Map()));
        let prefix: string | undefined;
        for (const tok of s.tokenizers) {
          const keep = new Set<string>();
          for (const r of remaining) for (const t of tokenStrings(byTok, tok, r)) keep.add(t);
          for (const v of values) {
            for (const ts of tokenStrings(byTok, tok, v)) {
              if (keep.size > 0 && keep.has(ts)) continue;
              let d = byToken.get(ts);
              if (d === undefined) {
                prefix ??= keyString(indexKey(s.predicate, EMPTY_TOKEN));
                if (prefix.length + ts.length > MAX_KEY_BYTES) {
                  throw new DgraphError("value in the mutation is too large for the index");
                }
                const key = indexKey(s.predicate, Buffer.from(ts, "latin1"));
                byToken.set(ts, (d = { ks: prefix + ts, key, add: [], remove: NO_REMOVALS }));
              }
              change(d, subject, add);
            }
          }
        }
      };
      for (const p of batch) {
        const s = p.schema;
        const stored = isFresh(p.subject) ? NOTHING_STORED : readList(w, p.key);
        const before = decodeRecord(stored.value);
        const after = merge(before, p);
        writeList(w, p.key, encodeRecord(after), stored.tail);
        if (s.type === "uid") {
          if (s.reverse) {
            for (const o of after.uids) {
              if (!containsUid(before.uids, o)) deriveReverse(s, o, p.subject, true);
            }
            for (const o of before.uids) {
              if (!containsUid(after.uids, o)) deriveReverse(s, o, p.subject, false);
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
        const before = d.fresh ? EMPTY_UIDS : decodeRecord(readList(w, d.key).value).uids;
        const after = applyUidDelta(before, false, d.add, d.remove);
        const { s, object } = d.reverseCount;
        if (before.length === after.length) continue;
        if (before.length > 0) derive(countKey(s.predicate, before.length, true), object, false);
        if (after.length > 0) derive(countKey(s.predicate, after.length, true), object, true);
      }
      const keys = [...derived.values()];
      for (const byToken of indexDeltas.values()) for (const d of byToken.values()) keys.push(d);
      keys.sort((a, b) => (a.ks < b.ks ? -1 : a.ks > b.ks ? 1 : 0));
      for (const d of keys) {
        if (d.fresh) {
          const list = applyUidDelta(EMPTY_UIDS, false, d.add, d.remove);
          if (list.length > 0) w.put(d.key, encodeUidList(list));
          continue;
        }
        if (d.remove.size === 0 && appendUids(w, d.key, sortUnique(Float64Array.from(d.add)))) continue;
        const { value, tail } = readList(w, d.key);
        const next = applyUidDelta(decodeRecord(value).uids, false, d.add, d.remove);
        writeList(w, d.key, next.length === 0 ? undefined : encodeUidList(next), tail);
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

const NOTHING_STORED = { value: undefined, tail: false };

/** Token lists kept per flush before the cache starts over (bounds memory). */
const TOKEN_CACHE_MAX = 200_000;

function change(d: DerivedDelta, uid: number, add: boolean): void {
  if (add) {
    d.add.push(uid);
    if (d.remove.size > 0) d.remove.delete(uid);
  } else {
    if (d.remove === NO_REMOVALS) d.remove = new Set();
    d.remove.add(uid);
  }
}

/** A pending change to an index, reverse or count list. */
interface DerivedDelta {
  /** The key as a latin1 string (sort order = byte order). */
  ks: string;
  /** The key's list is known to be empty in storage (a node this flush creates). */
  fresh?: boolean;
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
