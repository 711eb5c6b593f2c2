/**
 * Index builds (an alter that adds or changes an index, @reverse or @count over existing data): built in
 * slices from a snapshot, so other namespaces are answered and commit meanwhile; commits writing the
 * predicate being built are refused (Dgraph's errIndexingInProgress) so the index equals a full rebuild's;
 * and bounded: the values limit and the alter's deadline stop the build with a clear error, leaving the
 * old schema and indexes as they were.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GraphDB, type GraphDBOptions } from "../../src/engine/graph-db.ts";
import { withTail } from "../../src/posting/list-tail.ts";
import { decodeUidList } from "../../src/posting/posting-record.ts";
import { KeyKind, keyString, namespaceKeys } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";

let dir: string;
let store: LmdbStore;
let db: GraphDB;

function open(options: Partial<GraphDBOptions> = {}): void {
  dir = mkdtempSync(join(tmpdir(), "trellis-index-build-"));
  store = new LmdbStore({ dir, noSync: true });
  db = new GraphDB({ dir, store, ...options });
}

afterEach(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const WORDS = ["red", "green", "blue", "cyan", "amber", "violet", "olive", "teal"];

/** `n` nodes: a name of two words and a number, an int, two links; in `namespace`. */
async function load(n: number, namespace = 0): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      `_:n${i} <name> "${WORDS[i % 8]} ${WORDS[(i >> 3) % 8]} ${i}" .`,
      `_:n${i} <age> "${i % 97}"^^<xs:int> .`,
      `_:n${i} <friend> _:n${(i * 7) % n} .`,
      `_:n${i} <friend> _:n${(i * 13 + 1) % n} .`,
    );
  }
  await db.bulkLoad(lines.join("\n"), { namespace });
}

/** Every derived key (index, reverse, count) of a predicate, decoded: key → uids. */
function derivedKeys(predicate: string, namespace = 0): Map<string, number[]> {
  const keys = namespaceKeys(namespace);
  const out = new Map<string, number[]>();
  const snap = store.snapshot();
  try {
    for (const kind of [KeyKind.index, KeyKind.reverse, KeyKind.count, KeyKind.countReverse]) {
      for (const { key, value } of snap.scan(keys.kindRange(predicate, kind))) {
        const uids = decodeUidList(withTail((k) => snap.get(k), key, value));
        out.set(keyString(key), Array.from(uids));
      }
    }
  } finally {
    snap.release();
  }
  return out;
}

async function q(query: string, namespace = 0): Promise<unknown> {
  return JSON.parse((await db.query({ namespace, query })).json);
}

/** Until `promise` settles, runs `step` once per turn of the event loop; how many ran. */
async function whileRunning(
  promise: Promise<unknown>,
  step: (done: () => boolean) => Promise<void>,
): Promise<number> {
  let done = false;
  const settled = promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  let n = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    await step(() => done);
    if (!done) n++;
  }
  await settled;
  return n;
}

