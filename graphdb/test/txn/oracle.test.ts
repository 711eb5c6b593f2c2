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
    o.recordCommit(s1, o.nextTs(), [42]);
    expect(o.conflicts([42], s2)).toBe(true);
    expect(o.conflicts([43], s2)).toBe(false);
    expect(o.conflicts([42], o.nextTs())).toBe(false);
  });

  it("a transaction older than purged records is refused rather than checked against missing ones", () => {
    const o = oracle();
    const early = o.nextTs();
    const c = o.nextTs();
    o.recordCommit(o.nextTs() - 1, c, [7]);
    // A purge past `early` (its transaction was not counted as live) forgets the commit of key 7.
    o.purge(o.nextTs());
    expect(o.trackedKeys()).toBe(0);
    // Key 7 is unknown now, yet the old transaction must not slip through: it may have missed it.
    expect(o.conflicts([7], early)).toBe(true);
    expect(o.conflicts([99], early)).toBe(true);
    // Transactions started after the purged commits are checked normally.
    expect(o.conflicts([7], o.nextTs())).toBe(false);
  });

  it("a purge below a live start ts keeps it checkable", () => {
    const o = oracle();
    const live = o.nextTs();
    const c = o.nextTs();
    o.recordCommit(c - 1, c, [7]);
    o.purge(live);
    expect(o.trackedKeys()).toBe(1);
    expect(o.conflicts([7], live)).toBe(true);
    expect(o.conflicts([8], live)).toBe(false);
  });
});
