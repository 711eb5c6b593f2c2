/**
 * DQL conformance: @cascade, @normalize, debug mode and the output shape rules of reference §4.2.
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

/** uids ascend alice < bob < carol < dave. Carol has no age; Dave has only a nick. */
const GRAPH = {
  schema: [
    "name: string @index(exact) .",
    "age: int .",
    "nick: string .",
    "score: float .",
    "tags: [string] .",
    "friend: [uid] .",
    "best: uid .",
  ].join("\n"),
  data: [
    '_:alice <name> "Alice" .',
    '_:alice <age> "30" .',
    '_:alice <score> "4.5" .',
    '_:alice <tags> "x" .',
    "_:alice <friend> _:bob .",
    "_:alice <friend> _:carol .",
    "_:alice <friend> _:dave .",
    "_:alice <best> _:bob .",
    '_:bob <name> "Bob" .',
    '_:bob <age> "25" .',
    "_:bob <friend> _:carol .",
    '_:carol <name> "Carol" .',
    '_:dave <nick> "D" .',
  ].join("\n"),
};
const ALL = "uid({{alice}}, {{bob}}, {{carol}}, {{dave}})";

const cases: Case[] = [
  // ---------------------------------------------------------------------------------------------
  // @cascade
  {
    ...GRAPH,
    name: "@cascade drops nodes missing any selected predicate",
    query: `{ q(func: ${ALL}) @cascade { name age } }`,
    expected: {
      q: [
        { name: "Alice", age: 30 },
        { name: "Bob", age: 25 },
      ],
    },
  },
  {
    ...GRAPH,
    name: "@cascade applies recursively: a node whose edge list empties is dropped",
    query: `{ q(func: ${ALL}) @cascade { name friend { age } } }`,
    expected: { q: [{ name: "Alice", friend: [{ age: 25 }] }] },
  },
  {
    ...GRAPH,
    name: "@cascade(pred) only requires the listed predicates",
    query: `{ q(func: ${ALL}) @cascade(name) { name age } }`,
    expected: { q: [{ name: "Alice", age: 30 }, { name: "Bob", age: 25 }, { name: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "@cascade(pred1, pred2) requires each listed predicate",
    query: `{ q(func: ${ALL}) @cascade(name, friend) { name age friend { name } } }`,
    expected: {
      q: [
        { name: "Alice", age: 30, friend: [{ name: "Bob" }, { name: "Carol" }] },
        { name: "Bob", age: 25, friend: [{ name: "Carol" }] },
      ],
    },
  },
  {
    ...GRAPH,
    name: "@cascade on an edge filters only that level",
    query: "{ q(func: uid({{alice}})) { name friend @cascade { name age } } }",
    expected: { q: [{ name: "Alice", friend: [{ name: "Bob", age: 25 }] }] },
  },
  {
    ...GRAPH,
    name: "@cascade with uid in the selection",
    query: `{ q(func: ${ALL}) @cascade { uid nick } }`,
    expected: { q: [{ uid: "{{dave}}", nick: "D" }] },
  },
  {
    ...GRAPH,
    name: "@cascade removing every node gives []",
    query: `{ q(func: ${ALL}) @cascade { name nick } }`,
    expected: { q: [] },
  },
  // ---------------------------------------------------------------------------------------------
  // @normalize
  {
    ...GRAPH,
    name: "@normalize flattens aliased fields into one object per leaf path",
    query: "{ q(func: uid({{alice}})) @normalize { n: name friend { fn: name } } }",
    expected: {
      q: [
        { n: "Alice", fn: "Bob" },
        { n: "Alice", fn: "Carol" },
      ],
    },
  },
  {
    ...GRAPH,
    name: "@normalize returns only aliased fields",
    query: "{ q(func: uid({{alice}})) @normalize { name age friend { fn: name } } }",
    expected: { q: [{ fn: "Bob" }, { fn: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "@normalize over several root nodes",
    query: "{ q(func: uid({{alice}}, {{bob}})) @normalize { n: name friend { fn: name } } }",
    expected: {
      q: [
        { n: "Alice", fn: "Bob" },
        { n: "Alice", fn: "Carol" },
        { n: "Bob", fn: "Carol" },
      ],
    },
  },
  {
    ...GRAPH,
    name: "@normalize through a non-list uid edge",
    query: "{ q(func: uid({{alice}})) @normalize { n: name best { bn: name ba: age } } }",
    expected: { q: [{ n: "Alice", bn: "Bob", ba: 25 }] },
  },
  {
    ...GRAPH,
    name: "@normalize with two levels of edges",
    query: "{ q(func: uid({{alice}})) @normalize { n: name best { b: name friend { f: name } } } }",
    expected: { q: [{ n: "Alice", b: "Bob", f: "Carol" }] },
  },
  // ---------------------------------------------------------------------------------------------
  // debug
  {
    ...GRAPH,
    name: "debug=true adds uid to every node that has output",
    debug: true,
    query: "{ q(func: uid({{alice}})) { name friend { name } best { name } } }",
    expected: {
      q: [
        {
          uid: "{{alice}}",
          name: "Alice",
          friend: [
            { uid: "{{bob}}", name: "Bob" },
            { uid: "{{carol}}", name: "Carol" },
          ],
          best: { uid: "{{bob}}", name: "Bob" },
        },
      ],
    },
  },
  {
    ...GRAPH,
    name: "without debug no uid is added",
    query: "{ q(func: uid({{alice}})) { name friend { name } } }",
    expected: { q: [{ name: "Alice", friend: [{ name: "Bob" }, { name: "Carol" }] }] },
  },
  {
    ...GRAPH,
    name: "debug=true does not resurrect nodes without output",
    debug: true,
    query: "{ q(func: uid({{alice}}, {{dave}})) { name } }",
    expected: { q: [{ uid: "{{alice}}", name: "Alice" }] },
  },
  // ---------------------------------------------------------------------------------------------
  // output shape (§4.2)
  {
    ...GRAPH,
    name: "an empty block is []",
    query: '{ q(func: eq(name, "Nobody")) { name } }',
    expected: { q: [] },
  },
  {
    ...GRAPH,
    name: "a query with only var blocks returns {}",
    query: "{ a as var(func: has(name)) var(func: uid(a)) { name } }",
    expected: {},
  },
  {
    ...GRAPH,
    name: "var blocks are not output next to normal blocks",
    query: '{ var(func: eq(name, "Alice")) { f as friend } q(func: uid(f)) { name } }',
    expected: { q: [{ name: "Bob" }, { name: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "a non-list uid predicate is a single object, a [uid] predicate an array",
    query: "{ q(func: uid({{alice}})) { best { name } friend { name } } }",
    expected: { q: [{ best: { name: "Bob" }, friend: [{ name: "Bob" }, { name: "Carol" }] }] },
  },
  {
    ...GRAPH,
    name: "a [string] predicate is an array even with one value",
    query: "{ q(func: uid({{alice}})) { tags } }",
    expected: { q: [{ tags: ["x"] }] },
  },
  {
    ...GRAPH,
    name: "missing values are absent keys, never null",
    query: "{ q(func: uid({{carol}})) { name age nick friend { name } best { name } } }",
    expected: { q: [{ name: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "nodes whose selection produces nothing are dropped",
    query: `{ q(func: ${ALL}) { name } }`,
    expected: { q: [{ name: "Alice" }, { name: "Bob" }, { name: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "children without output are dropped; the key goes when none remain",
    query:
      "{ a(func: uid({{alice}})) { name friend { nick } } b(func: uid({{bob}})) { name friend { nick } } }",
    expected: { a: [{ name: "Alice", friend: [{ nick: "D" }] }], b: [{ name: "Bob" }] },
  },
  {
    ...GRAPH,
    name: "uid(0x99) { uid } returns the uid even without data",
    query: "{ q(func: uid(0x99)) { uid } }",
    expected: { q: [{ uid: "0x99" }] },
  },
  {
    ...GRAPH,
    name: "results are in uid order",
    query: "{ q(func: uid({{carol}}, {{alice}}, {{bob}})) { name } }",
    expected: { q: [{ name: "Alice" }, { name: "Bob" }, { name: "Carol" }] },
  },
  {
    ...GRAPH,
    name: "several named blocks each get their key",
    query: '{ first(func: eq(name, "Alice")) { age } second(func: eq(name, "Bob")) { age } }',
    expected: { first: [{ age: 30 }], second: [{ age: 25 }] },
  },
  {
    ...GRAPH,
    name: "the same node reached from two parents appears under each",
    query: "{ q(func: uid({{alice}}, {{bob}})) { name friend @filter(uid({{carol}})) { name } } }",
    expected: {
      q: [
        { name: "Alice", friend: [{ name: "Carol" }] },
        { name: "Bob", friend: [{ name: "Carol" }] },
      ],
    },
  },
  {
    ...GRAPH,
    name: "commas between fields are allowed",
    query: "{ q(func: uid({{bob}})) { uid, name, age } }",
    expected: { q: [{ uid: "{{bob}}", name: "Bob", age: 25 }] },
  },
  {
    ...GRAPH,
    name: "an unknown predicate is simply absent",
    query: "{ q(func: uid({{bob}})) { name nosuch } }",
    expected: { q: [{ name: "Bob" }] },
  },
  {
    ...GRAPH,
    name: "duplicate block names are an error",
    query: "{ q(func: uid({{bob}})) { name } q(func: uid({{alice}})) { name } }",
    error: "Duplicate aliases not allowed",
  },
  {
    ...GRAPH,
    name: "exact text: uid is lower-case hex, int is an integer, float uses Go %f",
    query: "{ q(func: uid({{alice}})) { uid age score } }",
    raw: '{"q":[{"uid":"{{alice}}","age":30,"score":4.500000}]}',
  },
  {
    name: "exact text: strings use Go's HTML-safe JSON escaping",
    schema: "name: string .",
    data: String.raw`_:a <name> "<a&b> \"q\"" .`,
    query: "{ q(func: uid({{a}})) { name } }",
    raw: String.raw`{"q":[{"name":"\u003ca\u0026b\u003e \"q\""}]}`,
  },
  {
    ...GRAPH,
    name: "exact text: an empty block is []",
    query: '{ q(func: eq(name, "Nobody")) { name } }',
    raw: '{"q":[]}',
  },
  {
    ...GRAPH,
    name: "exact text: only var blocks give {}",
    query: "{ a as var(func: has(name)) var(func: uid(a)) { name } }",
    raw: "{}",
  },
];

describe("conformance: directives and output shape", () => {
  table(cases);
});
