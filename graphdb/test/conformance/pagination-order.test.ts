/**
 * DQL conformance: first/offset/after (incl. negative first), orderasc/orderdesc with several keys,
 * ordering by val(), missing sort values last in both directions (reference §4.3).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

/**
 * uids ascend eve < ann < cid < bea < dan < group. Ann and Cid share age 30; Bea has no age and
 * Dan no joined date.
 */
const PEOPLE = {
  schema: [
    "name: string @index(exact) .",
    "age: int @index(int) .",
    "joined: datetime .",
    "nick: string .",
    "member: [uid] .",
  ].join("\n"),
  data: [
    '_:eve <name> "Eve" .\n_:eve <age> "40" .\n_:eve <joined> "2020-01-01" .\n_:eve <nick> "e" .',
    '_:ann <name> "Ann" .\n_:ann <age> "30" .\n_:ann <joined> "2018-01-01" .\n_:ann <nick> "a" .',
    '_:cid <name> "Cid" .\n_:cid <age> "30" .\n_:cid <joined> "2019-01-01" .\n_:cid <nick> "c" .',
    '_:bea <name> "Bea" .\n_:bea <joined> "2017-01-01" .\n_:bea <nick> "b" .',
    '_:dan <name> "Dan" .\n_:dan <age> "20" .\n_:dan <nick> "d" .',
    "_:group <member> _:eve .\n_:group <member> _:ann .\n_:group <member> _:cid .",
    "_:group <member> _:bea .\n_:group <member> _:dan .",
  ].join("\n"),
};

const n = (...names: string[]) => names.map((name) => ({ name }));

/** `{ q(func: has(name), <args>) { name } }` must list these names. */
function root(name: string, args: string, names: string[]): Case {
  return { ...PEOPLE, name, query: `{ q(func: has(name), ${args}) { name } }`, expected: { q: n(...names) } };
}

/** `{ q(func: uid(group)) { member (<args>) { name } } }` must list these names. */
function edge(name: string, args: string, names: string[]): Case {
  return {
    ...PEOPLE,
    name,
    query: `{ q(func: uid({{group}})) { member (${args}) { name } } }`,
    expected: { q: [{ member: n(...names) }] },
  };
}

const cases: Case[] = [
  // pagination at root (uid order)
  root("first: N takes the first N in uid order", "first: 2", ["Eve", "Ann"]),
  root("offset with first", "offset: 1, first: 2", ["Ann", "Cid"]),
  root("offset alone skips N", "offset: 3", ["Bea", "Dan"]),
  root("negative first takes the last N", "first: -2", ["Bea", "Dan"]),
  root("after: uid continues after that uid", "after: {{ann}}", ["Cid", "Bea", "Dan"]),
  root("after with first", "after: {{ann}}, first: 1", ["Cid"]),
  root("offset past the end gives []", "offset: 10", []),
  {
    ...PEOPLE,
    name: "first applies after the root filter",
    query: "{ q(func: has(name), first: 2) @filter(has(joined)) { name } }",
    expected: { q: n("Eve", "Ann") },
  },
  {
    ...PEOPLE,
    name: "count(uid) at root counts the paginated result",
    query: "{ q(func: has(name), first: 2) { count(uid) } }",
    expected: { q: [{ count: 2 }] },
  },
  // ordering at root
  root("orderasc on an indexed string", "orderasc: name", ["Ann", "Bea", "Cid", "Dan", "Eve"]),
  root("orderdesc on an indexed string", "orderdesc: name", ["Eve", "Dan", "Cid", "Bea", "Ann"]),
  root("orderasc on int: ties keep uid order, missing values last", "orderasc: age", [
    "Dan",
    "Ann",
    "Cid",
    "Eve",
    "Bea",
  ]),
  root("orderdesc on int: missing values still last", "orderdesc: age", ["Eve", "Ann", "Cid", "Dan", "Bea"]),
  root("multi-key: orderdesc age then orderdesc name breaks the tie", "orderdesc: age, orderdesc: name", [
    "Eve",
    "Cid",
    "Ann",
    "Dan",
    "Bea",
  ]),
  root("multi-key: orderasc age then orderdesc name", "orderasc: age, orderdesc: name", [
    "Dan",
    "Cid",
    "Ann",
    "Eve",
    "Bea",
  ]),
  root("orderasc with first", "orderasc: age, first: 2", ["Dan", "Ann"]),
  root("orderasc with offset", "orderasc: name, offset: 3", ["Dan", "Eve"]),
  root("orderasc with offset and first", "orderdesc: name, offset: 1, first: 2", ["Dan", "Cid"]),
  root("ordering works without an index (string)", "orderasc: nick", ["Ann", "Bea", "Cid", "Dan", "Eve"]),
  root("ordering works without an index (datetime), missing values last", "orderdesc: joined", [
    "Eve",
    "Cid",
    "Ann",
    "Bea",
    "Dan",
  ]),
  // pagination and ordering on edges
  edge("first on an edge", "first: 2", ["Eve", "Ann"]),
  edge("negative first on an edge", "first: -1", ["Dan"]),
  edge("offset on an edge", "offset: 4", ["Dan"]),
  edge("after on an edge", "after: {{cid}}", ["Bea", "Dan"]),
  edge("orderasc with first on an edge", "orderasc: name, first: 3", ["Ann", "Bea", "Cid"]),
  edge("orderdesc on an edge, missing values last", "orderdesc: age", ["Eve", "Ann", "Cid", "Dan", "Bea"]),
  // order by val()
  {
    ...PEOPLE,
    name: "orderdesc: val(x) at root",
    query: "{ var(func: has(name)) { a as age } q(func: uid(a), orderdesc: val(a)) { name val(a) } }",
    expected: {
      q: [
        { name: "Eve", "val(a)": 40 },
        { name: "Ann", "val(a)": 30 },
        { name: "Cid", "val(a)": 30 },
        { name: "Dan", "val(a)": 20 },
      ],
    },
  },
  {
    ...PEOPLE,
    // Dgraph's sortAndPaginateUsingVar skips uids without a value (unlike ordering by a predicate).
    name: "orderasc: val(x) drops nodes that have no value for x",
    query: "{ var(func: has(name)) { a as age } q(func: has(name), orderasc: val(a)) { name } }",
    expected: { q: n("Dan", "Ann", "Cid", "Eve") },
  },
  {
    ...PEOPLE,
    name: "orderasc: val(x) with first",
    query: "{ var(func: has(name)) { a as age } q(func: uid(a), orderasc: val(a), first: 2) { name } }",
    expected: { q: n("Dan", "Ann") },
  },
  {
    ...PEOPLE,
    name: "ordering an edge by val(x) (children without a value are dropped)",
    query:
      "{ var(func: has(name)) { a as age } q(func: uid({{group}})) { member (orderdesc: val(a)) { name } } }",
    expected: { q: [{ member: n("Eve", "Ann", "Cid", "Dan") }] },
  },
  // errors
  {
    ...PEOPLE,
    name: "sorting by a uid predicate is an error",
    query: "{ q(func: has(member), orderasc: member) { uid } }",
    error: "Cannot sort attribute member of type object.",
  },
  {
    ...PEOPLE,
    name: "multiple sort keys are only allowed for predicates",
    query:
      "{ var(func: has(name)) { a as age } q(func: uid(a), orderasc: name, orderdesc: val(a)) { name } }",
    error: "Multiple sorting only allowed by predicates. Got: a",
  },
];

describe("conformance: pagination and ordering", () => {
  table(cases);
});
