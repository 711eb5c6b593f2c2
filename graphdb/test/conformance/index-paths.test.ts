/**
 * DQL conformance of the index-backed paths: ordering walked through a sortable index (exact, int,
 * float, year) with first/offset across ties and missing values, orderdesc, multi-key sorts, @lang
 * predicates (whose exact index does not separate languages), and inequality ranges on a lossy
 * `year` index across bucket boundaries, with range filters on the root's predicate (reference §4.3,
 * §3.2: missing sort values last in both directions, ties in uid order; lossy tokens re-checked).
 *
 * The large tables are generated; their expected values come from a reference sort written here from
 * the documented semantics (UTF-8 byte order for strings, numeric order, instants for datetimes).
 */
import { describe, expect, it } from "vitest";
import { openTestEngine } from "../engine/engine-fixture.ts";
import { type Case, table } from "./harness.ts";

const SCHEMA = [
  "kind: string @index(exact) .",
  "name: string @index(exact) .",
  "age: int @index(int) .",
  "score: float @index(float) .",
  "born: datetime @index(year) .",
  "title: string @index(exact) @lang .",
  "member: [uid] .",
  "hub: string @index(exact) .",
  "in: [uid] @count .",
].join("\n");

/** Filler candidates without any sort value: they follow every hand-checked node in uid order. */
const FILLERS = Array.from({ length: 60 }, (_, i) => `z${String(i).padStart(2, "0")}`);

/**
 * uids ascend a < b < … < j < grp < z00 < … < z59. Names tie (b and h are "Ann"), f and i have no name,
 * d and i no age, g no birth date; births straddle the year buckets 1999/2000 and 2004/2005 to the
 * second. a–i and the 60 fillers are `in` grp: the 69 candidates of `has(in)` (sized by its @count).
 */
const PEOPLE: Pick<Case, "schema" | "data"> = {
  schema: SCHEMA,
  data: [
    '_:a <kind> "p" .\n_:a <name> "Mia" .\n_:a <age> "30" .\n_:a <score> "2.25" .\n_:a <born> "2001-05-01T00:00:00Z" .',
    '_:a <title> "B"@en .\n_:a <title> "Z"@fr .',
    '_:b <kind> "p" .\n_:b <name> "Ann" .\n_:b <age> "25" .\n_:b <score> "-1.5" .\n_:b <born> "2000-01-01T00:00:00Z" .',
    '_:b <title> "A"@en .',
    '_:c <kind> "p" .\n_:c <name> "Zoe" .\n_:c <age> "30" .\n_:c <score> "10" .\n_:c <born> "2001-02-01T00:00:00Z" .',
    '_:c <title> "C" .\n_:c <title> "A"@fr .',
    '_:d <kind> "p" .\n_:d <name> "Ábel" .\n_:d <score> "0" .\n_:d <born> "1999-12-31T23:59:59Z" .',
    '_:e <kind> "p" .\n_:e <name> "ann" .\n_:e <age> "30" .\n_:e <born> "2004-12-31T23:59:59Z" .',
    '_:f <kind> "p" .\n_:f <age> "25" .\n_:f <score> "2.25" .\n_:f <born> "2005-01-01T00:00:00Z" .',
    '_:g <kind> "p" .\n_:g <name> "Bob" .\n_:g <age> "-4" .\n_:g <score> "-20" .',
    '_:h <kind> "p" .\n_:h <name> "Ann" .\n_:h <age> "30" .\n_:h <born> "2001-05-01T00:00:00.5Z" .',
    '_:i <kind> "p" .\n_:i <born> "2002-06-15T12:00:00Z" .',
    '_:j <name> "Cy" .\n_:j <age> "1" .',
    ...["a", "b", "c", "d", "e", "f", "g", "h", "i", ...FILLERS].map((l) => `_:${l} <in> _:grp .`),
  ].join("\n"),
};

const uids = (...labels: string[]) => labels.map((l) => ({ uid: `{{${l}}}` }));

/** `{ q(func: has(in), <args>) { uid } }` (the has() root walks the index) must list these nodes. */
function ordered(name: string, args: string, labels: string[]): Case {
  return {
    ...PEOPLE,
    name,
    query: `{ q(func: has(in), ${args}) { uid } }`,
    expected: { q: uids(...labels) },
  };
}

