import { afterEach, describe, expect, it } from "vitest";
import { openTestEngine, q } from "./engine-fixture.ts";

const schema = `
name: string @index(term, exact, trigram) @lang .
genre: [uid] @reverse @count .
director: uid @reverse @count .
year: int @index(int) .
tag: [string] @index(exact) @count .
`;

/** A small deterministic film graph as N-Quads with blank nodes. */
function dataset(): string {
  const lines: string[] = [];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(seed / 65536) % n; // high bits: an LCG's low bits cycle
  };
  for (let g = 0; g < 5; g++) lines.push(`_:g${g} <name> "Genre ${g}" .`);
  for (let d = 0; d < 8; d++) lines.push(`_:d${d} <name> "Director number ${d}" .`);
  for (let f = 0; f < 60; f++) {
    lines.push(`_:f${f} <name> "Film ${f} the ${["red", "blue", "green"][f % 3]} one" .`);
    lines.push(`_:f${f} <name> "Film ${f} auf Deutsch"@de .`);
    lines.push(`_:f${f} <year> "${1990 + rnd(30)}" .`);
    lines.push(`_:f${f} <director> _:d${rnd(8)} .`);
    for (let k = 0; k < 1 + rnd(3); k++) lines.push(`_:f${f} <genre> _:g${rnd(5)} .`);
    for (let k = 0; k < rnd(3); k++) lines.push(`_:f${f} <tag> "t${rnd(4)}" .`);
  }
  return lines.join("\n");
}

const queries = [
  '{ q(func: anyofterms(name, "red green")) { name year } }',
  '{ q(func: eq(name, "Film 3 the red one")) { name } }',
  "{ q(func: regexp(name, /blu/)) { name } }",
  "{ q(func: ge(year, 2005), orderasc: year) { year director { name } } }",
  "{ q(func: has(genre)) { count(genre) } }",
  "{ q(func: eq(count(genre), 2)) { name } }",
  "{ q(func: has(name)) @filter(has(~genre)) { name count(~genre) ~genre (orderasc: year, first: 3) { year } } }",
  "{ q(func: has(name)) @filter(has(~director)) { name count(~director) } }",
  '{ q(func: eq(tag, "t1")) { count(tag) } }',
  "{ q(func: gt(count(tag), 1)) { name } }",
  '{ q(func: allofterms(name@de, "deutsch")) { name@de } }',
];

let engines: ReturnType<typeof openTestEngine>[] = [];
afterEach(async () => {
  for (const e of engines) await e.cleanup();
  engines = [];
});

describe("bulk loader", () => {
  it("builds exactly the data, index, reverse and count keys that transactions build", async () => {
    const bulk = openTestEngine();
    const txn = openTestEngine();
    engines = [bulk, txn];
    await bulk.engine.alter({ schema });
    await txn.engine.alter({ schema });
    const text = dataset();
    // Chunks cut mid-line; blank labels must keep their node across chunks.
    const chunks = text.match(/[\s\S]{1,777}/g) ?? [];
    const r = await bulk.engine.bulkLoad(chunks, { flushEdges: 100 });
    expect(r.nquads).toBe(text.split("\n").length);
    await txn.engine.mutate({ mutations: [{ setNquads: text }], commitNow: true });
    for (const query of queries) {
      const a = JSON.parse((await bulk.engine.query({ query })).json);
      const b = JSON.parse((await txn.engine.query({ query })).json);
      // uids differ between the two loads (allocation order); compare everything else.
      expect(stripUids(a), query).toEqual(stripUids(b));
      expect(JSON.stringify(a).length, query).toBeGreaterThan(10);
    }
  });

  it("merges into existing data: lists union, single values replace and re-index", async () => {
    const t = openTestEngine();
    engines = [t];
    await t.engine.alter({ schema });
    const m = await t.engine.mutate({
      mutations: [{ setNquads: '_:a <name> "Old title" .\n_:a <tag> "x" .' }],
      commitNow: true,
    });
    const a = m.uids.a;
    await t.engine.bulkLoad(`<${a}> <name> "New title" .\n<${a}> <tag> "y" .`);
    const out = JSON.parse((await t.engine.query({ query: `{ q(func: uid(${a})) { name tag } }` })).json);
    expect(out.q[0].name).toBe("New title");
    expect(out.q[0].tag.sort()).toEqual(["x", "y"]);
    const old = JSON.parse(
      (await t.engine.query({ query: '{ q(func: anyofterms(name, "old")) { uid } }' })).json,
    );
    expect(old).toEqual({ q: [] });
    const count = JSON.parse(
      (await t.engine.query({ query: "{ q(func: eq(count(tag), 2)) { uid } }" })).json,
    );
    expect(count).toEqual({ q: [{ uid: a }] });
  });

  it("rejects bad input with a clear error and keeps earlier flushes", async () => {
    const t = openTestEngine();
    engines = [t];
    await t.engine.alter({ schema });
    await expect(t.engine.bulkLoad('_:a <year> "not a year" .')).rejects.toThrow(/year/);
    await expect(t.engine.bulkLoad("_:a <name> broken")).rejects.toThrow();
  });

  it("a failing flush writes nothing of itself and keeps the flushes before it", async () => {
    const t = openTestEngine();
    engines = [t];
    await t.engine.alter({ schema: `${schema}\ncode: string @index(exact) .` });
    const good = Array.from(
      { length: 30 },
      (_, i) => `_:g${i} <name> "Good ${i}" .\n_:g${i} <code> "c${i}" .`,
    );
    // A flush after each chunk of at least 20 edges: the first is good; the second holds a value too long
    // for its index key.
    const bad = Array.from(
      { length: 10 },
      (_, i) => `_:b${i} <name> "Bad ${i}" .\n_:b${i} <code> "${i === 7 ? "x".repeat(3000) : `b${i}`}" .`,
    );
    await expect(
      t.engine.bulkLoad([`${good.join("\n")}\n`, bad.join("\n")], { flushEdges: 20 }),
    ).rejects.toThrow("value in the mutation is too large for the index");
    const res = await q(
      t.engine,
      '{ g(func: has(code)) { count(uid) } b(func: anyofterms(name, "bad")) { count(uid) } e(func: eq(code, "c17")) { name } }',
    );
    expect(res).toEqual({ g: [{ count: 30 }], b: [{ count: 0 }], e: [{ name: "Good 17" }] });
  });
});

function stripUids(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripUids);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== "uid")
        .map(([k, x]) => [k, stripUids(x)]),
    );
  }
  return v;
}
