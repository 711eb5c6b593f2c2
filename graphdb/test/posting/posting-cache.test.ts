import { describe, expect, it } from "vitest";
import { PostingCache } from "../../src/posting/posting-cache.ts";
import type { DataRecord } from "../../src/posting/posting-record.ts";
import { GALAXY_KEYS, KeyKind, keyString } from "../../src/store/keys.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const countKey = GALAXY_KEYS.countKey.bind(GALAXY_KEYS);
const dataKey = GALAXY_KEYS.dataKey.bind(GALAXY_KEYS);
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);
const kindKeyPrefix = GALAXY_KEYS.kindKeyPrefix.bind(GALAXY_KEYS);
const reverseKey = GALAXY_KEYS.reverseKey.bind(GALAXY_KEYS);

const rec = (...uids: number[]): DataRecord => ({ uids: Float64Array.from(uids), values: [] });

describe("posting cache", () => {
  it("finds a data or reverse key by its key string and by uid in its group, as the same entry", () => {
    const cache = new PostingCache(1 << 20);
    const big = 2 ** 40 + 7; // a uid above 32 bits: both halves of the key's u64 count
    cache.set(keyString(dataKey("name", big)), rec(1), 5);
    cache.set(keyString(reverseKey("name", big)), rec(2), 5);
    const data = cache.uidGroup(kindKeyPrefix("name", KeyKind.data));
    const reverse = cache.uidGroup(kindKeyPrefix("name", KeyKind.reverse));
    expect(cache.getIn(data, big, 5)?.uids).toEqual(Float64Array.of(1));
    expect(cache.getIn(reverse, big, 5)?.uids).toEqual(Float64Array.of(2));
    // Written by uid, read by key string; another predicate's group is another group.
    cache.setIn(data, 9, rec(3), 6, dataKey("name", 9).length);
    expect(cache.get(keyString(dataKey("name", 9)), 6)?.uids).toEqual(Float64Array.of(3));
    expect(cache.get(keyString(dataKey("other", 9)), 6)).toBeUndefined();
    // Versions: invisible to readers of an older epoch; invalidation by key string removes the entry.
    expect(cache.getIn(data, 9, 5)).toBeUndefined();
    cache.invalidate(keyString(dataKey("name", 9)));
    expect(cache.getIn(data, 9, 6)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("keeps index and count keys apart from uid keys, even where their bytes look alike", () => {
    const cache = new PostingCache(1 << 20);
    // An index token of 8 bytes makes a key as long as a data key's.
    const token = new Uint8Array([1, 0, 0, 0, 0, 0, 0, 9]);
    cache.set(keyString(indexKey("name", token)), rec(4), 1);
    cache.set(keyString(countKey("name", 9, false)), rec(5), 1);
    cache.set(keyString(dataKey("name", 9)), rec(6), 1);
    expect(cache.peek(keyString(indexKey("name", token)))?.uids).toEqual(Float64Array.of(4));
    expect(cache.peek(keyString(countKey("name", 9, false)))?.uids).toEqual(Float64Array.of(5));
    expect(cache.getIn(cache.uidGroup(kindKeyPrefix("name", KeyKind.data)), 9, 1)?.uids).toEqual(
      Float64Array.of(6),
    );
    expect(cache.size).toBe(3);
  });

  it("evicts across both kinds of entry within its byte bound, sparing recently used ones", () => {
    const cache = new PostingCache(64 * 1024);
    const group = cache.uidGroup(kindKeyPrefix("p", KeyKind.data));
    const keyLength = dataKey("p", 0).length;
    cache.setIn(group, 0, rec(0), 1, keyLength);
    for (let i = 1; i < 2000; i++) {
      expect(cache.getIn(group, 0, 1)).toBeDefined(); // keeps uid 0 in use
      if (i % 2 === 0) cache.setIn(group, i, rec(i), 1, keyLength);
      else cache.set(keyString(indexKey("p", Uint8Array.of(i & 0xff, i >> 8))), rec(i), 1);
    }
    expect(cache.size).toBeLessThan(1000);
    expect(cache.size).toBeGreaterThan(100);
    expect(cache.getIn(group, 0, 1)).toBeDefined();
    expect(cache.getIn(group, 2, 1)).toBeUndefined();
  });

  it("clear empties the groups readers hold, which stay usable", () => {
    const cache = new PostingCache(1 << 20);
    const group = cache.uidGroup(kindKeyPrefix("p", KeyKind.data));
    cache.setIn(group, 1, rec(1), 1, 16);
    cache.set(keyString(indexKey("p", Uint8Array.of(7))), rec(2), 1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.getIn(group, 1, 1)).toBeUndefined();
    cache.setIn(group, 1, rec(3), 2, 16);
    expect(cache.get(keyString(dataKey("p", 1)), 2)?.uids).toEqual(Float64Array.of(3));
  });

  it("evicts as entries come in, only what each needs: no add sweeps a large cache", () => {
    const cache = new PostingCache(4 * 1024 * 1024);
    const group = cache.uidGroup(kindKeyPrefix("p", KeyKind.data));
    const keyLength = dataKey("p", 0).length;
    let mostRemoved = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 200_000; i++) {
        const before = cache.size;
        cache.setIn(group, round * 1e6 + i, rec(i), 1, keyLength);
        // Some entries in use: they get a second chance, moved to the back.
        if (i % 4 === 0) cache.getIn(group, round * 1e6 + i - 500, 1);
        mostRemoved = Math.max(mostRemoved, before + 1 - cache.size);
      }
      if (round === 0) cache.clear();
    }
    expect(cache.size).toBeGreaterThan(10_000);
    // At its bound, each add removes about one entry of the same size (a sweep removed thousands).
    expect(mostRemoved).toBeLessThanOrEqual(2);
  });
});
