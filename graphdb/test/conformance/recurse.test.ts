/**
 * DQL conformance: `@recurse(depth, loop)`. The first cases are Dgraph's own (query/query1_test.go,
 * TestRecurse*), on the same graph: Michonne (0x1) and her friends Rick (0x17), Glenn (0x18),
 * Daryl (0x19), Andrea (0x1f) and 0x65 (no data); Rick's friend is Michonne, Andrea's is Glenn.
 *
 * Semantics (Dgraph's query/recurse.go): without `loop`, an edge (predicate, from, to) is followed once
 * in the whole query — a node's edges are all taken the first time it is expanded, so a node reached
 * again is written as a leaf, and a cycle ends. A node reached from several parents at one level is
 * written under each of them (Dgraph's encoder walks every row).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

const FRIENDS = {
  schema: ["name: string @index(exact) .", "dob: datetime .", "friend: [uid] ."].join("\n"),
  data: [
    '_:michonne <name> "Michonne" .',
    '_:michonne <dob> "1910-01-01" .',
    "_:michonne <friend> _:rick .",
    "_:michonne <friend> _:glenn .",
    "_:michonne <friend> _:daryl .",
    "_:michonne <friend> _:andrea .",
    "_:michonne <friend> _:n101 .",
    '_:rick <name> "Rick Grimes" .',
    '_:rick <dob> "1910-01-02" .',
    "_:rick <friend> _:michonne .",
    '_:glenn <name> "Glenn Rhee" .',
    '_:glenn <dob> "1909-05-05" .',
    '_:daryl <name> "Daryl Dixon" .',
    '_:daryl <dob> "1909-01-10" .',
    '_:andrea <name> "Andrea" .',
    '_:andrea <dob> "1901-01-15" .',
    "_:andrea <friend> _:glenn .",
  ].join("\n"),
};

const person = (name: string, dob: string) => ({ name, dob: `${dob}T00:00:00Z` });
const MICHONNE = person("Michonne", "1910-01-01");
const RICK = person("Rick Grimes", "1910-01-02");
const GLENN = person("Glenn Rhee", "1909-05-05");
const DARYL = person("Daryl Dixon", "1909-01-10");
const ANDREA = person("Andrea", "1901-01-15");

/**
 * A ring of three two-node layers: every node links to both nodes of the next layer (a0 → a1, b1; a1 →
 * a2, b2; a2 → a0, b0...). Uids ascend a0 < b0 < a1 < b1 < a2 < b2.
 */
const DIAMONDS = {
  schema: ["name: string .", "next: [uid] ."].join("\n"),
  data: [
    ...["a0", "b0", "a1", "b1", "a2", "b2"].map((n) => `_:${n} <name> "${n}" .`),
    ...[0, 1, 2].flatMap((i) =>
      ["a", "b"].flatMap((x) => ["a", "b"].map((y) => `_:${x}${i} <next> _:${y}${(i + 1) % 3} .`)),
    ),
  ].join("\n"),
};

/** A cycle of six nodes, n0 → n1 → … → n5 → n0. */
const CYCLE = {
  schema: ["name: string .", "next: uid ."].join("\n"),
  data: [
    ...[0, 1, 2, 3, 4, 5].map((i) => `_:n${i} <name> "n${i}" .`),
    ...[0, 1, 2, 3, 4, 5].map((i) => `_:n${i} <next> _:n${(i + 1) % 6} .`),
  ].join("\n"),
};

