import { describe, expect, it } from "vitest";
import { Oracle } from "../../src/txn/oracle.ts";

function oracle(): Oracle {
  const saved: number[][] = [];
  return new Oracle({ saveLeases: (ts, uid) => saved.push([ts, uid]) }, { tsLease: 0, uidLease: 0 });
}

describe("oracle conflict records", () => {
  it("first committer wins on a shared key", () => {
    const o = oracle();
    const s1 = o.nextTs();
    const s2 = o.nextTs();
    o.recordCommit(s1, o.nextTs(), new Set([42]));
    expect(o.conflicts(new Set([42]), s2)).toBe(true);
    expect(o.conflicts(new Set([43]), s2)).toBe(false);
    expect(o.conflicts(new Set([42]), o.nextTs())).toBe(false);
  });

  it("a transaction older than purged records is refused rather than checked against missing ones", () => {
    const o = oracle();
    const early = o.nextTs();
    const c = o.nextTs();
    o.recordCommit(o.nextTs() - 1, c, new Set([7]));
    // A purge past `early` (its transaction was not counted as live) forgets the commit of key 7.
    o.purge(o.nextTs());
    expect(o.trackedKeys()).toBe(0);
    // Key 7 is unknown now, yet the old transaction must not slip through: it may have missed it.
    expect(o.conflicts(new Set([7]), early)).toBe(true);
    expect(o.conflicts(new Set([99]), early)).toBe(true);
    // Transactions started after the purged commits are checked normally.
    expect(o.conflicts(new Set([7]), o.nextTs())).toBe(false);
  });

  it("a purge below a live start ts keeps it checkable", () => {
    const o = oracle();
    const live = o.nextTs();
    const c = o.nextTs();
    o.recordCommit(c - 1, c, new Set([7]));
    o.purge(live);
    expect(o.trackedKeys()).toBe(1);
    expect(o.conflicts(new Set([7]), live)).toBe(true);
    expect(o.conflicts(new Set([8]), live)).toBe(false);
  });

  it("a large commit's keys are checked, in either direction of size, and purged", () => {
    const o = oracle();
    const before = o.nextTs();
    const large = new Set(Array.from({ length: 50_000 }, (_, i) => i * 3));
    o.recordCommit(o.nextTs() - 1, o.nextTs(), large);
    o.recordCommit(before, o.nextTs(), new Set([1]));
    // A small transaction against the large commit, a large one against the small and large commits.
    expect(o.conflicts(new Set([149_997]), before)).toBe(true);
    expect(o.conflicts(new Set([149_998]), before)).toBe(false);
    const many = (f: (i: number) => number) => new Set(Array.from({ length: 60_000 }, (_, i) => f(i)));
    expect(
      o.conflicts(
        many((i) => 300_000 + i),
        before,
      ),
    ).toBe(false);
    expect(
      o.conflicts(
        many((i) => (i === 59_999 ? 149_997 : 300_000 + i)),
        before,
      ),
    ).toBe(true);
    expect(
      o.conflicts(
        many((i) => (i === 59_999 ? 1 : 300_000 + i)),
        before,
      ),
    ).toBe(true);
    expect(o.trackedKeys()).toBe(50_001);
    // Started after both: no conflict; after a purge past them, the old transaction is refused.
    const after = o.nextTs();
    expect(o.conflicts(new Set([0, 1]), after)).toBe(false);
    o.purge(after);
    expect(o.trackedKeys()).toBe(0);
    expect(o.conflicts(new Set([149_998]), before)).toBe(true);
  });
});
