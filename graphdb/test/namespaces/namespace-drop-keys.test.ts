/**
 * Dropping a namespace deletes every key of it — data, index, reverse and count keys, long-list tails,
 * schema and type records — and not one byte of any other namespace, checked on the store itself.
 * Also: bulk loads go into the namespace they name.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { attrOfCatalogKey, attrOfKey, keyString } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";

const SCHEMA = `
tag: string @index(exact) .
name: string @index(term) .
friend: [uid] @reverse @count .
type Thing {
  tag
  name
}`;

/** Every key of the store by the namespace it belongs to (meta keys under -1), with its value. */
function keysByNamespace(store: LmdbStore): Map<number, Map<string, string>> {
  const out = new Map<number, Map<string, string>>();
  const snap = store.snapshot();
  try {
    for (const { key, value } of snap.scan({ start: Uint8Array.of(0), end: Uint8Array.of(0xff) })) {
      let ns: number;
      if (key[0] === 0x00) ns = attrOfKey(key).namespace;
      else if (key[0] === 0x01 || key[0] === 0x02) ns = attrOfCatalogKey(key).namespace;
      else if (key[0] === 0x04) ns = attrOfKey(key.subarray(1)).namespace;
      else ns = -1;
      let m = out.get(ns);
      if (m === undefined) out.set(ns, (m = new Map()));
      m.set(keyString(key), Buffer.from(value).toString("hex"));
    }
  } finally {
    snap.release();
  }
  return out;
}

/** Counts keys of a namespace by their first byte (0 data/index/…, 1 schema, 2 type, 4 tail). */
function kinds(keys: Map<string, string> | undefined): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const ks of keys?.keys() ?? []) counts[ks.charCodeAt(0)] = (counts[ks.charCodeAt(0)] ?? 0) + 1;
  return counts;
}

describe("namespaces: dropping one deletes its keys only", () => {
  let dir: string;
  let store: LmdbStore;
  let db: GraphDB;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "trellis-ns-drop-"));
    store = new LmdbStore({ dir });
    db = new GraphDB({ dir, store, acl: true });
  });

  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same data in a namespace: a hot index token long enough to get a tail, reverse edges, counts. */
  async function fill(namespace: number, label: string): Promise<void> {
    await db.alter({ namespace, schema: SCHEMA });
    const lines: string[] = [];
    for (let i = 0; i < 1100; i++) lines.push(`_:n${i} <tag> "common" .`, `_:n${i} <dgraph.type> "Thing" .`);
    for (let i = 0; i < 20; i++)
      lines.push(`_:n${i} <friend> _:n${i + 1} .`, `_:n${i} <name> "${label} ${i}" .`);
    const loaded = await db.bulkLoad(lines.join("\n"), { namespace });
    expect(loaded.newNodes).toBe(1100);
    // Added to a list of 1,024+ uids: goes to the list's tail key.
    await db.mutate({
      namespace,
      commitNow: true,
      mutations: [{ setNquads: `_:late <tag> "common" .\n_:late <name> "${label} late" .` }],
    });
  }

  it("leaves no key of the dropped namespace and every other key as it was", async () => {
    await fill(0, "galaxy");
    const a = await db.createNamespace({ grootPassword: "apple-pass" });
    const b = await db.createNamespace({ grootPassword: "banana-pass" });
    await fill(a, "alpha");
    await fill(b, "beta");

    const count = `{ q(func: eq(tag, "common")) { count(uid) } }`;
    for (const ns of [0, a, b]) {
      expect(JSON.parse((await db.query({ namespace: ns, query: count })).json)).toEqual({
        q: [{ count: 1101 }],
      });
    }

    const before = keysByNamespace(store);
    const ofA = kinds(before.get(a));
    // Everything a namespace can have is there to be dropped: predicate keys, schema, types, tails.
    expect(ofA[0]).toBeGreaterThan(1100);
    expect(ofA[1]).toBeGreaterThan(5);
    expect(ofA[2]).toBeGreaterThan(0);
    expect(ofA[4]).toBeGreaterThan(0);

    await db.dropNamespace(a);

    const after = keysByNamespace(store);
    expect(after.get(a)).toBeUndefined();
    expect(after.get(b)).toEqual(before.get(b));
    expect(after.get(0)).toEqual(before.get(0));
    expect(db.listNamespaces()).toEqual([0, b]);
    expect(JSON.parse((await db.query({ namespace: b, query: count })).json)).toEqual({
      q: [{ count: 1101 }],
    });
    await expect(db.query({ namespace: a, query: count })).rejects.toThrow(/does not exist/);
  });

  it("keeps the namespace lease across reopening: a dropped id is never handed out again", async () => {
    const a = await db.createNamespace({ grootPassword: "apple-pass" });
    await db.dropNamespace(a);
    await db.close();
    store = new LmdbStore({ dir });
    db = new GraphDB({ dir, store, acl: true });
    expect(db.listNamespaces()).toEqual([0]);
    expect(await db.createNamespace({ grootPassword: "cherry-pass" })).toBe(a + 1);
  });

  it("aborts the dropped namespace's open transactions, so no commit brings a key back", async () => {
    const a = await db.createNamespace({ grootPassword: "apple-pass" });
    const open = await db.mutate({ namespace: a, mutations: [{ setNquads: '_:x <pending> "write" .' }] });
    await db.dropNamespace(a);
    await expect(db.commit({ namespace: a, startTs: open.txn.start_ts })).rejects.toThrow(/does not exist/);
    await expect(db.commit({ startTs: open.txn.start_ts })).rejects.toThrow("Transaction has been aborted");
    expect(keysByNamespace(store).get(a)).toBeUndefined();
  });
});
