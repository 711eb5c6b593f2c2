/**
 * A store written before namespaces existed opens as namespace 0 (the galaxy), without a migration: its
 * key layout (`0x00 | u16 len | predicate | kind | rest`, schema `0x01 | predicate`, types `0x02 | name`)
 * is the galaxy's. The fixture below writes that layout byte by byte, not through today's key builders,
 * so a change of the galaxy's layout fails here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { blankPredicate, type PredicateSchema } from "../../src/core/schema-types.ts";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { encodeRecord, encodeUidList } from "../../src/posting/posting-record.ts";
import { keyString } from "../../src/store/keys.ts";
import { LmdbStore } from "../../src/store/lmdb-store.ts";
import { getTokenizer } from "../../src/tokenizer/registry.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);

function u64(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

/** A predicate key as stores wrote them before namespaces. */
function oldKey(pred: string, kind: number, rest: Uint8Array): Uint8Array {
  const name = utf8(pred);
  return Uint8Array.from([0x00, name.length >> 8, name.length & 0xff, ...name, kind, ...rest]);
}

const json = (v: unknown) => utf8(JSON.stringify(v));

/** Writes a small pre-namespace store: people with names (exact index), friends (reverse, count), a type. */
async function writePreNamespaceStore(dir: string): Promise<void> {
  const store = new LmdbStore({ dir });
  const name: PredicateSchema = { ...blankPredicate("name", "string", false), tokenizers: ["exact"] };
  const friend: PredicateSchema = { ...blankPredicate("friend", "uid", true), reverse: true, count: true };
  const type: PredicateSchema = { ...blankPredicate("dgraph.type", "string", true), tokenizers: ["exact"] };
  const exact = getTokenizer("exact") as NonNullable<ReturnType<typeof getTokenizer>>;
  const token = (v: string) => exact.tokens({ type: "string", value: v }, "")[0];
  const text = (v: string) =>
    encodeRecord({ uids: new Float64Array(0), values: [{ value: { type: "string", value: v }, lang: "" }] });
  const uids = (...u: number[]) => encodeUidList(Float64Array.from(u));
  await store.write((w) => {
    w.put(Uint8Array.from([0x03, ...utf8("leases")]), json({ tsLease: 10_000, uidLease: 10_000 }));
    for (const p of [name, friend, type]) w.put(Uint8Array.from([0x01, ...utf8(p.predicate)]), json(p));
    w.put(Uint8Array.from([0x02, ...utf8("Person")]), json({ name: "Person", fields: ["name", "friend"] }));
    w.put(oldKey("name", 0x00, u64(1)), text("Old Alice"));
    w.put(oldKey("name", 0x00, u64(2)), text("Old Bob"));
    w.put(oldKey("name", 0x02, token("Old Alice")), uids(1));
    w.put(oldKey("name", 0x02, token("Old Bob")), uids(2));
    w.put(oldKey("dgraph.type", 0x00, u64(1)), text("Person"));
    w.put(oldKey("dgraph.type", 0x02, token("Person")), uids(1));
    w.put(oldKey("friend", 0x00, u64(1)), encodeRecord({ uids: Float64Array.of(2), values: [] }));
    w.put(oldKey("friend", 0x04, u64(2)), uids(1));
    w.put(oldKey("friend", 0x08, Uint8Array.of(0, 0, 0, 1)), uids(1));
    w.put(oldKey("friend", 0x0c, Uint8Array.of(0, 0, 0, 1)), uids(2));
  }).durable;
  await store.close();
}

function allKeys(store: LmdbStore): string[] {
  const snap = store.snapshot();
  try {
    return [...snap.scanKeys({ start: Uint8Array.of(0), end: Uint8Array.of(0xff) })].map(keyString);
  } finally {
    snap.release();
  }
}

const QUERY = `{
  byName(func: eq(name, "Old Alice")) { name friend { name ~friend { name } } count(friend) }
  typed(func: type(Person)) { expand(_all_) }
  counted(func: eq(count(friend), 1)) { name }
}`;
const EXPECTED = {
  byName: [
    {
      name: "Old Alice",
      friend: [{ name: "Old Bob", "~friend": [{ name: "Old Alice" }] }],
      "count(friend)": 1,
    },
  ],
  typed: [{ name: "Old Alice" }],
  counted: [{ name: "Old Alice" }],
};

describe("stores written before namespaces", () => {
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "trellis-pre-ns-"));
    await writePreNamespaceStore(dir);
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("open as namespace 0 with every key untouched, and stay so across reopening", async () => {
    const raw = new LmdbStore({ dir });
    const before = allKeys(raw);
    await raw.close();

    let store = new LmdbStore({ dir });
    let db = new GraphDB({ dir, store });
    // Opening rewrote nothing: no migration.
    expect(allKeys(store)).toEqual(before);
    expect(db.listNamespaces()).toEqual([0]);
    expect(JSON.parse((await db.query({ query: QUERY })).json)).toEqual(EXPECTED);
    const schema = JSON.parse((await db.query({ query: "schema(pred: [name, friend]) { type }" })).json);
    expect(schema).toEqual({
      schema: [
        { predicate: "friend", type: "uid" },
        { predicate: "name", type: "string" },
      ],
    });

    // A new namespace sees none of it, even asking for the same names and uids.
    const a = await db.createNamespace();
    const inA = JSON.parse(
      (await db.query({ namespace: a, query: `${QUERY.slice(0, -1)} one(func: uid(1)) { name } }` })).json,
    );
    expect(inA).toEqual({ byName: [], typed: [], counted: [], one: [] });
    await db.mutate({
      namespace: a,
      commitNow: true,
      mutations: [{ setNquads: '<0x1> <name> "New in A" .' }],
    });
    await db.close();

    store = new LmdbStore({ dir });
    db = new GraphDB({ dir, store });
    try {
      expect(JSON.parse((await db.query({ query: QUERY })).json)).toEqual(EXPECTED);
      expect(
        JSON.parse((await db.query({ namespace: a, query: "{ q(func: uid(1)) { name } }" })).json),
      ).toEqual({
        q: [{ name: "New in A" }],
      });
      // The old keys are all still there, byte for byte.
      const now = new Set(allKeys(store));
      for (const k of before) expect(now.has(k)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it("take writes in the old layout (the galaxy's) after opening", async () => {
    const store = new LmdbStore({ dir });
    const db = new GraphDB({ dir, store });
    try {
      await db.mutate({ commitNow: true, mutations: [{ setNquads: '<0x3> <name> "New Carol" .' }] });
      expect(new Set(allKeys(store)).has(keyString(oldKey("name", 0x00, u64(3))))).toBe(true);
    } finally {
      await db.close();
    }
  });
});