const cases: Case[] = [
  {
    ...FRIENDS,
    name: "TestRecurseQuery: each edge followed once; Michonne again under Rick, as a leaf",
    query: "{ me(func: uid({{michonne}})) @recurse { nonexistent_pred friend name } }",
    expected: {
      me: [
        {
          name: "Michonne",
          friend: [
            { name: "Rick Grimes", friend: [{ name: "Michonne" }] },
            { name: "Glenn Rhee" },
            { name: "Daryl Dixon" },
            { name: "Andrea", friend: [{ name: "Glenn Rhee" }] },
          ],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseQueryOrder: order applies at every level",
    query: "{ me(func: uid({{michonne}})) @recurse { friend(orderdesc: dob) dob name } }",
    expected: {
      me: [
        {
          ...MICHONNE,
          friend: [{ ...RICK, friend: [MICHONNE] }, GLENN, DARYL, { ...ANDREA, friend: [GLENN] }],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseQueryAllowLoop: loop defaults to false",
    query: "{ me(func: uid({{michonne}})) @recurse { friend dob name } }",
    expected: {
      me: [
        {
          ...MICHONNE,
          friend: [{ ...RICK, friend: [MICHONNE] }, GLENN, DARYL, { ...ANDREA, friend: [GLENN] }],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseQueryAllowLoop2: loop: true follows edges again until the depth",
    query: "{ me(func: uid({{michonne}})) @recurse(depth: 4, loop: true) { friend dob name } }",
    expected: {
      me: [
        {
          ...MICHONNE,
          friend: [
            { ...RICK, friend: [{ ...MICHONNE, friend: [RICK, GLENN, DARYL, ANDREA] }] },
            GLENN,
            DARYL,
            { ...ANDREA, friend: [GLENN] },
          ],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseQueryLimitDepth1: depth counts the root's level",
    query: "{ me(func: uid({{michonne}})) @recurse(depth: 2) { friend name } }",
    expected: {
      me: [
        {
          name: "Michonne",
          friend: [
            { name: "Rick Grimes" },
            { name: "Glenn Rhee" },
            { name: "Daryl Dixon" },
            { name: "Andrea" },
          ],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseQueryLimitDepth2: uid keeps a node without data",
    query: "{ me(func: uid({{michonne}})) @recurse(depth: 2) { uid non_existent friend name } }",
    expected: {
      me: [
        {
          uid: "{{michonne}}",
          name: "Michonne",
          friend: [
            { uid: "{{rick}}", name: "Rick Grimes" },
            { uid: "{{glenn}}", name: "Glenn Rhee" },
            { uid: "{{daryl}}", name: "Daryl Dixon" },
            { uid: "{{andrea}}", name: "Andrea" },
            { uid: "{{n101}}" },
          ],
        },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseVariable: a variable collects every level",
    query: "{ var(func: uid({{michonne}})) @recurse { a as friend } me(func: uid(a)) { name } }",
    expected: {
      me: [
        { name: "Michonne" },
        { name: "Rick Grimes" },
        { name: "Glenn Rhee" },
        { name: "Daryl Dixon" },
        { name: "Andrea" },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseVariableUid: `a as uid` too",
    query: "{ var(func: uid({{michonne}})) @recurse { friend a as uid } me(func: uid(a)) { name } }",
    expected: {
      me: [
        { name: "Michonne" },
        { name: "Rick Grimes" },
        { name: "Glenn Rhee" },
        { name: "Daryl Dixon" },
        { name: "Andrea" },
      ],
    },
  },
  {
    ...FRIENDS,
    name: "TestRecurseError: loop without a depth",
    query: "{ me(func: uid({{michonne}})) @recurse(loop: true) { nonexistent_pred friend name } }",
    error: "Depth must be > 0 when loop is true for recurse query",
  },
  {
    ...CYCLE,
    name: "a cycle ends after one round, whatever the depth (loop: false)",
    query: "{ q(func: uid({{n0}})) @recurse(depth: 100, loop: false) { name next } }",
    expected: {
      q: [
        {
          name: "n0",
          next: {
            name: "n1",
            next: {
              name: "n2",
              next: { name: "n3", next: { name: "n4", next: { name: "n5", next: { name: "n0" } } } },
            },
          },
        },
      ],
    },
  },
  {
    ...DIAMONDS,
    name: "a node reached from two parents at one level is written under both (path by path)",
    query: "{ q(func: uid({{a0}})) @recurse(depth: 100, loop: false) { name next } }",
    // Level by level: a0 → a1, b1 (new); a1, b1 → a2, b2 (four new edges); a2, b2 → a0, b0 (new);
    // a0's edges are taken, b0 → a1, b1 (new); then a1's and b1's are taken: the walk ends.
    expected: (() => {
      const b0 = { name: "b0", next: [{ name: "a1" }, { name: "b1" }] };
      const layer2 = (name: string) => ({ name, next: [{ name: "a0" }, b0] });
      const layer1 = (name: string) => ({ name, next: [layer2("a2"), layer2("b2")] });
      return { q: [{ name: "a0", next: [layer1("a1"), layer1("b1")] }] };
    })(),
  },
  {
    ...DIAMONDS,
    name: "loop: true follows the same edges again, for `depth` levels of nodes",
    query: "{ q(func: uid({{a0}})) @recurse(depth: 4, loop: true) { name next } }",
    expected: (() => {
      const leaf = (name: string) => ({ name });
      const layer2 = (name: string) => ({ name, next: [leaf("a0"), leaf("b0")] });
      const layer1 = (name: string) => ({ name, next: [layer2("a2"), layer2("b2")] });
      return { q: [{ name: "a0", next: [layer1("a1"), layer1("b1")] }] };
    })(),
  },
];

describe("conformance: @recurse", () => {
  table(cases);
});
