import { readUidString, uidKeyRest } from "../store/keys.ts";
import type { DataRecord } from "./posting-record.ts";

interface Entry {
  record: DataRecord;
  /** Second-chance bit: set on a hit, cleared when eviction passes over the entry. */
  used: boolean;
  /** The record is the latest version for readers at epochs >= validFrom. */
  validFrom: number;
  bytes: number;
  /** Where the entry is filed: its uid group and uid, or the string map and its key. */
  group: UidGroup | undefined;
  id: number | string;
}

/**
 * The cached records of one predicate's data keys, or of its reverse keys, by uid. Readers get a group once
 * (`uidGroup`) and then look records up by number, without building the key's bytes or string: a numeric
 * Map lookup is about twenty times faster than hashing and comparing a fresh key string in a large Map.
 */
export type UidGroup = Map<number, Entry>;

/**
 * A bounded LRU of decoded posting records, shared by all transactions. It only ever holds the latest
 * committed version of a key; a reader whose snapshot predates that version reads from its snapshot.
 *
 * Keys are latin-1 key strings (`keyString`). Data and reverse keys (a predicate prefix, a kind byte and
 * a uid) are filed in per-prefix uid groups, which readers can also reach directly by uid; other keys
 * (index tokens, counts) in one string map.
 */
export class PostingCache {
  private readonly byKey = new Map<string, Entry>();
  private readonly groups = new Map<string, UidGroup>();
  /** Every entry, in insertion order: the eviction clock's sweep order. */
  private readonly clock = new Set<Entry>();
  private hand: SetIterator<Entry> = this.clock.values();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The group of the uid keys that share this prefix (`uidKeyPrefix(pred, kind)`). Groups live as long
   * as the cache (a clear empties them), so callers may keep one for the length of a query.
   */
  uidGroup(prefix: string): UidGroup {
    let g = this.groups.get(prefix);
    if (g === undefined) this.groups.set(prefix, (g = new Map()));
    return g;
  }

  getIn(group: UidGroup, uid: number, epoch: number): DataRecord | undefined {
    return this.hit(group.get(uid), epoch);
  }

  /** Stores the latest version of a uid key as seen at `validFrom`; `keyLength` sizes the entry. */
  setIn(group: UidGroup, uid: number, record: DataRecord, validFrom: number, keyLength: number): void {
    const old = group.get(uid);
    if (old !== undefined) this.remove(old);
    this.add(group, uid, record, validFrom, keyLength);
  }

  get(key: string, epoch: number): DataRecord | undefined {
    return this.hit(this.find(key), epoch);
  }

  /** Stores the latest version of a key as seen at `validFrom`. */
  set(key: string, record: DataRecord, validFrom: number): void {
    const at = uidKeyRest(key);
    if (at < 0) {
      const old = this.byKey.get(key);
      if (old !== undefined) this.remove(old);
      this.add(undefined, key, record, validFrom, key.length);
    } else {
      this.setIn(this.uidGroup(key.slice(0, at)), readUidString(key, at), record, validFrom, key.length);
    }
  }

  /** The latest version of a key, if cached, whatever epoch it is valid from. */
  peek(key: string): DataRecord | undefined {
    return this.find(key)?.record;
  }

  invalidate(key: string): void {
    const e = this.find(key);
    if (e !== undefined) this.remove(e);
  }

  clear(): void {
    this.byKey.clear();
    // Emptied in place: readers may hold a group.
    for (const g of this.groups.values()) g.clear();
    this.clock.clear();
    this.hand = this.clock.values();
    this.bytes = 0;
  }

  get size(): number {
    return this.clock.size;
  }

  private find(key: string): Entry | undefined {
    const at = uidKeyRest(key);
    if (at < 0) return this.byKey.get(key);
    return this.groups.get(key.slice(0, at))?.get(readUidString(key, at));
  }

  private hit(e: Entry | undefined, epoch: number): DataRecord | undefined {
    if (e === undefined || e.validFrom > epoch) {
      this.misses++;
      return undefined;
    }
    // Approximate LRU (second chance): a hit only sets a bit, cheaper than re-inserting the entry.
    e.used = true;
    this.hits++;
    return e.record;
  }

  private add(
    group: UidGroup | undefined,
    id: number | string,
    record: DataRecord,
    validFrom: number,
    keyLength: number,
  ): void {
    if (this.maxBytes <= 0) return;
    const bytes = estimateBytes(keyLength, record);
    if (bytes > this.maxBytes / 4) return;
    const e: Entry = { record, validFrom, bytes, used: false, group, id };
    if (group !== undefined) group.set(id as number, e);
    else this.byKey.set(id as string, e);
    this.clock.add(e);
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) this.evict();
  }

  private remove(e: Entry): void {
    if (e.group !== undefined) e.group.delete(e.id as number);
    else this.byKey.delete(e.id as string);
    this.clock.delete(e);
    this.bytes -= e.bytes;
  }

  /**
   * Second-chance (CLOCK) eviction, as entries come in: the entry under the hand goes unless it was used
   * since the hand last passed it, in which case it moves to the back, its bit cleared. Each step is O(1)
   * and each call frees only what the new entry needs, so no call sweeps a large cache at once (a tenant's
   * large reads, each adding its records, made calls that held the thread for 50–80 ms).
   */
  private evict(): void {
    while (this.bytes > this.maxBytes) {
      // The clock's hand: one live iterator, kept between calls (a fresh one would step over every entry
      // removed since the set last compacted); it goes on to the entries moved to the back.
      let next = this.hand.next();
      if (next.done) {
        this.hand = this.clock.values();
        next = this.hand.next();
        if (next.done) return;
      }
      const e = next.value;
      if (e.used) {
        e.used = false;
        this.clock.delete(e);
        this.clock.add(e);
        continue;
      }
      this.remove(e);
    }
  }
}

function estimateBytes(keyLength: number, r: DataRecord): number {
  let n = 64 + keyLength * 2 + r.uids.byteLength;
  for (const v of r.values) n += 48 + (typeof v.value.value === "string" ? v.value.value.length * 2 : 16);
  if (r.uidFacets) n += r.uidFacets.size * 64;
  return n;
}
