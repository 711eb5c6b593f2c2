import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GALAXY_KEYS, KeyKind, readUid, restOffset } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";
import { LmdbWriterThread } from "../../src/store/lmdb-writer-thread.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const dataKey = GALAXY_KEYS.dataKey.bind(GALAXY_KEYS);
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);
const kindRange = GALAXY_KEYS.kindRange.bind(GALAXY_KEYS);
const predicateRange = GALAXY_KEYS.predicateRange.bind(GALAXY_KEYS);

const dirs: string[] = [];
function freshStore(dir = mkdtempSync(join(tmpdir(), "trellis-kv-"))): LmdbStore {
  dirs.push(dir);
  return new LmdbStore({ dir });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const bytes = (s: string) => new TextEncoder().encode(s);

describe("LMDB store", () => {
  it("writes a large batch on its writer thread: this thread goes on, it lands whole, on disk", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-kv-"));
    const store = freshStore(dir);
    await store.write((w) => w.put(bytes("gone"), bytes("x"))).durable;
    const keys: Uint8Array[] = [];
    const values: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < 200_000; i++) {
      keys.push(bytes(`k${String(i).padStart(7, "0")}`));
      values.push(bytes(`value of ${i}`.repeat(3)));
    }
    keys.push(bytes("gone"));
    values.push(undefined);
    const before = store.snapshot();
    let turns = 0;
    let landedYet = false;
    const { landed, durable } = store.writeStaged({ keys, values });
    void landed.then(() => {
      landedYet = true;
    });
    expect(store.writingInBackground).toBe(true);
    // This thread serves other work while the batch is copied and written.
    while (!landedYet) {
      turns++;
      expect(before.get(bytes("k0000007"))).toBeUndefined();
      await new Promise((resume) => setImmediate(resume));
    }
    await durable;
    expect(turns).toBeGreaterThan(1);
    expect(store.writingInBackground).toBe(false);
    // The snapshot opened before never sees it; one opened right after the write lands sees all of it.
    expect(before.get(bytes("k0000007"))).toBeUndefined();
    expect(before.get(bytes("gone"))).toBeDefined();
    before.release();
    const after = store.snapshot();
    expect(new TextDecoder().decode(after.get(bytes("k0199999")))).toBe("value of 199999".repeat(3));
    expect(after.get(bytes("gone"))).toBeUndefined();
    expect([...after.scanKeys({ start: bytes("k"), end: bytes("l") })].length).toBe(200_000);
    after.release();
    await store.close();
    const reopened = new LmdbStore({ dir });
    const disk = reopened.snapshot();
    expect([...disk.scanKeys({ start: bytes("k"), end: bytes("l") })].length).toBe(200_000);
    disk.release();
    await reopened.close();
  });

  it("starts a new writer thread when the last one went away while idle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trellis-kv-"));
    const store = freshStore(dir);
    const thread = new LmdbWriterThread({ dir, maxReaders: 1024, noSync: false });
    const batch = (tag: string) => ({ keys: [bytes(`k-${tag}`)], values: [bytes(tag)] });
    const never = () => undefined;
    await thread.write(batch("one"), never);
    // The thread dies between batches (a crash, an out-of-memory exit).
    const worker = (thread as unknown as { worker: import("node:worker_threads").Worker }).worker;
    await worker.terminate();
    await thread.write(batch("two"), never);
    const snap = store.snapshot();
    expect(new TextDecoder().decode(snap.get(bytes("k-two")))).toBe("two");
    snap.release();
    await thread.close();
    await store.close();
  });

  it("a large background batch that fails writes nothing and says why", async () => {
    const store = freshStore();
    const keys: Uint8Array[] = [];
    const values: Uint8Array[] = [];
    for (let i = 0; i < 10_000; i++) {
      keys.push(bytes(`k${String(i).padStart(7, "0")}`));
      values.push(bytes("v"));
    }
    // Too long a key for LMDB: the last one fails the write, after 10,000 were put in it.
    keys.push(new Uint8Array(4000).fill(107));
    values.push(bytes("v"));
    await expect(store.writeStaged({ keys, values }).landed).rejects.toThrow(/LMDB background write failed/);
    const snap = store.snapshot();
    expect(snap.get(bytes("k0000001"))).toBeUndefined();
    snap.release();
    // The store goes on writing after it.
    await store.applyStaged({ keys: keys.slice(0, 5000), values: values.slice(0, 5000) });
    const again = store.snapshot();
    expect(again.get(bytes("k0000001"))).toBeDefined();
    again.release();
    await store.close();
  });

  it("a snapshot keeps seeing the state it was opened at while later writes commit", async () => {
    const store = freshStore();
    await store.write((w) => w.put(bytes("a"), bytes("1"))).durable;
    const snap = store.snapshot();
    await store.write((w) => w.put(bytes("a"), bytes("2"))).durable;
    expect(new TextDecoder().decode(snap.get(bytes("a")))).toBe("1");
    const fresh = store.snapshot();
    expect(new TextDecoder().decode(fresh.get(bytes("a")))).toBe("2");
    snap.release();
    fresh.release();
    await store.close();
  });

  it("a write that throws leaves nothing behind", async () => {
    const store = freshStore();
    expect(() =>
      store.write((w) => {
        w.put(bytes("x"), bytes("1"));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    const snap = store.snapshot();
    expect(snap.get(bytes("x"))).toBeUndefined();
    snap.release();
    await store.close();
  });

  it("scans a key range in order, forwards and backwards, and deletes ranges", async () => {
    const store = freshStore();
    store.write((w) => {
      for (const uid of [5, 1, 300, 2 ** 40]) w.put(dataKey("name", uid), bytes("v"));
      w.put(dataKey("other", 3), bytes("v"));
    });
    const snap = store.snapshot();
    const range = kindRange("name", KeyKind.data);
    const at = restOffset(range.start);
    expect([...snap.scan(range)].map((e) => readUid(e.key, at))).toEqual([1, 5, 300, 2 ** 40]);
    expect([...snap.scan({ ...range, reverse: true })].map((e) => readUid(e.key, at))).toEqual([
      2 ** 40,
      300,
      5,
      1,
    ]);
    // Keys only, as the snapshot saw them (a later write does not show), with a limit and backwards.
    store.write((w) => w.put(dataKey("name", 2), bytes("v")));
    expect([...snap.scanKeys(range)].map((k) => readUid(k, at))).toEqual([1, 5, 300, 2 ** 40]);
    expect([...snap.scanKeys({ ...range, limit: 2 })].map((k) => readUid(k, at))).toEqual([1, 5]);
    expect([...snap.scanKeys({ ...range, reverse: true, limit: 1 })].map((k) => readUid(k, at))).toEqual([
      2 ** 40,
    ]);
    snap.release();
    await store.write((w) => w.deleteRange(predicateRange("name").start, predicateRange("name").end)).durable;
    const after = store.snapshot();
    expect([...after.scan(range)]).toHaveLength(0);
    expect(after.get(dataKey("other", 3))).toBeDefined();
    after.release();
    await store.close();
  });

  it("orders index keys of one tokenizer by token bytes", () => {
    const a = indexKey("age", Uint8Array.from([6, 0, 1]));
    const b = indexKey("age", Uint8Array.from([6, 0, 2]));
    expect(Buffer.compare(a, b)).toBeLessThan(0);
    const r = kindRange("age", KeyKind.index, Uint8Array.from([6]));
    expect(Buffer.compare(r.start, a)).toBeLessThan(0);
    expect(Buffer.compare(b, r.end)).toBeLessThan(0);
  });
});
