/**
 * DQL conformance: counts, aliases, reverse edges, language tags, expand(), query variables, uid and
 * value variables, aggregations and math (reference §4.2, §4.4, §4.5).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

/** uids ascend alice < bob < carol < dave. */
const SOCIAL = {
  schema: [
    "name: string @index(exact, term) .",
    "age: int @index(int) .",
    "friend: [uid] @reverse @count .",
    "best: uid @reverse .",
    "link: [uid] .",
    "nick: string .",
  ].join("\n"),
  data: [
    '_:alice <name> "Alice" .',
    '_:alice <age> "30" .',
    "_:alice <friend> _:bob .",
    "_:alice <friend> _:carol .",
    "_:alice <best> _:carol .",
    "_:alice <link> _:dave .",
    '_:bob <name> "Bob" .',
    '_:bob <age> "25" .',
    "_:bob <friend> _:carol .",
    "_:bob <best> _:carol .",
    '_:carol <name> "Carol" .',
    '_:carol <age> "35" .',
    '_:dave <name> "Dave" .',
  ].join("\n"),
};

/** uids ascend x < y < z. x: untagged + en + fr; y: es only; z: untagged only. */
const LANG = {
  schema: "name: string @index(exact) @lang .\nnick: string .",
  data: [
    '_:x <name> "Hallo" .',
    '_:x <name> "Hello"@en .',
    '_:x <name> "Bonjour"@fr .',
    '_:y <name> "Hola"@es .',
    '_:z <name> "Ciao" .',
  ].join("\n"),
};
const LANG_Q = (field: string) => `{ q(func: uid({{x}}, {{y}}, {{z}})) { ${field} } }`;

/** Text functions on tagged values. a: en + fr; b: en only; c: fr only; d: untagged + en. */
const LANG_TEXT = {
  schema: "title: string @index(term, fulltext) @lang .",
  data: [
    '_:a <title> "big red dogs"@en .',
    '_:a <title> "gros chien rouge"@fr .',
    '_:b <title> "red cars"@en .',
    '_:c <title> "voiture red"@fr .',
    '_:d <title> "red dog" .',
    '_:d <title> "blue dog"@en .',
  ].join("\n"),
};
const TITLES = (fn: string) => `{ q(func: ${fn}, orderasc: title@en) { title@en } }`;

/** alice is a Person with an extra predicate outside the type; bob is a Person; dave is untyped. */
const TYPED = {
  schema: [
    "name: string .",
    "age: int .",
    "friend: [uid] .",
    "extra: string .",
    "type Person {\n  name\n  age\n  friend\n}",
  ].join("\n"),
  data: [
    '_:alice <name> "Alice" .',
    '_:alice <age> "30" .',
    '_:alice <extra> "not in type" .',
    '_:alice <dgraph.type> "Person" .',
    "_:alice <friend> _:bob .",
    '_:bob <name> "Bob" .',
    '_:bob <age> "25" .',
    '_:bob <dgraph.type> "Person" .',
    '_:dave <name> "Dave" .',
  ].join("\n"),
};