/** `{ q(func: <root>) @filter(<filter>) { uid } }` must list these nodes (uid order). */
function range(name: string, root: string, filter: string | undefined, labels: string[]): Case {
  const f = filter === undefined ? "" : ` @filter(${filter})`;
  return { ...PEOPLE, name, query: `{ q(func: ${root})${f} { uid } }`, expected: { q: uids(...labels) } };
}

const small: Case[] = [
  // exact index, has() root: Ann(b) Ann(h) Bob(g) Mia(a) Zoe(c) ann(e) Ábel(d), then f, i, z00… (no name)
  ordered("index order: orderasc string with offset inside the run", "orderasc: name, first: 3, offset: 2", [
    "g",
    "a",
    "c",
  ]),
  ordered("index order: a tie split by the page keeps uid order", "orderasc: name, first: 1, offset: 1", [
    "h",
  ]),
  ordered(
    "index order: the page runs into the nodes without a value",
    "orderasc: name, first: 4, offset: 5",
    ["e", "d", "f", "i"],
  ),
  ordered(
    "index order: offset past the values gives the missing ones in uid order",
    "orderasc: name, first: 5, offset: 7",
    ["f", "i", "z00", "z01", "z02"],
  ),
  ordered(
    "index order: orderdesc string, ties still ascend by uid, missing last",
    "orderdesc: name, first: 4, offset: 5",
    ["b", "h", "f", "i"],
  ),
  ordered("index order: offset past everything gives []", "orderasc: name, first: 3, offset: 69", []),
  ordered("index order: the last page is cut short", "orderasc: name, first: 3, offset: 67", ["z58", "z59"]),
  // int index: g(-4) b(25) f(25) a c e h (30) then d, i
  ordered("index order: int ties across the page boundary", "orderasc: age, first: 2, offset: 3", ["a", "c"]),
  ordered("index order: int page ending in the missing values", "orderasc: age, first: 3, offset: 5", [
    "e",
    "h",
    "d",
  ]),
  ordered("index order: orderdesc int, ties ascend by uid", "orderdesc: age, first: 3, offset: 2", [
    "e",
    "h",
    "b",
  ]),
  ordered("index order: orderdesc int, missing values last", "orderdesc: age, first: 3, offset: 6", [
    "g",
    "d",
    "i",
  ]),
  // float index: g(-20) b(-1.5) d(0) a(2.25) f(2.25) c(10), then e h i
  ordered("index order: float with negative values and a tie", "orderasc: score, first: 3, offset: 2", [
    "d",
    "a",
    "f",
  ]),
  ordered("index order: orderdesc float", "orderdesc: score, first: 4", ["c", "a", "f", "d"]),
  // multi-key: age desc, then name asc (missing names last within a tie)
  ordered(
    "index order: multi-key, the second key orders each tie",
    "orderdesc: age, orderasc: name, first: 4, offset: 2",
    ["c", "e", "b", "f"],
  ),
  ordered(
    "index order: multi-key, nodes without the first key sorted by the second",
    "orderdesc: age, orderasc: name, first: 3, offset: 6",
    ["g", "d", "i"],
  ),
  ordered(
    "index order: multi-key with a descending second key",
    "orderasc: age, orderdesc: name, first: 4, offset: 1",
    ["b", "f", "e", "c"],
  ),
  // score: g b d a f c, then e(ann) h(Ann) i(no name) ordered by name, not by uid
  ordered(
    "index order: nodes without the first key are ordered by the second",
    "orderasc: score, orderasc: name, first: 3, offset: 6",
    ["h", "e", "i"],
  ),
  // year index (lossy): d 1999 | b 2000 | c a h 2001 | i 2002 | e 2004 | f 2005 | g none
  ordered(
    "index order: lossy year buckets are ordered by the full value",
    "orderasc: born, first: 3, offset: 2",
    ["c", "a", "h"],
  ),
  ordered("index order: orderdesc on a lossy year index", "orderdesc: born, first: 3, offset: 3", [
    "h",
    "a",
    "c",
  ]),
  ordered("index order: lossy year index, missing values last", "orderasc: born, first: 3, offset: 7", [
    "f",
    "g",
    "z00",
  ]),
  ordered(
    "index order: year then name as second key",
    "orderdesc: born, orderasc: name, first: 2, offset: 4",
    ["a", "c"],
  ),
  // @lang: the exact index holds every language, so ordering by one language must ignore the others
  ordered(
    "ordering by name@en ignores other languages' values (c has A@fr)",
    "orderasc: title@en, first: 3",
    ["b", "a", "c"],
  ),
  ordered("ordering an @lang predicate by its untagged value", "orderasc: title, first: 2", ["c", "a"]),
  ordered("orderdesc by name@fr", "orderdesc: title@fr, first: 3", ["a", "c", "b"]),
  {
    ...PEOPLE,
    name: "index order: root filter and value output",
    query: "{ q(func: has(in), orderasc: name, first: 2, offset: 1) @filter(has(age)) { name age } }",
    expected: {
      q: [
        { name: "Ann", age: 30 },
        { name: "Bob", age: -4 },
      ],
    },
  },
  {
    ...PEOPLE,
    name: "index order: after skips uids before the cursor",
    query: "{ q(func: has(in), orderasc: name, first: 3, after: {{c}}) { uid } }",
    expected: { q: uids("h", "g", "e") },
  },
  {
    ...PEOPLE,
    name: "index order: uid root function",
    query: "{ q(func: uid({{a}}, {{b}}, {{f}}, {{h}}, {{j}}), orderdesc: age, first: 3, offset: 1) { uid } }",
    expected: { q: uids("h", "b", "f") },
  },
  // ranges on the year index: boundary buckets re-checked, inner buckets taken whole
  range("year range: ge and lt folded across bucket boundaries", 'ge(born, "2000")', 'lt(born, "2005")', [
    "a",
    "b",
    "c",
    "e",
    "h",
    "i",
  ]),
  range(
    "year range: gt excludes the first instant of the year",
    'gt(born, "2000")',
    'le(born, "2004-12-31T23:59:59Z")',
    ["a", "c", "e", "h", "i"],
  ),
  range(
    "year range: the filter bound tightens the root's",
    'ge(born, "1999")',
    'gt(born, "2001-05-01") and lt(born, "2004")',
    ["h", "i"],
  ),
  range(
    "year range: ge in the middle of a bucket re-checks its values",
    'ge(born, "2001-05-01T00:00:00.5Z")',
    undefined,
    ["e", "f", "h", "i"],
  ),
  range("year range: between inside one bucket", 'between(born, "2001-03-01", "2001-12-31")', undefined, [
    "a",
    "h",
  ]),
  range("year range: lt a year start leaves that year out", 'lt(born, "2001")', undefined, ["b", "d"]),
  range("year range: le in the middle of a bucket", 'le(born, "2001-02-01")', undefined, ["b", "c", "d"]),
  range(
    "year range: a range filter then another filter",
    'ge(born, "2000")',
    'lt(born, "2005") and has(name)',
    ["a", "b", "c", "e", "h"],
  ),
  range(
    "year range: a filter before the range filter",
    'ge(born, "2000")',
    'has(name) and lt(born, "2002")',
    ["a", "b", "c", "h"],
  ),
  range(
    "year range: or of a range and another function",
    'ge(born, "2000")',
    'lt(born, "2002") or eq(name, "ann")',
    ["a", "b", "c", "e", "h"],
  ),
  range("year range: not of a range", 'ge(born, "2000")', 'not lt(born, "2002")', ["e", "f", "i"]),
  range("year range: disjoint bounds give []", 'ge(born, "2003")', 'lt(born, "2001")', []),
  range("int range: gt and lt folded", 'gt(age, "25")', 'lt(age, "31")', ["a", "c", "e", "h"]),
  range("float range: ge and le folded, both ends inclusive", 'ge(score, "-1.5")', 'le(score, "2.25")', [
    "a",
    "b",
    "d",
    "f",
  ]),
  range("string range: ge and lt on exact", 'ge(name, "Ann")', 'lt(name, "Zoe")', ["a", "b", "g", "h", "j"]),
  {
    ...PEOPLE,
    name: "year range: pagination after the folded filter",
    query: '{ q(func: ge(born, "2000"), first: 2, offset: 1) @filter(lt(born, "2005")) { uid } }',
    expected: { q: uids("b", "c") },
  },
  {
    ...PEOPLE,
    name: "year range: ordered by the same lossy index",
    query: '{ q(func: ge(born, "2000"), orderdesc: born, first: 3) @filter(lt(born, "2005")) { uid born } }',
    expected: {
      q: [
        { uid: "{{e}}", born: "2004-12-31T23:59:59Z" },
        { uid: "{{i}}", born: "2002-06-15T12:00:00Z" },
        { uid: "{{h}}", born: "2001-05-01T00:00:00.5Z" },
      ],
    },
  },
  {
    ...PEOPLE,
    name: "year range: count(uid) of a folded range",
    query: '{ q(func: ge(born, "2000")) @filter(lt(born, "2005")) { count(uid) } }',
    expected: { q: [{ count: 6 }] },
  },
  {
    ...PEOPLE,
    name: "year range: an invalid filter datetime still fails",
    query: '{ q(func: ge(born, "2000")) @filter(lt(born, "20x5")) { uid } }',
    error: 'parsing time "20x5"',
  },
];

