import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TxnAbortedError } from "../../src/index.ts";
import { openTestEngine, q, setNow } from "./engine-fixture.ts";

let t: ReturnType<typeof openTestEngine>;
beforeEach(() => {
  t = openTestEngine();
});
afterEach(async () => {
  await t.cleanup();
});

describe("transactions", () => {
  it("a transaction reads the snapshot at its start ts, not later commits", async () => {
    const e = t.engine;
    await e.alter({ schema: "name: string @index(exact) ." });
    const { a } = await setNow(e, '_:a <name> "first" .');
    const reader = await e.query({ query: `{ q(func: uid(${a})) { name } }` });
    await setNow(e, `<${a}> <name> "second" .`);
    const again = await q(e, `{ q(func: uid(${a})) { name } }`, reader.txn.start_ts);
    expect(again).toEqual({ q: [{ name: "first" }] });
    expect(await q(e, `{ q(func: uid(${a})) { name } }`)).toEqual({ q: [{ name: "second" }] });
  });

  it("a transaction sees its own uncommitted writes, including through indexes; others do not", async () => {
    const e = t.engine;
    await e.alter({ schema: "name: string @index(exact) ." });
    const m = await e.mutate({ mutations: [{ setNquads: '_:a <name> "mine" .' }] });
    const own = await q(e, '{ q(func: eq(name, "mine")) { name } }', m.txn.start_ts);
    expect(own).toEqual({ q: [{ name: "mine" }] });
    expect(await q(e, '{ q(func: eq(name, "mine")) { name } }')).toEqual({ q: [] });
    await e.commit({ startTs: m.txn.start_ts });
    expect(await q(e, '{ q(func: eq(name, "mine")) { name } }')).toEqual({ q: [{ name: "mine" }] });
  });

  it("aborts the second committer on a conflicting non-list (subject, predicate)", async () => {
    const e = t.engine;
    const { a } = await setNow(e, '_:a <name> "Alice" .');
    const t1 = await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "one" .` }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "two" .` }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await expect(e.commit({ startTs: t2.txn.start_ts })).rejects.toThrow(
      "Transaction has been aborted. Please retry",
    );
    await expect(e.commit({ startTs: t2.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
    expect(await q(e, `{ q(func: uid(${a})) { name } }`)).toEqual({ q: [{ name: "one" }] });
  });

  it("concurrent writers of one counted list both commit, and the count index stays exact", async () => {
    const e = t.engine;
    await e.alter({ schema: "genre: [uid] @reverse @count .\ntag: [string] @count ." });
    const { g, x } = await setNow(e, '_:g <dgraph.type> "Genre" .\n_:x <tag> "a" .');
    // Two films join the same genre, and the same node gains two tags, in overlapping transactions: the
    // count moves each computed from its snapshot (genre 0 → 1 films, tags 1 → 2) are both stale once the
    // other commits; the committed count keys come from the lists' real lengths.
    const t1 = await e.mutate({ mutations: [{ setNquads: `_:f1 <genre> <${g}> .\n<${x}> <tag> "b" .` }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: `_:f2 <genre> <${g}> .\n<${x}> <tag> "c" .` }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await e.commit({ startTs: t2.txn.start_ts });
    const counts = await q(
      e,
      "{ g2(func: eq(count(~genre), 2)) { uid } g1(func: eq(count(~genre), 1)) { uid } " +
        "x3(func: eq(count(tag), 3)) { uid } x2(func: eq(count(tag), 2)) { uid } }",
    );
    expect(counts).toEqual({ g2: [{ uid: g }], g1: [], x3: [{ uid: x }], x2: [] });
  });

  it("commits queued in the same turn are written together, and a transaction that started meanwhile conflicts with them", async () => {
    const e = t.engine;
    const { a, b } = await setNow(e, '_:a <name> "A" .\n_:b <name> "B" .');
    const t1 = await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "A1" .` }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: `<${b}> <name> "B1" .` }] });
    // Both commits queue in this turn; a transaction starting before they are written must not see them,
    // and its write to <a> must conflict with the queued t1.
    const c1 = e.commit({ startTs: t1.txn.start_ts });
    const c2 = e.commit({ startTs: t2.txn.start_ts });
    const t3 = await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "A3" .` }] });
    const [r1, r2] = await Promise.all([c1, c2]);
    expect(r2.commit_ts).toBe((r1.commit_ts ?? 0) + 1);
    expect(r1.commit_ts).toBeGreaterThan(t3.txn.start_ts);
    expect(await q(e, `{ q(func: uid(${a})) { name } }`, t3.txn.start_ts)).toEqual({ q: [{ name: "A3" }] });
    await expect(e.commit({ startTs: t3.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
    expect(await q(e, `{ a(func: uid(${a})) { name } b(func: uid(${b})) { name } }`)).toEqual({
      a: [{ name: "A1" }],
      b: [{ name: "B1" }],
    });
  });

  it("lets concurrent appends of different values to a list predicate both commit", async () => {
    const e = t.engine;
    await e.alter({ schema: "tag: [string] @index(exact) ." });
    const { a } = await setNow(e, '_:a <tag> "x" .');
    const t1 = await e.mutate({ mutations: [{ setNquads: `<${a}> <tag> "y" .` }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: `<${a}> <tag> "z" .` }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await e.commit({ startTs: t2.txn.start_ts });
    const out = (await q(e, `{ q(func: uid(${a})) { tag } }`)) as { q: { tag: string[] }[] };
    expect(out.q[0].tag.sort()).toEqual(["x", "y", "z"]);
    // Both transactions added the subject to different index tokens: neither update was lost.
    expect(await q(e, '{ q(func: eq(tag, "z")) { uid } }')).toEqual({ q: [{ uid: a }] });
    expect(await q(e, '{ q(func: eq(tag, "y")) { uid } }')).toEqual({ q: [{ uid: a }] });
  });

  it("concurrent index updates on the same token from different subjects are both kept", async () => {
    const e = t.engine;
    await e.alter({ schema: "city: string @index(exact) ." });
    const t1 = await e.mutate({ mutations: [{ setNquads: '_:a <city> "Paris" .' }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: '_:b <city> "Paris" .' }] });
    await e.commit({ startTs: t2.txn.start_ts });
    await e.commit({ startTs: t1.txn.start_ts });
    const out = (await q(e, '{ q(func: eq(city, "Paris")) { uid } }')) as { q: unknown[] };
    expect(out.q).toHaveLength(2);
  });

  it("@upsert makes two inserts of the same indexed value conflict", async () => {
    const e = t.engine;
    await e.alter({ schema: "email: string @index(exact) @upsert ." });
    const t1 = await e.mutate({ mutations: [{ setNquads: '_:a <email> "a@b.c" .' }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: '_:b <email> "a@b.c" .' }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await expect(e.commit({ startTs: t2.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
  });

  it("without @upsert the same two inserts both commit", async () => {
    const e = t.engine;
    await e.alter({ schema: "email: string @index(exact) ." });
    const t1 = await e.mutate({ mutations: [{ setNquads: '_:a <email> "a@b.c" .' }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: '_:b <email> "a@b.c" .' }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await e.commit({ startTs: t2.txn.start_ts });
  });

  it("@noconflict predicates never conflict", async () => {
    const e = t.engine;
    await e.alter({ schema: "seen: int @noconflict ." });
    const { a } = await setNow(e, '_:a <seen> "1" .');
    const t1 = await e.mutate({ mutations: [{ setNquads: `<${a}> <seen> "2" .` }] });
    const t2 = await e.mutate({ mutations: [{ setNquads: `<${a}> <seen> "3" .` }] });
    await e.commit({ startTs: t1.txn.start_ts });
    await e.commit({ startTs: t2.txn.start_ts });
  });

  it("returns conflict keys and predicates in Dgraph's formats", async () => {
    const m = await t.engine.mutate({ mutations: [{ setNquads: '_:a <name> "x" .' }] });
    expect(m.txn.preds).toEqual(["1-0-name"]);
    expect(m.txn.keys?.every((k) => /^[0-9a-z]+$/.test(k))).toBe(true);
    expect(m.txn.keys?.length).toBeGreaterThan(0);
  });

  it("aborting discards the writes; aborting a committed transaction fails", async () => {
    const e = t.engine;
    const m = await e.mutate({ mutations: [{ setNquads: '_:a <name> "gone" .' }] });
    await e.commit({ startTs: m.txn.start_ts, abort: true });
    expect(await q(e, `{ q(func: uid(${m.uids.a})) { name } }`)).toEqual({ q: [] });
    await expect(e.commit({ startTs: m.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
    const c = await e.mutate({ mutations: [{ setNquads: '_:a <name> "kept" .' }], commitNow: true });
    await expect(e.commit({ startTs: c.txn.start_ts, abort: true })).rejects.toThrow(
      "transaction could not be aborted",
    );
  });

  it("start and commit timestamps come from one increasing counter", async () => {
    const e = t.engine;
    const a = await e.mutate({ mutations: [{ setNquads: '_:a <name> "a" .' }], commitNow: true });
    const b = await e.mutate({ mutations: [{ setNquads: '_:a <name> "b" .' }], commitNow: true });
    expect(a.txn.commit_ts).toBeGreaterThan(a.txn.start_ts);
    expect(b.txn.start_ts).toBeGreaterThan(a.txn.commit_ts ?? 0);
  });

  it("reuses the read-only timestamp while no other timestamp was handed out", async () => {
    const e = t.engine;
    const r1 = await e.query({ query: "{ q(func: uid(1)) { uid } }", readOnly: true });
    const r2 = await e.query({ query: "{ q(func: uid(1)) { uid } }", readOnly: true });
    expect(r2.txn.start_ts).toBe(r1.txn.start_ts);
    await setNow(e, '_:a <name> "x" .');
    const r3 = await e.query({ query: "{ q(func: uid(1)) { uid } }", readOnly: true, bestEffort: true });
    expect(r3.txn.start_ts).toBeGreaterThan(r1.txn.start_ts);
    await expect(e.query({ query: "{ q(func: uid(1)) { uid } }", bestEffort: true })).rejects.toThrow(
      "A best effort query must be read-only.",
    );
  });

  it("aborts transactions left idle past the abort-after period", async () => {
    await t.cleanup();
    t = openTestEngine({ txnAbortAfterMs: 200 });
    const e = t.engine;
    const m = await e.mutate({ mutations: [{ setNquads: '_:a <name> "idle" .' }] });
    await new Promise((r) => setTimeout(r, 700));
    await expect(e.commit({ startTs: m.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
    expect(await q(e, `{ q(func: uid(${m.uids.a})) { name } }`)).toEqual({ q: [] });
  });

  it("a failing mutation leaves nothing behind and aborts its transaction", async () => {
    const e = t.engine;
    await e.alter({ schema: "age: int ." });
    const m = await e.mutate({ mutations: [{ setNquads: '_:a <name> "ok" .' }] });
    await expect(
      e.mutate({
        startTs: m.txn.start_ts,
        mutations: [{ setNquads: '_:b <name> "also" .\n_:b <age> "notanumber" .' }],
      }),
    ).rejects.toThrow(/age/);
    await expect(e.commit({ startTs: m.txn.start_ts })).rejects.toBeInstanceOf(TxnAbortedError);
    expect(await q(e, "{ q(func: has(name)) { name } }")).toEqual({ q: [] });
  });

  it("commits applied to cached records store exactly what a cold read after a restart sees", async () => {
    const e = t.engine;
    await e.alter({ schema: "name: string @index(exact) .\ntag: [string] .\nlink: [uid] @reverse @count ." });
    const u = await setNow(e, '_:a <name> "A" .\n_:b <name> "B" .\n_:a <link> _:b (w=1) .');
    const read = `{ q(func: uid(${u.a}, ${u.b})) { name tag link @facets { uid } ~link { uid } n: count(link) } }`;
    // Reads cache the records (absent keys as empty ones); each commit then applies its deltas to them.
    for (let i = 0; i < 5; i++) {
      await q(e, read);
      await setNow(e, `<${u.a}> <tag> "t${i}" .\n<${u.b}> <link> <${u.a}> .\n<${u.a}> <name> "A${i}" .`);
    }
    await q(e, read);
    await e.mutate({
      mutations: [{ delNquads: `<${u.a}> <tag> * .\n<${u.a}> <link> <${u.b}> .\n<${u.b}> <name> * .` }],
      commitNow: true,
    });
    // Two transactions committed in one group both change a's name and tags (the second sees the first's).
    const x = await e.mutate({ mutations: [{ setNquads: `<${u.a}> <tag> "x" .` }] });
    const y = await e.mutate({ mutations: [{ setNquads: `<${u.a}> <tag> "y" .` }] });
    await Promise.all([e.commit({ startTs: x.txn.start_ts }), e.commit({ startTs: y.txn.start_ts })]);
    const warm = await q(e, read);
    const counted = await q(e, `{ q(func: eq(count(link), 1)) { uid } }`);
    await e.close();
    const { createGraphDB } = await import("../../src/index.ts");
    const again = createGraphDB({ dir: t.dir });
    expect(await q(again.engine, read)).toEqual(warm);
    expect(await q(again.engine, `{ q(func: eq(count(link), 1)) { uid } }`)).toEqual(counted);
    expect(warm).toEqual({
      q: [
        { name: "A4", tag: expect.arrayContaining(["x", "y"]), n: 0, "~link": [{ uid: u.b }] },
        { link: [{ uid: u.a }], n: 1 },
      ],
    });
    await again.close();
  });

  it("data survives a restart, and new uids and timestamps continue above the old ones", async () => {
    const e = t.engine;
    const m = await e.mutate({ mutations: [{ setNquads: '_:a <name> "durable" .' }], commitNow: true });
    await e.close();
    const { createGraphDB } = await import("../../src/index.ts");
    const again = createGraphDB({ dir: t.dir });
    expect(await q(again.engine, `{ q(func: uid(${m.uids.a})) { name } }`)).toEqual({
      q: [{ name: "durable" }],
    });
    const n = await again.engine.mutate({
      mutations: [{ setNquads: '_:b <name> "next" .' }],
      commitNow: true,
    });
    expect(Number(n.uids.b)).toBeGreaterThan(Number(m.uids.a));
    expect(n.txn.start_ts).toBeGreaterThan(m.txn.commit_ts ?? 0);
    await again.close();
  });
});

describe("snapshot bounds", () => {
  it("keeps serving when thousands of read transactions are never finished across many commits", async () => {
    const e = t.engine;
    const { a } = await setNow(e, '_:a <name> "v0" .');
    // Each read registers a transaction pinning the snapshot of its commit epoch; commits start new epochs.
    for (let i = 1; i <= 1500; i++) {
      await e.query({ query: `{ q(func: uid(${a})) { name } }` });
      await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "v${i}" .` }], commitNow: true });
    }
    expect(await q(e, `{ q(func: uid(${a})) { name } }`)).toEqual({ q: [{ name: "v1500" }] });
    // A recent reader is still continuable; the writer path never lost a transaction that wrote.
    const m = await e.mutate({ mutations: [{ setNquads: `<${a}> <name> "last" .` }] });
    await e.commit({ startTs: m.txn.start_ts });
  }, 60_000);
});

describe("conflict detection across conflict-record purges", () => {
  it("a transaction that read before 1000+ other commits and writes after them still conflicts", async () => {
    const e = t.engine;
    await e.alter({ schema: "bal: int ." });
    const { a, b } = await setNow(e, '_:a <bal> "100" .\n_:b <bal> "100" .');
    // The transfer reads first (no writes yet) ...
    const transfer = await e.query({ query: `{ q(func: uid(${a})) { bal } }` });
    const startTs = transfer.txn.start_ts;
    // ... meanwhile another transaction commits to the same account, then enough unrelated commits
    // follow that the oracle purges conflict records.
    await setNow(e, `<${a}> <bal> "50" .`);
    for (let i = 0; i < 1100; i++) await setNow(e, `<${b}> <bal> "${i}" .`);
    // The transfer now writes the balance it read: first committer wins, so it must abort.
    await e.mutate({ startTs, mutations: [{ setNquads: `<${a}> <bal> "90" .` }] });
    await expect(e.commit({ startTs })).rejects.toBeInstanceOf(TxnAbortedError);
    expect(await q(e, `{ q(func: uid(${a})) { bal } }`)).toEqual({ q: [{ bal: 50 }] });
  }, 60_000);

  it("a transaction that read, then writes a key nobody touched, still commits across purges", async () => {
    const e = t.engine;
    await e.alter({ schema: "bal: int ." });
    const { a, b } = await setNow(e, '_:a <bal> "100" .\n_:b <bal> "100" .');
    const reader = await e.query({ query: `{ q(func: uid(${a})) { bal } }` });
    const startTs = reader.txn.start_ts;
    for (let i = 0; i < 1100; i++) await setNow(e, `<${b}> <bal> "${i}" .`);
    await e.mutate({ startTs, mutations: [{ setNquads: `<${a}> <bal> "7" .` }] });
    await e.commit({ startTs });
    expect(await q(e, `{ q(func: uid(${a})) { bal } }`)).toEqual({ q: [{ bal: 7 }] });
  }, 60_000);
});

describe("uid leases and read views", () => {
  it("assigns uid ranges that explicit <0x…> mutations may then use", async () => {
    const e = t.engine;
    await expect(setNow(e, '<0x50000> <name> "too early" .')).rejects.toThrow(/cannot be greater than lease/);
    const { startId, endId } = e.assignUids(0x50000);
    expect(endId - startId + 1).toBe(0x50000);
    await setNow(e, `<${endId}> <name> "named ahead" .`);
    expect(await q(e, `{ q(func: uid(${endId})) { name } }`)).toEqual({ q: [{ name: "named ahead" }] });
    const next = e.assignUids(1);
    expect(next.startId).toBeGreaterThan(endId);
  });

  it("a read view sees committed data at its snapshot and nothing committed after it", async () => {
    const e = t.engine;
    const { a } = await setNow(e, '_:a <name> "before" .');
    const view = e.readView();
    await setNow(e, `<${a}> <name> "after" .`);
    expect(view.reader.values("name", Number(a)).map((v) => v.value.value)).toEqual(["before"]);
    view.release();
    const fresh = e.readView();
    expect(fresh.reader.values("name", Number(a)).map((v) => v.value.value)).toEqual(["after"]);
    fresh.release();
  });
});

describe("index maintenance on deletes", () => {
  it("keeps index tokens that the subject's remaining list values still produce", async () => {
    const e = t.engine;
    await e.alter({ schema: "tags: [string] @index(term) ." });
    const { a } = await setNow(e, '_:a <tags> "red car" .\n_:a <tags> "red bike" .');
    await e.mutate({ mutations: [{ delNquads: `<${a}> <tags> "red car" .` }], commitNow: true });
    expect(await q(e, '{ q(func: anyofterms(tags, "red")) { uid } }')).toEqual({ q: [{ uid: a }] });
    expect(await q(e, '{ q(func: anyofterms(tags, "car")) { uid } }')).toEqual({ q: [] });
  });

  it("keeps index tokens that another language's value still produces", async () => {
    const e = t.engine;
    await e.alter({ schema: "title: string @index(exact, term) @lang ." });
    const { a } = await setNow(e, '_:a <title> "Love Story"@en .\n_:a <title> "Love Story"@fr .');
    await e.mutate({ mutations: [{ delNquads: `<${a}> <title> "Love Story"@fr .` }], commitNow: true });
    expect(await q(e, '{ q(func: eq(title@en, "Love Story")) { uid } }')).toEqual({ q: [{ uid: a }] });
    await e.mutate({ mutations: [{ setNquads: `<${a}> <title> "Love Song"@en .` }], commitNow: true });
    expect(await q(e, '{ q(func: anyofterms(title@en, "story")) { uid } }')).toEqual({ q: [] });
    expect(await q(e, '{ q(func: anyofterms(title@en, "love")) { uid } }')).toEqual({ q: [{ uid: a }] });
  });

  it("the bulk loader keeps tokens of values it does not replace", async () => {
    const e = t.engine;
    await e.alter({ schema: "title: string @index(term) @lang ." });
    const { a } = await setNow(e, '_:a <title> "Red Planet"@en .\n_:a <title> "Red Planet"@fr .');
    await e.bulkLoad(`<${a}> <title> "Blue Planet"@fr .`);
    expect(await q(e, '{ q(func: anyofterms(title@en, "red")) { uid } }')).toEqual({ q: [{ uid: a }] });
  });
});
