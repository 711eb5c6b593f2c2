import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LmdbStore } from "../../src/store/lmdb-store.ts";
import { StagedBatch } from "../../src/store/staged-batch.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function freshStore(): { store: LmdbStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "trellis-staged-"));
  dirs.push(dir);
  return { store: new LmdbStore({ dir }), dir };
}
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

describe("staged batches", () => {
  it("get returns a copy that later reads leave intact (peek a view that they may overwrite)", async () => {
    const { store } = freshStore();
    await store.write((w) => {
      w.put(bytes("list"), bytes("long list value"));
      w.put(bytes("tail"), bytes("tail"));
    }).durable;
    const batch = new StagedBatch(store.snapshot());
    const w = batch.writer();
    const list = w.get(bytes("list"));
    w.peek(bytes("tail"));
    w.get(bytes("tail"));
    expect(text(list)).toBe("long list value");
    batch.release();
    await store.close();
  });

  it("reads the snapshot it was prepared against and writes nothing until applied", async () => {
    const { store } = freshStore();
    await store.write((w) => w.put(bytes("a"), bytes("1"))).durable;
    const batch = new StagedBatch(store.snapshot());
    const w = batch.writer();
    expect(text(w.get(bytes("a")))).toBe("1");
    w.put(bytes("a"), bytes("2"));
    w.put(bytes("b"), bytes("3"));
    const reader = store.snapshot();
    expect(text(reader.get(bytes("a")))).toBe("1");
    expect(reader.get(bytes("b"))).toBeUndefined();
    reader.release();
    batch.release();
    await store.applyStaged(batch);
    const after = store.snapshot();
    expect(text(after.get(bytes("a")))).toBe("2");
    expect(text(after.get(bytes("b")))).toBe("3");
    after.release();
    await store.close();
  });

  it("keeps its own copies of values: callers may reuse their buffers", async () => {
    const { store } = freshStore();
    const batch = new StagedBatch(store.snapshot());
    const w = batch.writer();
    const scratch = new Uint8Array(4);
    const big = new Uint8Array(200_000).fill(7);
    for (let i = 0; i < 1000; i++) {
      scratch.fill(i & 0xff);
      w.put(bytes(`k${String(i).padStart(4, "0")}`), scratch);
    }
    w.put(bytes("big"), big);
    big.fill(0);
    w.delete(bytes("k0005"));
    batch.release();
    await store.applyStaged(batch);
    const snap = store.snapshot();
    expect(Array.from(snap.get(bytes("k0999"))!)).toEqual([999 & 0xff, 999 & 0xff, 999 & 0xff, 999 & 0xff]);
    expect(Array.from(snap.get(bytes("k0003"))!)).toEqual([3, 3, 3, 3]);
    expect(snap.get(bytes("k0005"))).toBeUndefined();
    expect(snap.get(bytes("big"))!.every((b) => b === 7)).toBe(true);
    snap.release();
    await store.close();
  });

  it("an abandoned batch leaves no trace; an applied one survives a reopen", async () => {
    const { store, dir } = freshStore();
    const abandoned = new StagedBatch(store.snapshot());
    abandoned.writer().put(bytes("x"), bytes("1"));
    abandoned.release();
    const applied = new StagedBatch(store.snapshot());
    applied.writer().put(bytes("y"), bytes("2"));
    applied.release();
    await store.applyStaged(applied);
    await store.close();
    const reopened = new LmdbStore({ dir });
    const snap = reopened.snapshot();
    expect(snap.get(bytes("x"))).toBeUndefined();
    expect(text(snap.get(bytes("y")))).toBe("2");
    snap.release();
    await reopened.close();
  });
});
