/**
 * A large commit is prepared in parts, then written in one write in the background: other work runs while
 * it is prepared and while it is written, commits made meanwhile land after it without losing anything to
 * it, no reader sees it before its commit ts, and it lands whole.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDB } from "../../src/index.ts";
import type { StagedWrites } from "../../src/store/kv-store.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";
import { openTestEngine, q } from "../engine/engine-fixture.ts";

const NODES = 20_000;

describe("commits prepared in parts", () => {
  let t: ReturnType<typeof openTestEngine> | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("answers other namespaces while a large commit is prepared; later commits land after it, whole", async () => {
    // noSync: without waiting for fsync, a commit written in one go is answered before the next turn.
    t = openTestEngine({ noSync: true });
    const db = t.engine;
    const other = await db.createNamespace();
    await db.alter({ namespace: other, schema: "tag: string @index(exact) ." });
    await db.alter({ schema: "name: string @index(exact) .\nfriend: [uid] @reverse @count ." });
    const { uids } = await db.mutate({ commitNow: true, mutations: [{ setNquads: '_:hub <name> "hub" .' }] });
    const hub = uids.hub;

    // One transaction: 20,000 nodes, each named (100 index tokens) and pointing at the hub (one reverse
    // list, count keys): over 40,000 keys.
    const lines: string[] = [];
    for (let i = 0; i < NODES; i++)
      lines.push(`_:n${i} <name> "v${i % 100}" .`, `_:n${i} <friend> <${hub}> .`);
    const big = await db.mutate({ mutations: [{ setNquads: lines.join("\n") }] });
    const events: string[] = [];
    const commit = db.commit({ startTs: big.txn.start_ts }).then((ctx) => {
      events.push("big commit");
      return ctx;
    });

    // Meanwhile: another namespace reads and writes; the same namespace writes the hub's reverse list and
    // an index token the big commit also writes (no conflict keys: both commit, neither may be lost).
    await new Promise((resume) => setImmediate(resume));
    const otherAnswer = await db.query({ namespace: other, query: "{ q(func: has(tag)) { count(uid) } }" });
    events.push("other namespace read");
    await db.mutate({ namespace: other, commitNow: true, mutations: [{ setNquads: '_:t <tag> "t" .' }] });
    events.push("other namespace write");
    const late = db.mutate({
      commitNow: true,
      mutations: [{ setNquads: `_:late <name> "v1" .\n_:late <friend> <${hub}> .` }],
    });
    const ctx = await commit;
    await late;
    expect(JSON.parse(otherAnswer.json)).toEqual({ q: [{ count: 0 }] });
    expect(events).toEqual(["other namespace read", "other namespace write", "big commit"]);
    expect(ctx.commit_ts).toBeGreaterThan(big.txn.start_ts);

    const check = async (engine: GraphDB) => {
      expect(await q(engine, '{ q(func: eq(name, "v1")) { count(uid) } }')).toEqual({
        q: [{ count: NODES / 100 + 1 }],
      });
      expect(await q(engine, `{ q(func: uid(${hub})) { count(~friend) } }`)).toEqual({
        q: [{ "count(~friend)": NODES + 1 }],
      });
      expect(await q(engine, "{ q(func: eq(count(friend), 1)) { count(uid) } }")).toEqual({
        q: [{ count: NODES + 1 }],
      });
      expect(await q(engine, '{ q(func: eq(name, "v99"), first: 1) { name friend { name } } }')).toEqual({
        q: [{ name: "v99", friend: [{ name: "hub" }] }],
      });
    };
    await check(db);
    // And on disk: the same after a restart.
    await db.close();
    const reopened = createGraphDB({ dir: t.dir });
    try {
      await check(reopened.engine);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  it("aborts a transaction that started while a large commit was prepared and writes what it wrote", async () => {
    t = openTestEngine({ noSync: true });
    const db = t.engine;
    await db.alter({ schema: "name: string @index(exact) @upsert ." });
    const lines: string[] = [];
    for (let i = 0; i < NODES; i++) lines.push(`_:n${i} <name> "v${i}" .`);
    lines.push('_:x <name> "contested" .');
    const big = await db.mutate({ mutations: [{ setNquads: lines.join("\n") }] });
    const commit = db.commit({ startTs: big.txn.start_ts });
    await new Promise((resume) => setImmediate(resume));
    // Starts before the big commit is written: it must not see it, and writing the same upsert index key
    // it must abort (first committer wins), even though the big commit has no timestamp yet.
    const rival = await db.mutate({ mutations: [{ setNquads: '_:y <name> "contested" .' }] });
    expect(await q(db, '{ q(func: eq(name, "v5")) { count(uid) } }', rival.txn.start_ts)).toEqual({
      q: [{ count: 0 }],
    });
    await expect(db.commit({ startTs: rival.txn.start_ts })).rejects.toThrow(/aborted/i);
    await commit;
    expect(await q(db, '{ q(func: eq(name, "contested")) { count(uid) } }')).toEqual({ q: [{ count: 1 }] });
    expect(await q(db, '{ q(func: eq(name, "v5")) { count(uid) } }')).toEqual({ q: [{ count: 1 }] });
  }, 60_000);

  it("goes on reading and writing while the large commit is written; no reader sees it before its ts", async () => {
    /** The real LMDB store, telling when a background write is under way. */
    class WatchedStore extends LmdbStore {
      writing = 0;
      backgroundWrites = 0;
      override writeStaged(batch: StagedWrites) {
        const write = super.writeStaged(batch);
        this.writing++;
        this.backgroundWrites++;
        void write.landed.finally(() => this.writing--);
        return write;
      }
    }
    const dir = mkdtempSync(join(tmpdir(), "trellis-graphdb-"));
    const store = new WatchedStore({ dir, noSync: true });
    const handle = createGraphDB({ dir, store });
    t = {
      engine: handle.engine,
      dir,
      cleanup: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    } as ReturnType<typeof openTestEngine>;
    const db = handle.engine;
    const other = await db.createNamespace();
    await db.alter({ namespace: other, schema: "tag: string @index(exact) ." });
    await db.alter({ schema: "name: string @index(exact) ." });
    const lines: string[] = [];
    for (let i = 0; i < NODES * 2; i++) lines.push(`_:n${i} <name> "v${i % 100}" .`);
    const big = await db.mutate({ mutations: [{ setNquads: lines.join("\n") }] });
    let done = false;
    const commit = db.commit({ startTs: big.txn.start_ts }).finally(() => {
      done = true;
    });

    // Every turn until it is answered: a read of what the big commit writes, and a write in another
    // namespace; those made while the store writes the big commit in the background are noted.
    const reads: { startTs: number; count: number; whileWriting: boolean }[] = [];
    const writes: Promise<{ commitTs: number; whileWriting: boolean }>[] = [];
    while (!done) {
      const whileWriting = store.writing > 0;
      const r = await db.query({ readOnly: true, query: '{ q(func: eq(name, "v7")) { count(uid) } }' });
      const count = (JSON.parse(r.json) as { q: { count: number }[] }).q[0].count;
      reads.push({ startTs: r.txn.start_ts, count, whileWriting: whileWriting && store.writing > 0 });
      if (whileWriting) {
        writes.push(
          db
            .mutate({ namespace: other, commitNow: true, mutations: [{ setNquads: '_:t <tag> "during" .' }] })
            .then((m) => ({ commitTs: m.txn.commit_ts as number, whileWriting })),
        );
      }
      await new Promise((resume) => setImmediate(resume));
    }
    const commitTs = (await commit).commit_ts as number;
    expect(store.backgroundWrites).toBeGreaterThan(0);
    // Other requests were answered while the store wrote the big commit: the thread was not held.
    expect(reads.filter((r) => r.whileWriting).length).toBeGreaterThan(0);
    // Snapshot isolation: a reader sees the commit exactly when its start ts is past the commit ts.
    for (const r of reads) expect(r.count).toBe(r.startTs > commitTs ? (NODES * 2) / 100 : 0);
    // Writes queued behind the background write land after it, with later timestamps, none lost.
    const landed = await Promise.all(writes);
    for (const w of landed) expect(w.commitTs).toBeGreaterThan(commitTs);
    expect(await q(db, '{ q(func: eq(name, "v7")) { count(uid) } }')).toEqual({
      q: [{ count: (NODES * 2) / 100 }],
    });
    const tagged = await db.query({
      namespace: other,
      query: '{ q(func: eq(tag, "during")) { count(uid) } }',
    });
    expect(JSON.parse(tagged.json)).toEqual({ q: [{ count: landed.length }] });
  }, 60_000);
});
