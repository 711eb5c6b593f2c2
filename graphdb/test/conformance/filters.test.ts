/**
 * DQL conformance: @filter with and/or/not, uid_in, nested filters on edges, and filters that scan
 * values without an index (reference §4.1).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

/** uids ascend alice < bob < carol < dave. Only name (exact, term) and age (int) are indexed. */
const PEOPLE = {
  schema: [
    "name: string @index(exact, term) .",
    "age: int @index(int) .",
    "active: bool .",
    "nick: string .",
    "city: string .",
    "friend: [uid] @reverse .",
    "type Person {\n  name\n  age\n}",
  ].join("\n"),
  data: [
    '_:alice <name> "Alice" .',
    '_:alice <age> "30" .',
    '_:alice <active> "true" .',
    '_:alice <city> "Paris" .',
    '_:alice <dgraph.type> "Person" .',
    "_:alice <friend> _:bob .",
    "_:alice <friend> _:carol .",
    "_:alice <friend> _:dave .",
    '_:bob <name> "Bob" .',
    '_:bob <age> "25" .',
    '_:bob <active> "false" .',
    '_:bob <city> "Berlin" .',
    '_:bob <dgraph.type> "Person" .',
    "_:bob <friend> _:carol .",
    '_:carol <name> "Carol" .',
    '_:carol <age> "35" .',
    '_:carol <city> "Paris" .',
    '_:dave <name> "Dave" .',
    '_:dave <nick> "D" .',
  ].join("\n"),
};

const ALICE = { name: "Alice" };
const BOB = { name: "Bob" };
const CAROL = { name: "Carol" };
const DAVE = { name: "Dave" };

/** `{ q(func: has(name)) @filter(<f>) { name } }` must return these people. */
function filtered(name: string, filter: string, people: object[]): Case {
  return {
    ...PEOPLE,
    name,
    query: `{ q(func: has(name)) @filter(${filter}) { name } }`,
    expected: { q: people },
  };
}

const cases: Case[] = [
  filtered("@filter(eq) on an indexed predicate", "eq(age, 30)", [ALICE]),
  filtered("and", "ge(age, 25) and le(age, 30)", [ALICE, BOB]),
  filtered("or", 'eq(name, "Dave") or eq(age, 35)', [CAROL, DAVE]),
  filtered("not", "not has(age)", [DAVE]),
  filtered("AND / OR / NOT are case-insensitive", "eq(age, 25) OR eq(age, 35) AND NOT has(nick)", [
    BOB,
    CAROL,
  ]),
  filtered("and binds tighter than or", "eq(age, 25) or eq(age, 30) and eq(active, false)", [BOB]),
  filtered("parentheses override precedence", "(eq(age, 25) or eq(age, 30)) and eq(active, true)", [ALICE]),
  filtered("not binds tighter than and", "not eq(age, 30) and has(age)", [BOB, CAROL]),
  filtered("not over a parenthesised or", "not (eq(age, 30) or eq(age, 25))", [CAROL, DAVE]),
  filtered("a filter that matches nothing gives []", "eq(age, 99)", []),
  filtered("uid() in a filter intersects", "uid({{alice}}, {{dave}})", [ALICE, DAVE]),
  filtered("type() in a filter", "type(Person)", [ALICE, BOB]),
  filtered("allofterms in a filter uses the term index", 'allofterms(name, "carol")', [CAROL]),
  filtered("eq with a list in a filter", "eq(age, [25, 35])", [BOB, CAROL]),
  filtered("gt(count(pred)) in a filter needs no @count", "gt(count(friend), 1)", [ALICE]),
  filtered("has(~pred) in a filter", "has(~friend)", [BOB, CAROL, DAVE]),
  // filters without an index scan the values
  filtered("eq in a filter on an unindexed string scans values", 'eq(city, "Paris")', [ALICE, CAROL]),
  filtered("eq in a filter on an unindexed bool scans values", "eq(active, false)", [BOB]),
  filtered("lt in a filter on an unindexed string compares values", 'lt(city, "C")', [BOB]),
  filtered("regexp in a filter needs no trigram index", "regexp(city, /^par/i)", [ALICE, CAROL]),
  filtered("eq in a filter on an unindexed predicate with a list", 'eq(city, ["Berlin", "Rome"])', [BOB]),
  // uid_in
  filtered("uid_in(pred, uid) keeps nodes with an edge to that uid", "uid_in(friend, {{carol}})", [
    ALICE,
    BOB,
  ]),
  filtered("uid_in(pred, [uids]) with a list", "uid_in(friend, [{{bob}}, {{dave}}])", [ALICE]),
  {
    ...PEOPLE,
    name: "uid_in(pred, uid(v)) with a uid variable",
    query: '{ v as var(func: eq(name, "Dave")) q(func: has(name)) @filter(uid_in(friend, uid(v))) { name } }',
    expected: { q: [ALICE] },
  },
  {
    ...PEOPLE,
    name: "uid_in is not allowed at root",
    query: "{ q(func: uid_in(friend, {{carol}})) { name } }",
    error: "uid_in function not allowed at root",
  },
  // nested filters on edges
  {
    ...PEOPLE,
    name: "a filter on an edge keeps only matching children",
    query: "{ q(func: uid({{alice}})) { name friend @filter(ge(age, 30)) { name } } }",
    expected: { q: [{ name: "Alice", friend: [CAROL] }] },
  },
  {
    ...PEOPLE,
    name: "an edge filter on an unindexed predicate scans values",
    query: '{ q(func: uid({{alice}})) { friend @filter(eq(city, "Paris")) { name } } }',
    expected: { q: [{ friend: [CAROL] }] },
  },
  {
    ...PEOPLE,
    name: "an edge filter that removes every child drops the key",
    query: "{ q(func: uid({{alice}})) { name friend @filter(eq(age, 99)) { name } } }",
    expected: { q: [{ name: "Alice" }] },
  },
  {
    ...PEOPLE,
    name: "filters at root and on edges combine with and/or/not",
    query:
      '{ q(func: has(friend)) @filter(not eq(name, "Bob")) { name friend @filter(has(nick) or eq(age, 25)) { name } } }',
    expected: { q: [{ name: "Alice", friend: [BOB, DAVE] }] },
  },
  {
    ...PEOPLE,
    name: "a filter on a reverse edge",
    query: "{ q(func: uid({{carol}})) { ~friend @filter(eq(age, 25)) { name } } }",
    expected: { q: [{ "~friend": [BOB] }] },
  },
  {
    ...PEOPLE,
    name: "uid() in an edge filter",
    query: "{ q(func: uid({{alice}})) { friend @filter(uid({{bob}}, {{dave}})) { name } } }",
    expected: { q: [{ friend: [BOB, DAVE] }] },
  },
  {
    ...PEOPLE,
    name: "a filter with a value variable",
    query: "{ var(func: has(age)) { a as age } q(func: uid(a)) @filter(gt(val(a), 28)) { name } }",
    expected: { q: [ALICE, CAROL] },
  },
  {
    ...PEOPLE,
    name: "term functions still need their index inside a filter",
    query: '{ q(func: has(name)) @filter(anyofterms(city, "paris")) { name } }',
    error: "Attribute city is not indexed with type term",
  },
  {
    ...PEOPLE,
    name: "a second @filter at root is an error",
    query: "{ q(func: has(name)) @filter(has(age)) @filter(has(nick)) { name } }",
    error: "Repeated filter at root",
  },
];

describe("conformance: filters", () => {
  table(cases);
});
