import type { DataRecord } from "./posting-record.ts";

interface Entry {
  record: DataRecord;
  /** Second-chance bit: set on a hit, cleared when eviction passes over the entry. */
  used: boolean;
  /** The record is the latest version for readers at epochs >= validFrom. */
  validFrom: number;
  bytes: number;
}

/**
 * A bounded LRU of decoded posting records, shared by all transactions. It only ever holds the latest
 * committed version of a key; a reader whose snapshot predates that version reads from its snapshot.
 */
export class PostingCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, epoch: number): DataRecord | undefined {
    const e = this.entries.get(key);
    if (e === undefined || e.validFrom > epoch) {
      this.misses++;
      return undefined;
    }
    // Approximate LRU (second chance): a hit only sets a bit, cheaper than re-inserting into the Map.
    e.used = true;
    this.hits++;
    return e.record;
  }

  /** Stores the latest version of a key as seen at `validFrom`. */
  set(key: string, record: DataRecord, validFrom: number): void {
    if (this.maxBytes <= 0) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = estimateBytes(key, record);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { record, validFrom, bytes, used: false });
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) this.evict();
  }

  /** The latest version of a key, if cached, whatever epoch it is valid from. */
  peek(key: string): DataRecord | undefined {
    return this.entries.get(key)?.record;
  }

  invalidate(key: string): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    const target = this.maxBytes * 0.8;
    for (let pass = 0; pass < 2 && this.bytes > target; pass++) {
      for (const [k, e] of this.entries) {
        if (this.bytes <= target) break;
        if (e.used && pass === 0) {
          e.used = false;
          continue;
        }
        this.entries.delete(k);
        this.bytes -= e.bytes;
      }
    }
  }
}

function estimateBytes(key: string, r: DataRecord): number {
  let n = 64 + key.length * 2 + r.uids.byteLength;
  for (const v of r.values) n += 48 + (typeof v.value.value === "string" ? v.value.value.length * 2 : 16);
  if (r.uidFacets) n += r.uidFacets.size * 64;
  return n;
}