// ---- generated graphs: enough candidates for the index walk over materialised candidate sets, and
// non-candidate nodes in the same indexes (sparse hits: the walk may give up and sort in memory).

const WORDS = [
  "Ada",
  "ada",
  "Bea",
  "Éva",
  "Zed",
  "Ann",
  "Ann Lee",
  "Bo",
  "zoë",
  "Ünal",
  "Al",
  "Ann-Marie",
  "Cy",
];
const N = 90;
const NOISE = 240;

interface Node {
  label: string;
  uidIndex: number;
  name?: string;
  age?: number;
  born?: string;
  /** Candidate of `has(in)`. */
  inGroup: boolean;
}

function date(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T00:00:00Z`;
}

/** Candidates n00…n89 (kind "g"); a name, age and birth date each missing for some. */
function nodes(): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < N; i++) {
    const n: Node = { label: `n${String(i).padStart(2, "0")}`, uidIndex: i, inGroup: i % 4 !== 3 };
    if (i % 11 !== 5) n.name = WORDS[(i * 7) % WORDS.length];
    if (i % 9 !== 4) n.age = ((i * 7) % 13) - 3;
    if (i % 13 !== 6) n.born = date(1995 + ((i * 5) % 12), 1 + ((i * 3) % 12), 1 + (i % 28));
    out.push(n);
  }
  return out;
}

const NODES = nodes();

/** Non-candidates w000…: distinct names between the candidates' words, ages after theirs, dates among theirs. */
function noise(): string[] {
  const lines: string[] = [];
  for (let k = 0; k < NOISE; k++) {
    const l = `_:w${String(k).padStart(3, "0")}`;
    lines.push(`${l} <name> "${WORDS[k % WORDS.length]} ${k}" .`);
    lines.push(`${l} <age> "${20 + k}" .`);
    lines.push(`${l} <born> "${date(1990 + (k % 20), 1 + (k % 12), 1 + (k % 27))}" .`);
  }
  return lines;
}

function generatedData(): string {
  const lines: string[] = [];
  for (const n of NODES) {
    lines.push(`_:${n.label} <kind> "g" .`);
    if (n.name !== undefined) lines.push(`_:${n.label} <name> ${JSON.stringify(n.name)} .`);
    if (n.age !== undefined) lines.push(`_:${n.label} <age> "${n.age}" .`);
    if (n.born !== undefined) lines.push(`_:${n.label} <born> "${n.born}" .`);
  }
  lines.push(...noise());
  // Two hubs: all candidates, and every third one (rows overlap); a group for has(in).
  lines.push('_:h1 <hub> "h1" .', '_:h2 <hub> "h2" .');
  for (const n of NODES) lines.push(`_:h1 <member> _:${n.label} .`);
  for (const n of NODES) if (n.uidIndex % 3 === 0) lines.push(`_:h2 <member> _:${n.label} .`);
  for (const n of NODES) if (n.inGroup) lines.push(`_:${n.label} <in> _:grp .`);
  return lines.join("\n");
}

type Key = { by: "name" | "age" | "born"; desc: boolean };

/** Reference order (documented semantics): values by type, missing last in both directions, ties by uid. */
function referenceSort(list: Node[], keys: Key[]): Node[] {
  const cmpValue = (a: string | number, b: string | number): number =>
    typeof a === "number" ? a - (b as number) : Buffer.compare(Buffer.from(a), Buffer.from(b as string));
  return [...list].sort((x, y) => {
    for (const k of keys) {
      const a = x[k.by];
      const b = y[k.by];
      if (a === undefined) {
        if (b === undefined) continue;
        return 1;
      }
      if (b === undefined) return -1;
      // born values share one layout, so text order is instant order.
      const c = cmpValue(a, b);
      if (c !== 0) return k.desc ? -c : c;
    }
    return x.uidIndex - y.uidIndex;
  });
}

function orderArgs(keys: Key[]): string {
  return keys.map((k) => `${k.desc ? "orderdesc" : "orderasc"}: ${k.by}`).join(", ");
}

function page(list: Node[], first: number, offset: number): Node[] {
  return list.slice(offset, offset + first);
}

/** `eq(kind, "g")` (all 90 candidates) or `has(in)` (68, walked with membership tests) at root. */
function generatedRoot(root: "eq" | "has", keys: Key[], first: number, offset: number): Case {
  const candidates = root === "eq" ? NODES : NODES.filter((n) => n.inGroup);
  const expected = page(referenceSort(candidates, keys), first, offset);
  const func = root === "eq" ? 'eq(kind, "g")' : "has(in)";
  return {
    schema: SCHEMA,
    data: generatedData(),
    name: `generated root ${func}: ${orderArgs(keys)}, first: ${first}, offset: ${offset}`,
    query: `{ q(func: ${func}, ${orderArgs(keys)}, first: ${first}, offset: ${offset}) { uid } }`,
    expected: { q: uids(...expected.map((n) => n.label)) },
  };
}

function generatedEdge(keys: Key[], first: number, offset: number): Case {
  const h1 = page(referenceSort(NODES, keys), first, offset);
  const h2 = page(
    referenceSort(
      NODES.filter((n) => n.uidIndex % 3 === 0),
      keys,
    ),
    first,
    offset,
  );
  const row = (list: Node[]) => list.map((n) => ({ uid: `{{${n.label}}}` }));
  const hub = (name: string, list: Node[]) =>
    list.length === 0 ? { hub: name } : { hub: name, member: row(list) };
  return {
    schema: SCHEMA,
    data: generatedData(),
    name: `generated edges (two overlapping rows): ${orderArgs(keys)}, first: ${first}, offset: ${offset}`,
    query: `{ q(func: has(hub), orderasc: hub) { hub member (${orderArgs(keys)}, first: ${first}, offset: ${offset}) { uid } } }`,
    expected: { q: [hub("h1", h1), hub("h2", h2)] },
  };
}

const asc = (by: Key["by"]): Key => ({ by, desc: false });
const desc = (by: Key["by"]): Key => ({ by, desc: true });

const generated: Case[] = [
  generatedRoot("eq", [asc("name")], 5, 0),
  generatedRoot("eq", [asc("name")], 7, 33),
  generatedRoot("eq", [desc("name")], 6, 70),
  generatedRoot("eq", [asc("age")], 10, 80),
  generatedRoot("eq", [desc("age"), asc("name")], 8, 20),
  generatedRoot("eq", [asc("born")], 9, 40),
  generatedRoot("eq", [desc("born"), desc("name")], 12, 75),
  generatedRoot("has", [asc("name")], 3, 0),
  generatedRoot("has", [asc("name")], 4, 25),
  generatedRoot("has", [desc("name")], 5, 50),
  generatedRoot("has", [asc("age")], 6, 1),
  generatedRoot("has", [desc("age")], 6, 40),
  generatedRoot("has", [asc("born")], 5, 2),
  generatedRoot("has", [desc("born"), asc("name")], 7, 30),
  generatedRoot("has", [asc("born")], 5, 60),
  generatedEdge([asc("name")], 4, 10),
  generatedEdge([desc("age")], 5, 26),
  generatedEdge([asc("born"), asc("age")], 6, 24),
  generatedEdge([desc("name"), desc("age")], 3, 0),
];

describe("conformance: index-backed ordering and ranges", () => {
  table([...small, ...generated]);

  // inferred: each function of a root filter reports the uids the root function produced (the filter's
  // input) as its num_uids, also when a range filter is evaluated inside the root's index scan.
  it("metrics of a folded range count the root's own uids", async () => {
    const t = openTestEngine();
    try {
      await t.engine.alter({ schema: PEOPLE.schema! });
      await t.engine.mutate({ mutations: [{ setNquads: PEOPLE.data as string }], commitNow: true });
      // ge in the middle of the 2001 bucket: a h (2001-05-01…), i, e, f pass it; c (2001-02-01) does not.
      const res = await t.engine.query({
        query: '{ q(func: ge(born, "2001-03-01")) @filter(lt(born, "2005") and has(name)) { count(uid) } }',
      });
      expect(JSON.parse(res.json)).toEqual({ q: [{ count: 3 }] });
      expect(res.metrics.born).toBe(5);
      expect(res.metrics.name).toBe(5);
    } finally {
      await t.cleanup();
    }
  });
});
