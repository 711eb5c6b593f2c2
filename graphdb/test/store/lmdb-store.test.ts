import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GALAXY_KEYS, KeyKind, readUid, restOffset } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const dataKey = GALAXY_KEYS.dataKey.bind(GALAXY_KEYS);
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);
const kindRange = GALAXY_KEYS.kindRange.bind(GALAXY_KEYS);
const predicateRange = GALAXY_KEYS.predicateRange.bind(GALAXY_KEYS);

const dirs: string[] = [];
function freshStore(): LmdbStore {
  const dir = mkdtempSync(join(tmpdir(), "trellis-kv-"));
  dirs.push(dir);
  return new LmdbStore({ dir });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const bytes = (s: string) => new TextEncoder().encode(s);

describe("LMDB store", () => {
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
