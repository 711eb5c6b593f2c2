import type { Facet } from "../core/facet.ts";
import type { UidList, ValuePosting } from "../core/graph-reader.ts";
import type { DataRecord } from "../posting/posting-record.ts";
import { valueIdentity } from "../posting/posting-record.ts";
import { applyUidDelta, containsUid, sortedCopy } from "../posting/uid-list.ts";

/**
 * A transaction's pending change to one key, kept as a net delta rather than a new full value: at commit it
 * is applied to the latest committed version, so concurrent transactions that touch different uids of the
 * same index or reverse list never overwrite each other.
 */
export class KeyDelta {
  clear = false;
  /** Bumped on every change, so readers can cache the merged view of this key. */
  version = 0;
  // Allocated on first use: most keys of a load touch only one of these.
  private adds?: Set<number>;
  private removes?: Set<number>;
  private facets?: Map<number, Facet[] | null>;
  private sets?: Map<string, ValuePosting>;
  private unsets?: Set<string>;

  constructor(
    readonly key: Uint8Array,
    /** Whether values of this key form a list (value identity includes the value). */
    readonly list: boolean,
  ) {}

  addUid(uid: number, facets?: Facet[]): void {
    this.version++;
    (this.adds ??= new Set()).add(uid);
    this.removes?.delete(uid);
    if (facets && facets.length > 0) (this.facets ??= new Map()).set(uid, facets);
    else if (facets && this.facets !== undefined) this.facets.set(uid, null);
  }

  removeUid(uid: number): void {
    this.version++;
    (this.removes ??= new Set()).add(uid);
    this.adds?.delete(uid);
    this.facets?.delete(uid);
  }

  setValue(p: ValuePosting): void {
    this.version++;
    const id = valueIdentity(this.list, p.lang, p.value);
    (this.sets ??= new Map()).set(id, p);
    this.unsets?.delete(id);
  }

  removeValue(lang: string, value: ValuePosting["value"]): void {
    this.version++;
    const id = valueIdentity(this.list, lang, value);
    (this.unsets ??= new Set()).add(id);
    this.sets?.delete(id);
  }

  clearAll(): void {
    this.version++;
    this.clear = true;
    this.adds = undefined;
    this.removes = undefined;
    this.facets = undefined;
    this.sets = undefined;
    this.unsets = undefined;
  }

  /** Sorted added uids when this delta does nothing but add uids (no removes, facets or values). */
  appendOnlyUids(): Float64Array | undefined {
    if (this.clear || this.adds === undefined || this.adds.size === 0) return undefined;
    if (this.removes?.size || this.facets?.size || this.sets?.size || this.unsets?.size) return undefined;
    return sortedCopy(this.adds);
  }

  /** Length of `base.uids` after this delta, without building the list. */
  uidCountOn(base: UidList): number {
    if (this.clear) return this.adds?.size ?? 0;
    let n = base.length;
    if (this.adds) for (const u of this.adds) if (!containsUid(base, u)) n++;
    if (this.removes) for (const u of this.removes) if (containsUid(base, u)) n--;
    return n;
  }

  /** The record after this delta is applied to `base`. */
  applyTo(base: DataRecord): DataRecord {
    const adds = this.adds;
    const removes = this.removes;
    const uids: UidList =
      this.clear || (adds !== undefined && adds.size > 0) || (removes !== undefined && removes.size > 0)
        ? applyUidDelta(base.uids, this.clear, adds ?? EMPTY_SET, removes ?? EMPTY_SET)
        : base.uids;
    let uidFacets: Map<number, Facet[]> | undefined;
    if (base.uidFacets !== undefined && !this.clear) {
      uidFacets = new Map(base.uidFacets);
      if (removes) for (const u of removes) uidFacets.delete(u);
    }
    if (this.facets !== undefined && this.facets.size > 0) {
      uidFacets ??= new Map();
      for (const [u, fs] of this.facets) {
        if (fs === null) uidFacets.delete(u);
        else uidFacets.set(u, fs);
      }
    }
    const sets = this.sets;
    const unsets = this.unsets;
    let values: ValuePosting[];
    if (this.clear || (sets !== undefined && sets.size > 0) || (unsets !== undefined && unsets.size > 0)) {
      values = [];
      if (!this.clear) {
        for (const v of base.values) {
          if (sets === undefined && unsets === undefined) {
            values.push(v);
            continue;
          }
          const id = valueIdentity(this.list, v.lang, v.value);
          if (!unsets?.has(id) && !sets?.has(id)) values.push(v);
        }
      }
      if (sets) for (const v of sets.values()) values.push(v);
    } else {
      values = base.values;
    }
    const rec: DataRecord = { uids, values };
    if (uidFacets !== undefined && uidFacets.size > 0) rec.uidFacets = uidFacets;
    return rec;
  }
}

const EMPTY_SET: ReadonlySet<number> = new Set();

export function isEmptyRecord(r: DataRecord): boolean {
  return r.uids.length === 0 && r.values.length === 0;
}
