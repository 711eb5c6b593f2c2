import { describe, expect, it } from "vitest";
import {
  applyUidDelta,
  containsUid,
  decodeUids,
  encodeUids,
  searchUid,
  sortUnique,
} from "../../src/posting/uid-list.ts";

describe("uid lists", () => {
  it("round-trips sorted uids through the varint-delta encoding, including large uids", () => {
    const uids = Float64Array.from([1, 2, 3, 130, 20_000, 2 ** 32 + 5, 2 ** 53 - 1]);
    const buf = encodeUids(uids);
    expect(Array.from(decodeUids(buf).uids)).toEqual(Array.from(uids));
  });

  it("encodes dense uids in about one byte each", () => {
    const uids = Float64Array.from({ length: 1000 }, (_, i) => 1000 + i);
    expect(encodeUids(uids).length).toBeLessThan(1010);
  });

  it("applies a delta: removes, adds, de-duplicates and keeps order", () => {
    const base = Float64Array.from([1, 3, 5, 7]);
    const out = applyUidDelta(base, false, [4, 5, 9, 2], new Set([3, 7]));
    expect(Array.from(out)).toEqual([1, 2, 4, 5, 9]);
  });

  it("clears the base list when the delta clears it", () => {
    const out = applyUidDelta(Float64Array.from([1, 2]), true, [8], new Set());
    expect(Array.from(out)).toEqual([8]);
  });

  it("finds the first element not less than a uid", () => {
    const list = Float64Array.from([2, 4, 6]);
    expect([searchUid(list, 1), searchUid(list, 4), searchUid(list, 5), searchUid(list, 7)]).toEqual([
      0, 1, 2, 3,
    ]);
    expect(searchUid(list, 6, 0, 2)).toBe(2);
    expect([containsUid(list, 4), containsUid(list, 5)]).toEqual([true, false]);
  });

  it("sorts and de-duplicates", () => {
    expect(Array.from(sortUnique(Float64Array.from([5, 1, 5, 3, 1])))).toEqual([1, 3, 5]);
  });
});