describe("index builds", () => {
  it("builds the same keys as declaring the schema first, for every kind of derived key", async () => {
    const schema =
      "name: string @index(term, exact) .\nage: int @index(int) @count .\nfriend: [uid] @reverse @count .";
    open();
    await db.alter({ schema });
    await load(3000);
    const incremental = ["name", "age", "friend"].map((p) => derivedKeys(p));
    await db.close();
    rmSync(dir, { recursive: true, force: true });

    open();
    await db.alter({ schema: "name: string .\nage: int .\nfriend: [uid] ." });
    await load(3000);
    await db.alter({ schema });
    const built = ["name", "age", "friend"].map((p) => derivedKeys(p));
    for (let i = 0; i < 3; i++) {
      expect(built[i].size).toBeGreaterThan(0);
      expect(built[i]).toEqual(incremental[i]);
    }
    let teal = 0;
    for (let i = 0; i < 3000; i++) if (i % 8 === 7 || (i >> 3) % 8 === 7) teal++;
    expect(await q('{ q(func: anyofterms(name, "teal")) { count(uid) } }')).toEqual({ q: [{ count: teal }] });
  }, 60_000);

  it("answers and commits in another namespace while it builds, and refuses writes to the predicate", async () => {
    open();
    const other = await db.createNamespace();
    await db.alter({ namespace: other, schema: "tag: string @index(exact) ." });
    await db.alter({ schema: "name: string .\nnote: string ." });
    await load(60_000);
    const build = db.alter({ schema: "name: string @index(term, exact) ." });
    let refused = 0;
    let accepted = 0;
    let written = 0;
    const steps = await whileRunning(build, async (done) => {
      expect(await q("{ q(func: has(tag)) { count(uid) } }", other)).toEqual({ q: [{ count: written }] });
      await db.mutate({
        namespace: other,
        commitNow: true,
        mutations: [{ setNquads: `_:t <tag> "t${written}" .` }],
      });
      written++;
      // Same namespace, another predicate: fine; the predicate being indexed: refused, nothing written.
      await db.mutate({ commitNow: true, mutations: [{ setNquads: `_:x <note> "n" .` }] });
      try {
        await db.mutate({ commitNow: true, mutations: [{ setNquads: `_:x <name> "late write" .` }] });
        expect(done()).toBe(true);
        accepted++;
      } catch (e) {
        expect((e as Error).message).toMatch(/^errIndexingInProgress\. Please retry: .*predicate name/);
        refused++;
      }
    });
    await build;
    expect(steps).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
    expect(await q('{ q(func: eq(name, "late write")) { count(uid) } }')).toEqual({
      q: [{ count: accepted }],
    });

    // The index is what a full rebuild from the data makes.
    const afterBuild = derivedKeys("name");
    await db.alter({ schema: "name: string ." });
    expect(derivedKeys("name").size).toBe(0);
    await db.alter({ schema: "name: string @index(term, exact) ." });
    expect(derivedKeys("name")).toEqual(afterBuild);
  }, 120_000);

  it("stops at the values limit and leaves the old schema and indexes", async () => {
    open({ alterLimits: { indexValues: 1000 } });
    await db.alter({ schema: "name: string @index(exact) ." });
    await load(2000);
    const before = derivedKeys("name");
    await expect(db.alter({ schema: "name: string @index(term) ." })).rejects.toThrow(
      "Index build of predicate name stopped: more than 1000 values to index",
    );
    expect(derivedKeys("name")).toEqual(before);
    expect(await q("schema(pred: [name]) { tokenizer }")).toEqual({
      schema: [{ predicate: "name", tokenizer: ["exact"] }],
    });
    await expect(q('{ q(func: anyofterms(name, "teal")) { uid } }')).rejects.toThrow("is not indexed");
    // Under the limit, it builds.
    await db.mutate({ commitNow: true, mutations: [{ setNquads: '_:a <tag> "a" .\n_:b <tag> "b" .' }] });
    await db.alter({ schema: "tag: string @index(exact) ." });
    expect(await q('{ q(func: eq(tag, "b")) { tag } }')).toEqual({ q: [{ tag: "b" }] });
  }, 60_000);

  it("stops at the alter's deadline and leaves the old schema", async () => {
    open({ alterLimits: { timeoutMs: 60_000 } });
    await db.alter({ schema: "name: string ." });
    await load(60_000);
    await expect(db.alter({ schema: "name: string @index(term) .", timeoutMs: 20 })).rejects.toThrow(
      "context deadline exceeded",
    );
    expect(derivedKeys("name").size).toBe(0);
    expect(await q("schema(pred: [name]) { index }")).toEqual({ schema: [{ predicate: "name" }] });
    // Writes to it are accepted again.
    await db.mutate({ commitNow: true, mutations: [{ setNquads: '_:x <name> "after" .' }] });
  }, 60_000);
});