const cases: Case[] = [
  // ---------------------------------------------------------------------------------------------
  // counts
  {
    ...SOCIAL,
    name: "count(pred) is a field on each node, 0 when there are no edges",
    query: "{ q(func: has(name)) { name count(friend) } }",
    expected: {
      q: [
        { name: "Alice", "count(friend)": 2 },
        { name: "Bob", "count(friend)": 1 },
        { name: "Carol", "count(friend)": 0 },
        { name: "Dave", "count(friend)": 0 },
      ],
    },
  },
  {
    ...SOCIAL,
    name: "count(uid) at root is one {count} element",
    query: "{ q(func: has(name)) { count(uid) } }",
    expected: { q: [{ count: 4 }] },
  },
  {
    ...SOCIAL,
    name: "count(uid) at root with other fields is a separate first element",
    query: "{ q(func: uid({{alice}}, {{bob}})) { count(uid) name } }",
    expected: { q: [{ count: 2 }, { name: "Alice" }, { name: "Bob" }] },
  },
  {
    ...SOCIAL,
    name: "count(uid) at root of an empty result is {count: 0}",
    query: '{ q(func: eq(name, "Nobody")) { count(uid) } }',
    expected: { q: [{ count: 0 }] },
  },
  {
    ...SOCIAL,
    name: "count(uid) nested adds a {count} element to the edge's list",
    query: "{ q(func: uid({{alice}})) { friend { count(uid) } } }",
    expected: { q: [{ friend: [{ count: 2 }] }] },
  },
  {
    ...SOCIAL,
    name: "count(uid) nested with fields comes after the children",
    query: "{ q(func: uid({{alice}})) { friend { name count(uid) } } }",
    expected: { q: [{ friend: [{ name: "Bob" }, { name: "Carol" }, { count: 2 }] }] },
  },
  {
    ...SOCIAL,
    name: "an alias on count(uid) renames the count key at root",
    query: "{ q(func: has(name)) { total: count(uid) } }",
    expected: { q: [{ total: 4 }] },
  },
  {
    ...SOCIAL,
    name: "an alias on a nested count(uid)",
    query: "{ q(func: uid({{alice}})) { friend { n: count(uid) } } }",
    expected: { q: [{ friend: [{ n: 2 }] }] },
  },
  {
    ...SOCIAL,
    name: "count(~pred) counts reverse edges",
    query: "{ q(func: uid({{carol}})) { count(~friend) } }",
    expected: { q: [{ "count(~friend)": 2 }] },
  },
  {
    ...SOCIAL,
    name: "an alias on count(pred)",
    query: "{ q(func: uid({{alice}})) { nf: count(friend) } }",
    expected: { q: [{ nf: 2 }] },
  },
  // aliases
  {
    ...SOCIAL,
    name: "aliases rename scalar and edge fields at every level",
    query: "{ q(func: uid({{alice}})) { nm: name pals: friend { n: name } } }",
    expected: { q: [{ nm: "Alice", pals: [{ n: "Bob" }, { n: "Carol" }] }] },
  },
  {
    ...SOCIAL,
    name: "an alias on uid",
    query: "{ q(func: uid({{bob}})) { id: uid name } }",
    expected: { q: [{ id: "{{bob}}", name: "Bob" }] },
  },
  {
    ...SOCIAL,
    name: "the same predicate twice under different aliases",
    query: "{ q(func: uid({{alice}})) { a: name b: name } }",
    expected: { q: [{ a: "Alice", b: "Alice" }] },
  },
  // reverse edges
  {
    ...SOCIAL,
    name: "~pred follows edges backwards",
    query: "{ q(func: uid({{carol}})) { ~friend { name } } }",
    expected: { q: [{ "~friend": [{ name: "Alice" }, { name: "Bob" }] }] },
  },
  {
    ...SOCIAL,
    name: "~<pred> names a reverse edge by IRI, in a selection, count() and has()",
    query: "{ q(func: uid({{carol}})) @filter(has(~<friend>)) { ~<friend> { name } n: count(~<friend>) } }",
    expected: { q: [{ "~friend": [{ name: "Alice" }, { name: "Bob" }], n: 2 }] },
  },
  {
    ...SOCIAL,
    name: "~pred with an alias",
    query: "{ q(func: uid({{carol}})) { followers: ~friend { name } } }",
    expected: { q: [{ followers: [{ name: "Alice" }, { name: "Bob" }] }] },
  },
  {
    ...SOCIAL,
    name: "the reverse of a non-list uid predicate is a list",
    query: "{ q(func: uid({{carol}})) { ~best { name } } }",
    expected: { q: [{ "~best": [{ name: "Alice" }, { name: "Bob" }] }] },
  },
  {
    ...SOCIAL,
    name: "count(~pred) of a non-list uid predicate",
    query: "{ q(func: uid({{carol}})) { count(~best) } }",
    expected: { q: [{ "count(~best)": 2 }] },
  },
  {
    ...SOCIAL,
    name: "~pred without @reverse is an error",
    query: "{ q(func: uid({{dave}})) { ~link { name } } }",
    error: "Predicate link doesn't have reverse edge",
  },
  // ---------------------------------------------------------------------------------------------
  // language tags
  {
    ...LANG_TEXT,
    name: "allofterms(pred@en) matches the English value only, whatever other languages hold",
    query: TITLES('allofterms(title@en, "red dogs")'),
    expected: { q: [{ "title@en": "big red dogs" }] },
  },
  {
    ...LANG_TEXT,
    name: "anyofterms(pred@en) skips a node whose only match is in another language or untagged",
    query: TITLES('anyofterms(title@en, "red")'),
    expected: { q: [{ "title@en": "big red dogs" }, { "title@en": "red cars" }] },
  },
  {
    ...LANG_TEXT,
    name: "alloftext(pred@en) stems with the English value's analysis",
    query: TITLES('alloftext(title@en, "dog")'),
    expected: { q: [{ "title@en": "big red dogs" }, { "title@en": "blue dog" }] },
  },
  {
    ...LANG_TEXT,
    name: "anyofterms(pred@fr) tests the French value of a node indexed in two languages",
    query: '{ q(func: anyofterms(title@fr, "red")) { title@fr } }',
    expected: { q: [{ "title@fr": "voiture red" }] },
  },
  {
    ...LANG,
    name: "name@en returns the English value; nodes without it drop out",
    query: LANG_Q("name@en"),
    expected: { q: [{ "name@en": "Hello" }] },
  },
  {
    ...LANG,
    name: "name without a tag returns only untagged values",
    query: LANG_Q("name"),
    expected: { q: [{ name: "Hallo" }, { name: "Ciao" }] },
  },
  {
    ...LANG,
    name: "name@fr:en takes the first language present, keyed name@fr:en",
    query: LANG_Q("name@fr:en"),
    expected: { q: [{ "name@fr:en": "Bonjour" }] },
  },
  {
    ...LANG,
    name: "name@de:en falls back to the next language",
    query: LANG_Q("name@de:en"),
    expected: { q: [{ "name@de:en": "Hello" }] },
  },
  {
    ...LANG,
    name: "name@es:. falls back to untagged, then to any language",
    query: LANG_Q("name@es:."),
    expected: { q: [{ "name@es:.": "Hallo" }, { "name@es:.": "Hola" }, { "name@es:.": "Ciao" }] },
  },
  {
    ...LANG,
    name: "name@. prefers the untagged value, else any language",
    query: LANG_Q("name@."),
    expected: { q: [{ "name@.": "Hallo" }, { "name@.": "Hola" }, { "name@.": "Ciao" }] },
  },
  {
    ...LANG,
    name: "name@* returns every language as name@lang plus untagged as name",
    query: LANG_Q("name@*"),
    expected: {
      q: [
        { name: "Hallo", "name@en": "Hello", "name@fr": "Bonjour" },
        { "name@es": "Hola" },
        { name: "Ciao" },
      ],
    },
  },
  {
    ...LANG,
    name: "an alias on a language field replaces the name@lang key",
    query: LANG_Q("greeting: name@en"),
    expected: { q: [{ greeting: "Hello" }] },
  },
  {
    ...LANG,
    name: "eq(name@en, ...) at root",
    query: '{ q(func: eq(name@en, "Hello")) { name@fr } }',
    expected: { q: [{ "name@fr": "Bonjour" }] },
  },
  {
    ...LANG,
    name: "a language tag on a predicate without @lang is an error",
    query: "{ q(func: uid({{x}})) { nick@en } }",
    error: "Language tags can only be used with predicates of string type having @lang directive in schema",
  },
  // ---------------------------------------------------------------------------------------------
  // expand
  {
    ...TYPED,
    name: "expand(_all_) returns the predicates of the node's type only",
    query: "{ q(func: uid({{alice}})) { expand(_all_) { name } } }",
    expected: { q: [{ name: "Alice", age: 30, friend: [{ name: "Bob" }] }] },
  },
  {
    ...TYPED,
    name: "expand(Type) expands the named type",
    query: "{ q(func: uid({{alice}})) { expand(Person) { name } } }",
    expected: { q: [{ name: "Alice", age: 30, friend: [{ name: "Bob" }] }] },
  },
  {
    ...TYPED,
    name: "expand(_all_) on an untyped node yields nothing and the node drops out",
    query: "{ q(func: uid({{dave}})) { expand(_all_) } }",
    expected: { q: [] },
  },
  {
    ...TYPED,
    name: "nested expand(_all_) { expand(_all_) }",
    query: "{ q(func: uid({{alice}})) { expand(_all_) { expand(_all_) } } }",
    expected: { q: [{ name: "Alice", age: 30, friend: [{ name: "Bob", age: 25 }] }] },
  },
  {
    ...TYPED,
    name: "expand(_all_) next to an explicit field",
    query: "{ q(func: uid({{alice}})) { extra expand(_all_) { name } } }",
    expected: { q: [{ extra: "not in type", name: "Alice", age: 30, friend: [{ name: "Bob" }] }] },
  },
  {
    name: "expand(_all_) returns every language variant",
    schema: "title: string @lang .\ntype Book {\n  title\n}",
    data: '_:b <title> "Plain" .\n_:b <title> "English"@en .\n_:b <dgraph.type> "Book" .',
    query: "{ q(func: uid({{b}})) { expand(_all_) } }",
    expected: { q: [{ title: "Plain", "title@en": "English" }] },
  },
  {
    name: "expand(_all_) covers all of a node's types",
    schema: "a: string .\nb: string .\ntype A {\n  a\n}\ntype B {\n  b\n}",
    data: '_:n <a> "1" .\n_:n <b> "2" .\n_:n <dgraph.type> "A" .\n_:n <dgraph.type> "B" .',
    query: "{ q(func: uid({{n}})) { expand(_all_) } }",
    expected: { q: [{ a: "1", b: "2" }] },
  },
  // ---------------------------------------------------------------------------------------------
  // query variables
  {
    ...SOCIAL,
    name: "query variable default value",
    query: 'query q($a: string = "Alice") { q(func: eq(name, $a)) { name } }',
    expected: { q: [{ name: "Alice" }] },
  },
  {
    ...SOCIAL,
    name: "supplied query variables override the default",
    query: 'query q($a: string = "Alice") { q(func: eq(name, $a)) { name } }',
    vars: { $a: "Bob" },
    expected: { q: [{ name: "Bob" }] },
  },
  {
    ...SOCIAL,
    name: "a declared variable without default or value matches nothing, without error",
    query: "query me($a: string) { me(func: eq(name, $a)) { name } }",
    expected: { me: [] },
  },
  {
    ...SOCIAL,
    name: "an int variable supplied as a string",
    query: "query q($n: int) { q(func: ge(age, $n)) { name } }",
    vars: { $n: "30" },
    expected: { q: [{ name: "Alice" }, { name: "Carol" }] },
  },
  {
    ...SOCIAL,
    name: "a variable in first:",
    query: "query q($f: int = 1) { q(func: has(name), first: $f) { name } }",
    expected: { q: [{ name: "Alice" }] },
  },
  {
    ...SOCIAL,
    name: "a variable inside uid()",
    query: "query q($id: string) { q(func: uid($id)) { name } }",
    vars: { $id: "{{carol}}" },
    expected: { q: [{ name: "Carol" }] },
  },
  {
    ...SOCIAL,
    name: "a mandatory variable without a value is an error",
    query: "query q($n: int!) { q(func: ge(age, $n)) { name } }",
    error: "Variable $n should be initialised",
  },
  {
    ...SOCIAL,
    name: "a supplied variable that was not declared is an error",
    query: "query q($a: string) { q(func: eq(name, $a)) { name } }",
    vars: { $a: "Bob", $b: "x" },
    error: "Type of variable $b not specified",
  },
  // ---------------------------------------------------------------------------------------------
  // uid variables
  {
    ...SOCIAL,
    name: "a uid variable from an edge in a var block",
    query: '{ var(func: eq(name, "Alice")) { f as friend } q(func: uid(f)) { name } }',
    expected: { q: [{ name: "Bob" }, { name: "Carol" }] },
  },
  {
    ...SOCIAL,
    name: "a block-level uid variable (v as var(...))",
    query: "{ a as var(func: ge(age, 30)) q(func: uid(a)) { name } }",
    expected: { q: [{ name: "Alice" }, { name: "Carol" }] },
  },
  {
    ...SOCIAL,
    name: "a uid variable in a filter",
    query: '{ var(func: eq(name, "Alice")) { f as friend } q(func: has(name)) @filter(not uid(f)) { name } }',
    expected: { q: [{ name: "Alice" }, { name: "Dave" }] },
  },
  {
    ...SOCIAL,
    name: "v as uid in an output block: the block is still output",
    query: '{ a(func: eq(name, "Bob")) { v as uid name } b(func: uid(v)) { age } }',
    expected: { a: [{ uid: "{{bob}}", name: "Bob" }], b: [{ age: 25 }] },
  },
  {
    ...SOCIAL,
    name: "uid(v1, v2) is the union of the variables",
    query:
      '{ var(func: eq(name, "Bob")) { f as friend } g as var(func: eq(name, "Dave")) q(func: uid(f, g)) { name } }',
    expected: { q: [{ name: "Carol" }, { name: "Dave" }] },
  },
  {
    ...SOCIAL,
    name: "a uid variable two levels deep",
    query: "{ var(func: uid({{alice}})) { friend { ff as friend } } q(func: uid(ff)) { name } }",
    expected: { q: [{ name: "Carol" }] },
  },
  {
    ...SOCIAL,
    name: "a defined but unused variable is an error",
    query: "{ var(func: has(name)) { f as friend } q(func: has(name)) { name } }",
    error: "Some variables are defined but not used",
  },
  {
    ...SOCIAL,
    name: "a used but undefined variable is an error",
    query: "{ q(func: uid(nope)) { name } }",
    error: "Some variables are used but not defined",
  },
  // ---------------------------------------------------------------------------------------------
  // value variables, aggregation, math
  {
    ...SOCIAL,
    name: "val(x) outputs a value variable under the key val(x)",
    query: "{ var(func: has(age)) { a as age } q(func: uid(a)) { name val(a) } }",
    expected: {
      q: [
        { name: "Alice", "val(a)": 30 },
        { name: "Bob", "val(a)": 25 },
        { name: "Carol", "val(a)": 35 },
      ],
    },
  },
  {
    ...SOCIAL,
    name: "an alias on val(x)",
    query: "{ var(func: has(age)) { a as age } q(func: uid({{bob}})) { years: val(a) } }",
    expected: { q: [{ years: 25 }] },
  },
  {
    ...SOCIAL,
    name: "a value variable defined at a nested level is keyed by the child uid",
    query: "{ var(func: uid({{alice}})) { friend { fa as age } } q(func: uid(fa)) { name val(fa) } }",
    expected: {
      q: [
        { name: "Bob", "val(fa)": 25 },
        { name: "Carol", "val(fa)": 35 },
      ],
    },
  },
  {
    ...SOCIAL,
    name: "a count value variable used in a filter and for ordering",
    query:
      "{ var(func: has(name)) { n as count(friend) } q(func: uid(n), orderdesc: val(n)) @filter(gt(val(n), 0)) { name val(n) } }",
    expected: {
      q: [
        { name: "Alice", "val(n)": 2 },
        { name: "Bob", "val(n)": 1 },
      ],
    },
  },
  {
    ...SOCIAL,
    name: "eq(val(x), n) in a filter",
    query: "{ var(func: has(age)) { a as age } q(func: uid(a)) @filter(eq(val(a), 25)) { name } }",
    expected: { q: [{ name: "Bob" }] },
  },
  {
    // Dgraph's addAggregations adds one list element per aggregation of an empty block.
    ...SOCIAL,
    name: "min/max/sum/avg in an empty block: one element per aggregation",
    query:
      "{ var(func: has(age)) { a as age } stats() { mn: min(val(a)) mx: max(val(a)) s: sum(val(a)) av: avg(val(a)) } }",
    expected: { stats: [{ mn: 25 }, { mx: 35 }, { s: 90 }, { av: 30 }] },
  },
  {
    ...SOCIAL,
    name: "an aggregation without alias is keyed min(val(x))",
    query: "{ var(func: has(age)) { a as age } stats() { min(val(a)) } }",
    expected: { stats: [{ "min(val(a))": 25 }] },
  },
  {
    ...SOCIAL,
    name: "sum in an empty block (the bank-test shape)",
    query: "{ var(func: uid({{alice}}, {{bob}})) { b as age } total() { bal: sum(val(b)) } }",
    expected: { total: [{ bal: 55 }] },
  },
  {
    // Dgraph's addAggregations (v23+): "the aggregation didn't happen ... returned as NULL" — the one
    // place where a null value is written.
    ...SOCIAL,
    name: "an aggregation over an empty variable in an empty block is null",
    query: '{ var(func: eq(name, "Nobody")) { a as age } total() { s: sum(val(a)) } }',
    expected: { total: [{ s: null }] },
  },
  {
    ...SOCIAL,
    name: "an aggregation inside a node is a field of the parent",
    query: "{ q(func: uid({{alice}})) { friend { fa as age } oldest: max(val(fa)) } }",
    expected: { q: [{ friend: [{ age: 25 }, { age: 35 }], oldest: 35 }] },
  },
  {
    ...SOCIAL,
    name: "sum(val(x)) inside a node without alias is keyed sum(val(x))",
    query: "{ q(func: uid({{alice}})) { friend { fa as age } sum(val(fa)) } }",
    expected: { q: [{ friend: [{ age: 25 }, { age: 35 }], "sum(val(fa))": 60 }] },
  },
  {
    ...SOCIAL,
    name: "an aggregation assigned to a variable is usable in another block",
    query:
      "{ var(func: uid({{alice}})) { friend { fa as age } s as sum(val(fa)) } q(func: uid({{alice}})) { total: val(s) } }",
    expected: { q: [{ total: 60 }] },
  },
  {
    ...SOCIAL,
    name: "math() over a value variable, output with val()",
    query: "{ var(func: has(age)) { a as age d as math(a * 2 + 1) } q(func: uid(d)) { name val(d) } }",
    expected: {
      q: [
        { name: "Alice", "val(d)": 61 },
        { name: "Bob", "val(d)": 51 },
        { name: "Carol", "val(d)": 71 },
      ],
    },
  },
  {
    ...SOCIAL,
    name: "math() with an alias in the same block as its variable",
    query: "{ q(func: uid({{bob}})) { a as age plus: math(a + 10) } }",
    expected: { q: [{ age: 25, plus: 35 }] },
  },
  {
    ...SOCIAL,
    name: "math() combining two value variables",
    query:
      "{ var(func: uid({{alice}})) { a as age n as count(friend) r as math(a * n) } q(func: uid({{alice}})) { val(r) } }",
    expected: { q: [{ "val(r)": 60 }] },
  },
  {
    ...SOCIAL,
    name: "aggregating a predicate instead of a variable is an error",
    query: "{ q(func: uid({{alice}})) { min(age) } }",
    error: "Only variables allowed in aggregate functions. Got: age",
  },
];

describe("conformance: counts, aliases, reverse, languages, expand, variables", () => {
  table(cases);
});
