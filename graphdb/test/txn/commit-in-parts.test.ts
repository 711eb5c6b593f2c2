/**
 * A large commit is prepared in parts and written in one short write: other work runs while it is
 * prepared, commits made meanwhile land after it without losing anything to it, and it lands whole.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createGraphDB, type GraphDB } from "../../src/index.ts";
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
});
