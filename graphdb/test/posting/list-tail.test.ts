import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGraphDB } from "../../src/index.ts";
import { appendUids, readList, withTail, writeList } from "../../src/posting/list-tail.ts";
import { decodeUidList, encodeUidList } from "../../src/posting/posting-record.ts";
import { GALAXY_KEYS, tailKey } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";
import { openTestEngine, q } from "../engine/engine-fixture.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const range = (from: number, n: number) => Float64Array.from({ length: n }, (_, i) => from + i);

describe("list tails", () => {
  it("adds to a long list through a tail, folds the tail back, and reads the list whole", () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-tail-"));
    dirs.push(dir);
    const store = new LmdbStore({ dir, noSync: true });
    cleanups.push(() => store.close());
    const key = indexKey("tag", new Uint8Array([2, 120]));
    const read = () => {
      const snap = store.snapshot();
      try {
        return decodeUidList(withTail((k) => snap.get(k), key, snap.get(key)));
      } finally {
        snap.release();
      }
    };
    const tailBytes = () => store.write((w) => w.get(tailKey(key))).result;
    store.write((w) => w.put(key, encodeUidList(range(1, 2000))));
    // 2000 uids: additions go to the tail, the list itself is untouched.
    expect(store.write((w) => appendUids(w, key, range(5001, 10))).result).toBe(true);
    expect(tailBytes()).toBeDefined();
    expect(read()).toEqual(Float64Array.from([...range(1, 2000), ...range(5001, 10)]));
    // Out of order: the fast path refuses, the caller rewrites the list (and drops the tail).
    expect(store.write((w) => appendUids(w, key, range(3000, 1))).result).toBe(false);
    // The tail is folded back once it reaches its limit (1024 uids for a list of 2000).
    for (let i = 0; i < 110; i++) store.write((w) => appendUids(w, key, range(6000 + i * 10, 10)));
    expect(read().length).toBe(2000 + 10 + 1100);
    expect(read()[2009]).toBe(5010);
    expect(read()[3109]).toBe(7099);
    // A rewrite replaces list and tail together.
    store.write((w) => appendUids(w, key, range(9000, 5)));
    expect(tailBytes()).toBeDefined();
    store.write((w) => {
      const { value, tail } = readList(w, key);
      expect(tail).toBe(true);
      const uids = decodeUidList(value).filter((u) => u % 2 === 0);
      writeList(w, key, encodeUidList(uids), tail);
    });
    expect(tailBytes()).toBeUndefined();
    expect(read().every((u) => u % 2 === 0)).toBe(true);
    expect(read().length).toBe(1000 + 5 + 550 + 3);
  });

  it("keeps long index and reverse lists exact across many small commits, snapshots, restart and drops", async () => {
    const t = openTestEngine({ noSync: true });
    let engine = t.engine;
    cleanups.push(async () => {
      await engine.close();
    });
    dirs.push(t.dir);
    const schema = "tag: string @index(exact) .\nlink: [uid] @reverse @count .";
    await engine.alter({ schema });
    const hub = (await engine.mutate({ mutations: [{ setNquads: '_:h <tag> "hub" .' }], commitNow: true }))
      .uids.h;
    const counts = async (startTs?: number) => {
      const r = (await q(
        engine,
        `{ a(func: eq(tag, "common")) { n: count(uid) } b(func: uid(${hub})) { n: count(~link) } }`,
        startTs,
      )) as { a: { n: number }[]; b: { n: number }[] };
      return { tagged: r.a[0].n, linked: r.b[0].n };
    };
    let n = 0;
    let first: string | undefined;
    const add = async (k: number) => {
      const lines: string[] = [];
      for (let i = 0; i < k; i++) {
        lines.push(`_:s${i} <tag> "common" .`, `_:s${i} <link> <${hub}> .`);
      }
      const r = await engine.mutate({ mutations: [{ setNquads: lines.join("\n") }], commitNow: true });
      first ??= r.uids.s0;
      n += k;
    };
    for (let c = 0; c < 60; c++) await add(50);
    expect(await counts()).toEqual({ tagged: 3000, linked: 3000 });
    // A transaction that started before more additions keeps seeing its snapshot.
    const before = await engine.query({ query: '{ q(func: eq(tag, "hub")) { uid } }' });
    for (let c = 0; c < 5; c++) await add(50);
    expect(await counts(before.txn.start_ts)).toEqual({ tagged: 3000, linked: 3000 });
    expect(await counts()).toEqual({ tagged: n, linked: n });
    // A removal rewrites the list with its tail.
    await engine.mutate({
      mutations: [{ delNquads: `<${first}> <tag> "common" .\n<${first}> <link> <${hub}> .` }],
      commitNow: true,
    });
    await add(50);
    expect(await counts()).toEqual({ tagged: n - 1, linked: n - 1 });
    const reverseCount = await q(engine, `{ q(func: eq(count(~link), ${n - 1})) { uid } }`);
    expect(reverseCount).toEqual({ q: [{ uid: hub }] });
    // Tails are durable and found again after a restart.
    await engine.close();
    engine = createGraphDB({ dir: t.dir, noSync: true }).engine;
    expect(await counts()).toEqual({ tagged: n - 1, linked: n - 1 });
    // Dropping the predicate drops the tails with the lists: a new list starts empty.
    await engine.alter({ dropAttr: "tag" });
    await engine.alter({ schema });
    n = 0;
    for (let c = 0; c < 25; c++) await add(50);
    const again = (await q(engine, '{ a(func: eq(tag, "common")) { n: count(uid) } }')) as {
      a: { n: number }[];
    };
    expect(again.a[0].n).toBe(1250);
  });

  it("bulk-loads long lists across flushes and keeps adding to them", async () => {
    const t = openTestEngine({ noSync: true });
    cleanups.push(t.cleanup);
    await t.engine.alter({ schema: "tag: string @index(exact) ." });
    const lines = Array.from({ length: 3000 }, (_, i) => `_:s${i} <tag> "common" .`);
    await t.engine.bulkLoad(lines.join("\n"), { flushEdges: 400 });
    await t.engine.mutate({
      mutations: [{ setNquads: '_:x <tag> "common" .\n_:y <tag> "common" .' }],
      commitNow: true,
    });
    const r = (await q(t.engine, '{ a(func: eq(tag, "common")) { n: count(uid) } }')) as {
      a: { n: number }[];
    };
    expect(r.a[0].n).toBe(3002);
  });
  it("bulk-loads into a long list that has a tail when the new uids do not append (the list is merged whole)", async () => {
    const t = openTestEngine({ noSync: true });
    cleanups.push(t.cleanup);
    await t.engine.alter({ schema: "tag: string @index(exact) ." });
    const set = async (nquads: string) =>
      (await t.engine.mutate({ mutations: [{ setNquads: nquads }], commitNow: true })).uids;
    const early = (await set('_:e <tag> "early" .')).e;
    const many = (n: number) => Array.from({ length: n }, (_, i) => `_:s${i} <tag> "common" .`).join("\n");
    await set(many(1100));
    for (let c = 0; c < 3; c++) await set(many(50)); // a long list's additions go to its tail
    // `early` sorts before every uid in the list: the bulk loader must read the list with its tail and merge.
    await t.engine.bulkLoad(`<${early}> <tag> "common" .`);
    const r = (await q(t.engine, '{ a(func: eq(tag, "common")) { n: count(uid) } }')) as {
      a: { n: number }[];
    };
    expect(r.a[0].n).toBe(1100 + 150 + 1);
  });
});
