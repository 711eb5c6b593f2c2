/**
 * DQL conformance: root functions and their index requirements (reference §4.1).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

/** Four people; uids ascend alice < bob < carol < dave. */
const PEOPLE = {
  schema: [
    "name: string @index(exact, term, trigram) .",
    "bio: string @index(fulltext) .",
    "age: int @index(int) .",
    "score: float @index(float) .",
    "active: bool @index(bool) .",
    "born: datetime @index(year) .",
    "email: string @index(hash) .",
    "tags: [string] @index(exact) .",
    "nick: string .",
    "friend: [uid] @reverse @count .",
    "type Person {\n  name\n  age\n  friend\n}",
  ].join("\n"),
  data: [
    '_:alice <name> "Alice Smith" .',
    '_:alice <age> "30" .',
    '_:alice <score> "4.5" .',
    '_:alice <active> "true" .',
    '_:alice <born> "1990-05-17T00:00:00Z" .',
    '_:alice <bio> "She is running marathons in the mountains" .',
    '_:alice <email> "alice@example.com" .',
    '_:alice <tags> "admin" .',
    '_:alice <tags> "dev" .',
    '_:alice <dgraph.type> "Person" .',
    "_:alice <friend> _:bob .",
    "_:alice <friend> _:carol .",
    '_:bob <name> "Bob Jones" .',
    '_:bob <age> "25" .',
    '_:bob <score> "3.0" .',
    '_:bob <active> "false" .',
    '_:bob <born> "1995-01-01T00:00:00Z" .',
    '_:bob <bio> "He runs a small bakery" .',
    '_:bob <tags> "dev" .',
    '_:bob <dgraph.type> "Person" .',
    "_:bob <friend> _:carol .",
    '_:carol <name> "Carol Smith" .',
    '_:carol <age> "35" .',
    '_:carol <born> "1985-12-31T23:00:00Z" .',
    '_:carol <bio> "The quick brown fox" .',
    '_:dave <name> "Dave" .',
    '_:dave <nick> "D" .',
  ].join("\n"),
};

const ALICE = { name: "Alice Smith" };
const BOB = { name: "Bob Jones" };
const CAROL = { name: "Carol Smith" };
const DAVE = { name: "Dave" };

/** A PEOPLE case: `{ q(func: <fn>) { name } }` must return these people. */
function names(name: string, fn: string, people: object[]): Case {
  return { ...PEOPLE, name, query: `{ q(func: ${fn}) { name } }`, expected: { q: people } };
}

/** A PEOPLE case whose root function must fail with exactly `message`. */
function fails(name: string, fn: string, message: string): Case {
  return { ...PEOPLE, name, query: `{ q(func: ${fn}) { name } }`, errorExact: message };
}

