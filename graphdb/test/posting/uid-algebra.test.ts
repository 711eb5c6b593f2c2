import { describe, expect, it } from "vitest";
import {
  difference,
  filterUids,
  intersect,
  intersectAll,
  intersects,
  sortedUids,
  union,
  unionAll,
} from "../../src/posting/uid-algebra.ts";
import { indexOfUid, searchUid } from "../../src/posting/uid-list.ts";

const L = (...xs: number[]) => Float64Array.from(xs);
const arr = (l: Float64Array) => Array.from(l);

/** Reference implementations over JS sets. */
function refIntersect(a: number[], b: number[]): number[] {
  const s = new Set(b);
  return a.filter((x) => s.has(x));
}
function refUnion(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}
function refDiff(a: number[], b: number[]): number[] {
  const s = new Set(b);
  return a.filter((x) => !s.has(x));
}

/** Deterministic pseudo-random sorted unique list. */
function randomList(seed: number, n: number, max: number): number[] {
  let x = seed;
  const out = new Set<number>();
  while (out.size < n) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.add((x % max) + 1);
  }
  return [...out].sort((a, b) => a - b);
}

describe("uid algebra", () => {
  it("intersects lists of similar sizes by merging", () => {
    expect(arr(intersect(L(1, 3, 5, 7), L(2, 3, 4, 7, 9)))).toEqual([3, 7]);
  });

  it("intersects a small list with a much larger one by galloping", () => {
    const large = Array.from({ length: 10000 }, (_, i) => i * 2 + 1);
    expect(arr(intersect(L(3, 4, 9999, 20001), Float64Array.from(large)))).toEqual([3, 9999]);
    expect(arr(intersect(Float64Array.from(large), L(1, 19999, 30000)))).toEqual([1, 19999]);
  });

  it("returns empty for disjoint ranges and empty inputs", () => {
    expect(arr(intersect(L(1, 2), L(3, 4)))).toEqual([]);
    expect(arr(intersect(L(), L(3, 4)))).toEqual([]);
    expect(arr(union(L(), L()))).toEqual([]);
  });

  it("agrees with a set-based reference on random lists of many size ratios", () => {
    for (let seed = 1; seed < 40; seed++) {
      const a = randomList(seed, (seed * 7) % 50, 400);
      const b = randomList(seed + 1000, (seed * 97) % 3000, 5000);
      expect(arr(intersect(Float64Array.from(a), Float64Array.from(b)))).toEqual(refIntersect(a, b));
      expect(arr(intersect(Float64Array.from(b), Float64Array.from(a)))).toEqual(refIntersect(a, b));
      expect(arr(union(Float64Array.from(a), Float64Array.from(b)))).toEqual(refUnion(a, b));
      expect(arr(difference(Float64Array.from(a), Float64Array.from(b)))).toEqual(refDiff(a, b));
      expect(arr(difference(Float64Array.from(b), Float64Array.from(a)))).toEqual(refDiff(b, a));
      expect(intersects(Float64Array.from(a), Float64Array.from(b))).toBe(refIntersect(a, b).length > 0);
    }
  });

  it("unions non-overlapping lists by concatenation, in order", () => {
    expect(arr(union(L(5, 6), L(1, 2)))).toEqual([1, 2, 5, 6]);
  });

  it("merges and intersects many lists", () => {
    expect(arr(unionAll([L(1, 5), L(), L(2, 5, 9), L(9, 10)]))).toEqual([1, 2, 5, 9, 10]);
    expect(arr(unionAll([L(), L(3)]))).toEqual([3]);
    expect(arr(intersectAll([L(1, 2, 3, 4), L(2, 3, 4), L(3, 4, 8)]))).toEqual([3, 4]);
    expect(arr(intersectAll([]))).toEqual([]);
  });

  it("subtracts", () => {
    expect(arr(difference(L(1, 2, 3, 4), L(2, 4, 6)))).toEqual([1, 3]);
    expect(arr(difference(L(1, 2), L()))).toEqual([1, 2]);
  });

  it("searches, filters and sorts", () => {
    const l = L(2, 4, 6, 8);
    expect(searchUid(l, 5)).toBe(2);
    expect(indexOfUid(l, 6)).toBe(2);
    expect(indexOfUid(l, 7)).toBe(-1);
    expect(arr(filterUids(l, (u) => u > 4))).toEqual([6, 8]);
    expect(arr(sortedUids([5, 1, 5, 3, 2 ** 52]))).toEqual([1, 3, 5, 2 ** 52]);
  });

  it("never modifies its inputs", () => {
    const a = L(1, 2, 3);
    const b = L(2, 3, 4);
    intersect(a, b);
    union(a, b);
    difference(a, b);
    expect(arr(a)).toEqual([1, 2, 3]);
    expect(arr(b)).toEqual([2, 3, 4]);
  });
});
