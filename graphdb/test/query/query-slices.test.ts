/**
 * Long steps of a query over many values, given back to the event loop in slices: `has()` over every
 * subject (a key scan), and ordering without a usable index (values read and sorted in slices, a bounded
 * top-k when `first` bounds the result); the query's time bound stops a sort that runs too long.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";

const N = 200_000;
let dir: string;
let db: GraphDB;
/** The names in ascending order. */
let sorted: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "trellis-order-slices-"));
  db = new GraphDB({ dir, noSync: true });
  await db.alter({ schema: "name: string ." });
  const names: string[] = [];
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const name = `n${((i * 7919) % N).toString(36)}`;
    names.push(name);
    lines.push(`_:n${i} <name> "${name}" .`);
  }
  await db.bulkLoad(lines.join("\n"));
  sorted = names.sort();
}, 120_000);

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a query, counting the turns of the event loop other work got meanwhile. */
async function withTurns(query: string, timeoutMs?: number): Promise<{ names: string[]; turns: number }> {
  let done = false;
  let turns = 0;
  const running = db.query({ query, timeoutMs });
  const settle = () => {
    done = true;
  };
  running.then(settle, settle);
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  const res = await running;
  const data = JSON.parse(res.json) as { q?: { name: string }[] };
  return { names: (data.q ?? []).map((r) => r.name), turns };
}

describe("ordering in slices", () => {
  it("sorts every value, giving the event loop back as it goes", async () => {
    const { names } = await withTurns("{ q(func: has(name), orderdesc: name) { name } }");
    expect(names).toEqual([...sorted].reverse());
    // Without output to write, the turns other work gets come from reading and sorting the values.
    const { turns } = await withTurns(
      "{ var(func: has(name), orderdesc: name) { n as name } q() { m: max(val(n)) } }",
    );
    expect(turns).toBeGreaterThan(20);
  }, 60_000);

  it("keeps only the page with first:, giving the event loop back, and stops at the time bound", async () => {
    const { names, turns } = await withTurns(
      "{ q(func: has(name), orderasc: name, first: 5, offset: 2) { name } }",
    );
    expect(names).toEqual(sorted.slice(2, 7));
    expect(turns).toBeGreaterThan(5);
    await expect(withTurns("{ q(func: has(name), orderdesc: name) { name } }", 30)).rejects.toThrow(
      "context deadline exceeded",
    );
  }, 60_000);
});

describe("has() in slices", () => {
  it("reads every subject a page at a time, also within a transaction that wrote some", async () => {
    const { turns } = await withTurns("{ q(func: has(name)) { count(uid) } }");
    // In one piece, the scan left 3 turns (the query's other steps); a page at a time (16k keys, 13 pages,
    // giving the loop back once 5 ms have run: 13 ms at the very least), more.
    expect(turns).toBeGreaterThan(3);
    const count = async (startTs?: number) =>
      JSON.parse((await db.query({ query: "{ q(func: has(name)) { count(uid) } }", startTs })).json);
    expect(await count()).toEqual({ q: [{ count: N }] });
    const txn = await db.mutate({ mutations: [{ setNquads: '_:x <name> "new" .' }] });
    expect(await count(txn.txn.start_ts)).toEqual({ q: [{ count: N + 1 }] });
    await db.commit({ startTs: txn.txn.start_ts, abort: true });
  }, 60_000);
});