const cases: Case[] = [
  // uid
  names("uid(a, b): results in uid order whatever the argument order", "uid({{carol}}, {{alice}})", [
    ALICE,
    CAROL,
  ]),
  names("uid() accepts decimal ids", "uid({{bob:dec}})", [BOB]),
  {
    ...PEOPLE,
    name: "uid() with a uid that has no data returns nothing for value fields",
    query: "{ q(func: uid(0x99999)) { name } }",
    expected: { q: [] },
  },
  // eq
  names("eq on an exact-indexed string", 'eq(name, "Bob Jones")', [BOB]),
  names("eq is case-sensitive on exact", 'eq(name, "bob jones")', []),
  names("eq with a list of values matches any of them", 'eq(name, ["Carol Smith", "Alice Smith"])', [
    ALICE,
    CAROL,
  ]),
  names("eq on an int index", "eq(age, 30)", [ALICE]),
  names("eq converts a string argument to the predicate's int type", 'eq(age, "30")', [ALICE]),
  names("eq with a list of ints", "eq(age, [25, 35])", [BOB, CAROL]),
  names("eq on a bool index", "eq(active, true)", [ALICE]),
  names("eq on a bool index (false)", "eq(active, false)", [BOB]),
  names("eq on a hash index", 'eq(email, "alice@example.com")', [ALICE]),
  names("eq on a [string] list matches any element", 'eq(tags, "dev")', [ALICE, BOB]),
  names(
    "eq on a fulltext-only predicate uses the lossy index and re-checks the value",
    'eq(bio, "He runs a small bakery")',
    [BOB],
  ),
  names("eq on a float index", "eq(score, 4.5)", [ALICE]),
  names("eq(count(pred), n) at root uses the @count index", "eq(count(friend), 2)", [ALICE]),
  names("gt(count(pred), n) at root", "gt(count(friend), 0)", [ALICE, BOB]),
  // has / type
  names("has(pred) finds nodes with a value", "has(nick)", [DAVE]),
  names("has(edge) finds nodes with at least one edge", "has(friend)", [ALICE, BOB]),
  names("has(~edge) finds targets of reverse edges", "has(~friend)", [BOB, CAROL]),
  names("type(T) finds nodes whose dgraph.type is T", "type(Person)", [ALICE, BOB]),
  names("type(T) with an unknown type finds nothing", "type(Robot)", []),
  // term
  names("allofterms matches all terms, case-insensitively", 'allofterms(name, "smith ALICE")', [ALICE]),
  names("anyofterms matches any term", 'anyofterms(name, "jones smith")', [ALICE, BOB, CAROL]),
  names("allofterms with a missing term matches nothing", 'allofterms(name, "smith jones")', []),
  // fulltext
  names(
    "alloftext stems English words (running/mountains → run/mountain)",
    'alloftext(bio, "run mountain")',
    [ALICE],
  ),
  names("anyoftext stems (running, bakeries)", 'anyoftext(bio, "running bakeries")', [ALICE, BOB]),
  names("alloftext drops English stop words from the query", 'alloftext(bio, "the fox")', [CAROL]),
  names("anyoftext is case-insensitive", 'anyoftext(bio, "QUICK")', [CAROL]),
  // regexp / match
  names("regexp with a trigram index", "regexp(name, /^Ali/)", [ALICE]),
  names("regexp with the i flag", "regexp(name, /SMITH$/i)", [ALICE, CAROL]),
  names("regexp matching nothing", "regexp(name, /^Zed/)", []),
  names("regexp with alternatives unions them", "regexp(name, /^Bob|Carol/)", [BOB, CAROL]),
  names("regexp alternatives inside a group", "regexp(name, /^(Alice|Carol) Smith$/)", [ALICE, CAROL]),
  fails(
    "regexp with an alternative that yields no trigram is too wide at root",
    "regexp(name, /^Bob|Da/)",
    ": regular expression is too wide-ranging and can't be executed efficiently",
  ),
  fails(
    "regexp that yields no trigram is too wide at root",
    "regexp(name, /^A/)",
    ": regular expression is too wide-ranging and can't be executed efficiently",
  ),
  names("match finds values within the Levenshtein distance", 'match(name, "Alce Smith", 2)', [ALICE]),
  names("match with distance too small finds nothing", 'match(name, "Alce Smth", 1)', []),
  // inequalities: int
  names("ge on int", "ge(age, 30)", [ALICE, CAROL]),
  names("gt on int", "gt(age, 30)", [CAROL]),
  names("le on int", "le(age, 30)", [ALICE, BOB]),
  names("lt on int", "lt(age, 30)", [BOB]),
  names("between on int is inclusive at both ends", "between(age, 25, 30)", [ALICE, BOB]),
  // float
  names("gt on float", "gt(score, 3.0)", [ALICE]),
  names("ge on float with an int argument", "ge(score, 3)", [ALICE, BOB]),
  names("le on float", "le(score, 3.5)", [BOB]),
  // string with exact
  names("ge on an exact-indexed string compares lexicographically", 'ge(name, "Bob")', [BOB, CAROL, DAVE]),
  names("lt on an exact-indexed string", 'lt(name, "Bob")', [ALICE]),
  names("between on strings", 'between(name, "B", "D")', [BOB, CAROL]),
  // datetime with year index
  names("ge on datetime with a year index", 'ge(born, "1990")', [ALICE, BOB]),
  names("lt on datetime with a year index", 'lt(born, "1990-01-01")', [CAROL]),
  names("year index is lossy: values in the same year are re-checked", 'ge(born, "1990-06-01T00:00:00Z")', [
    BOB,
  ]),
  names("between on datetime", 'between(born, "1985-01-01", "1990-12-31")', [ALICE, CAROL]),
  // errors
  fails("eq at root on an unindexed predicate", 'eq(nick, "D")', ": Predicate nick is not indexed"),
  fails("le at root on an unindexed predicate", 'le(nick, "D")', ": Predicate nick is not indexed"),
  fails(
    "ge at root without a sortable index",
    'ge(bio, "a")',
    ": Attribute:bio does not have proper index for comparison",
  ),
  fails(
    "ge at root with only a hash index",
    'ge(email, "a")',
    ": Attribute:email does not have proper index for comparison",
  ),
  fails(
    "allofterms on a predicate without a term index",
    'allofterms(email, "alice")',
    ": Attribute email is not indexed with type term",
  ),
  fails(
    "anyofterms on an unindexed predicate",
    'anyofterms(nick, "D")',
    ": Attribute nick is not indexed with type term",
  ),
  fails(
    "alloftext on a predicate without a fulltext index",
    'alloftext(name, "alice")',
    ": Attribute name is not indexed with type fulltext",
  ),
  fails(
    "regexp at root without a trigram index",
    "regexp(nick, /^D/)",
    ": Attribute nick does not have trigram index for regex matching. Please add a trigram index or use has/uid function with regexp() as filter.",
  ),
  fails(
    "eq(count(pred)) at root without @count",
    "eq(count(tags), 2)",
    ": Need @count directive in schema for attr: tags for fn: eq at root",
  ),
  {
    ...PEOPLE,
    name: "an unknown function is a parse error",
    query: '{ q(func: foo(name, "x")) { name } }',
    error: "Function name: foo is not valid.",
  },
  {
    ...PEOPLE,
    name: "only one function is allowed at root",
    query: "{ q(func: has(name), func: has(age)) { name } }",
    error: "Only one function allowed at root",
  },
];

describe("conformance: root functions", () => {
  table(cases);
});
