/**
 * Root functions and @filter functions (reference §4.1): index lookups at the root, value scans in
 * filters, lossy re-checks, language handling and Dgraph's exact error texts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { data, failure } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});

/** Names returned by a root function. */
function rootNames(fn: string): string[] {
  const r = data(g, `{ q(func: ${fn}) { name } }`) as { q: { name?: string }[] };
  return r.q.map((n) => n.name ?? "?");
}

/** Names of uid(1..6) that pass a filter. */
function filtered(filter: string): string[] {
  const r = data(g, `{ q(func: uid(1, 2, 3, 4, 5, 6)) @filter(${filter}) { name } }`) as {
    q: { name: string }[];
  };
  return r.q.map((n) => n.name);
}

const MALLORY = "Mallory <x> & y";

describe("executor: root functions", () => {
  it("uid() with literal uids in any base and order", () => {
    expect(rootNames("uid(0x2, 1)")).toEqual(["Alice", "Bob"]);
  });

  it("eq through the index, with a list of values", () => {
    expect(rootNames('eq(name, "Alice")')).toEqual(["Alice"]);
    expect(rootNames('eq(name, ["Carol", "Bob"])')).toEqual(["Bob", "Carol"]);
  });

  it("eq converts the argument to the predicate type", () => {
    expect(rootNames('eq(age, "25")')).toEqual(["Bob", MALLORY]);
    expect(rootNames("eq(age, 25)")).toEqual(["Bob", MALLORY]);
  });

  it("eq on a @lang predicate compares the value of the function's language", () => {
    expect(rootNames('eq(name, "David")')).toEqual([]);
    expect(rootNames('eq(name@en, "David")')).toEqual(["Dave"]);
    expect(rootNames('eq(name@fr, "Alicia")')).toEqual(["Alice"]);
  });

  it("eq with a lossy hash index re-checks values", () => {
    expect(rootNames('eq(email, "alice@example.com")')).toEqual(["Alice"]);
    expect(rootNames('eq(email, "nobody@example.com")')).toEqual([]);
  });

  it("inequalities scan the sortable index", () => {
    expect(rootNames("ge(age, 30)")).toEqual(["Alice", "Carol", "Eve"]);
    expect(rootNames("gt(age, 30)")).toEqual(["Carol", "Eve"]);
    expect(rootNames("lt(age, 30)")).toEqual(["Bob", MALLORY]);
    expect(rootNames("le(age, 30)")).toEqual(["Alice", "Bob", MALLORY]);
    expect(rootNames("between(age, 25, 30)")).toEqual(["Alice", "Bob", MALLORY]);
    expect(rootNames("le(score, 2)")).toEqual(["Alice"]);
    expect(rootNames('ge(name, "D")')).toEqual(["Dave", "Eve", MALLORY]);
  });

  it("inequalities on a lossy year index re-check the values", () => {
    expect(rootNames('ge(dob, "2000")')).toEqual(["Carol"]);
    expect(rootNames('ge(dob, "1990-06-01")')).toEqual(["Carol"]);
    expect(rootNames('lt(dob, "1990-06-01")')).toEqual(["Alice", "Bob"]);
    expect(rootNames('between(dob, "1985-01-01", "1990-05-01")')).toEqual(["Alice", "Bob"]);
  });

  it("eq(count(p), n) and friends through the count index, forward and reverse", () => {
    expect(rootNames("eq(count(friend), 2)")).toEqual(["Bob"]);
    expect(rootNames("ge(count(friend), 2)")).toEqual(["Alice", "Bob"]);
    expect(rootNames("lt(count(friend), 3)")).toEqual(["Bob", "Carol"]);
    expect(rootNames("between(count(friend), 1, 2)")).toEqual(["Bob", "Carol"]);
    expect(rootNames("eq(count(~friend), 2)")).toEqual(["Carol", "Dave"]);
  });

  it("eq(val(x), v) over a value variable", () => {
    const r = data(g, "{ var(func: has(age)) { a as age } q(func: eq(val(a), 25)) { name } }");
    expect(r).toEqual({ q: [{ name: "Bob" }, { name: MALLORY }] });
  });

  it("has(p) and has(~p)", () => {
    expect(rootNames("has(friend)")).toEqual(["Alice", "Bob", "Carol"]);
    expect(rootNames("has(~friend)")).toEqual(["Alice", "Bob", "Carol", "Dave"]);
    expect(rootNames("has(name@fr)")).toEqual(["Alice"]);
  });

  it("type(T) selects the nodes with that dgraph.type", () => {
    expect(rootNames("type(Person)")).toEqual(["Alice", "Bob", "Carol"]);
  });

  it("term and fulltext functions use their index", () => {
    expect(rootNames('anyofterms(name, "alice BOB")')).toEqual(["Alice", "Bob"]);
    expect(rootNames('allofterms(name, "y mallory")')).toEqual([MALLORY]);
    expect(rootNames('allofterms(name, "mallory bob")')).toEqual([]);
    expect(rootNames('alloftext(name, "alice")')).toEqual(["Alice"]);
    expect(rootNames('anyoftext(name, "carol dave")')).toEqual(["Carol", "Dave"]);
  });

  it("regexp uses trigrams at the root and honours flags", () => {
    expect(rootNames("regexp(name, /^Car/)")).toEqual(["Carol"]);
    expect(rootNames("regexp(name, /ARO/i)")).toEqual(["Carol"]);
    expect(rootNames("regexp(name, /ARO/)")).toEqual([]);
  });

  it("match finds values within a Levenshtein distance", () => {
    expect(rootNames('match(name, "Alise", 1)')).toEqual(["Alice"]);
    expect(rootNames('match(name, "Alize", 0)')).toEqual([]);
  });

  it("after skips uids up to the cursor", () => {
    expect(rootNames("has(age), after: 0x2")).toEqual(["Carol", "Eve", MALLORY]);
  });
});

describe("executor: root function errors", () => {
  const fails = (fn: string) => failure(g, `{ q(func: ${fn}) { name } }`);

  it("needs an index for eq and inequalities", () => {
    expect(fails('eq(bio, "x")')).toBe(": Predicate bio is not indexed");
    expect(fails('le(bio, "x")')).toBe(": Predicate bio is not indexed");
  });

  it("needs a sortable index for inequalities", () => {
    expect(fails('ge(email, "a")')).toBe(": Attribute:email does not have proper index for comparison");
  });

  it("needs the term, fulltext or trigram index of text functions", () => {
    expect(fails('anyofterms(bio, "x")')).toBe(": Attribute bio is not indexed with type term");
    expect(fails('alloftext(email, "x")')).toBe(": Attribute email is not indexed with type fulltext");
    expect(fails('match(bio, "x", 1)')).toBe(": Attribute bio is not indexed with type trigram");
    expect(fails("regexp(bio, /line/)")).toBe(
      ": Attribute bio does not have trigram index for regex matching. Please add a trigram index or use has/uid function with regexp() as filter.",
    );
  });

  it("refuses a regexp that yields no trigram at the root", () => {
    expect(fails("regexp(name, /^A/)")).toBe(
      ": regular expression is too wide-ranging and can't be executed efficiently",
    );
  });

  it("needs @count for count comparisons at the root and refuses zero counts", () => {
    expect(fails("eq(count(nick), 2)")).toBe(
      ": Need @count directive in schema for attr: nick for fn: eq at root",
    );
    expect(fails("eq(count(friend), 0)")).toBe(
      ": count(predicate) cannot be used to search for negative counts (nonsensical) or zero counts (not tracked).",
    );
  });

  it("needs @reverse for ~pred and @lang for language tags", () => {
    expect(fails("has(~age)")).toBe(": Predicate age doesn't have reverse edge");
    expect(failure(g, "{ q(func: uid(1)) { ~age } }")).toBe(": Predicate age doesn't have reverse edge");
    expect(fails("has(bio@en)")).toBe(
      ": Language tags can only be used with predicates of string type having @lang directive in schema. Got: [bio]",
    );
  });
});

describe("executor: @filter", () => {
  it("scans values for comparisons without needing an index", () => {
    expect(filtered('eq(bio, "line1\\nline2\u2028")')).toEqual([MALLORY]);
    expect(filtered('eq(balance, "110")')).toEqual(["Alice"]);
  });

  it("combines functions with and, or, not", () => {
    expect(filtered('ge(age, 30) and not eq(name, "Eve")')).toEqual(["Alice", "Carol"]);
    expect(filtered('eq(name, "Bob") or lt(age, 26)')).toEqual(["Bob", MALLORY]);
    expect(filtered("not has(age)")).toEqual(["Dave"]);
    expect(filtered('(eq(age, 25) or eq(age, 40)) and not eq(name, "Bob")')).toEqual(["Eve", MALLORY]);
  });

  it("filters edges and intersects with uid()", () => {
    expect(data(g, "{ q(func: uid(1)) { friend @filter(uid(3, 4, 9)) { name } } }")).toEqual({
      q: [{ friend: [{ name: "Carol" }, { name: "Dave" }] }],
    });
    expect(data(g, "{ q(func: uid(1)) { friend @filter(has(age)) { name } } }")).toEqual({
      q: [{ friend: [{ name: "Bob" }, { name: "Carol" }] }],
    });
  });

  it("uid_in tests the node's edges", () => {
    expect(filtered("uid_in(friend, 4)")).toEqual(["Alice", "Carol"]);
    expect(filtered("uid_in(friend, [1, 4])")).toEqual(["Alice", "Bob", "Carol"]);
    expect(failure(g, "{ q(func: uid_in(friend, 4)) { name } }")).toContain(
      "uid_in function not allowed at root",
    );
  });

  it("regexp and match scan values in filters", () => {
    expect(filtered("regexp(bio, /line2/)")).toEqual([MALLORY]);
    expect(filtered("regexp(name, /^A/)")).toEqual(["Alice"]);
    expect(filtered('match(name, "Eva", 1)')).toEqual(["Eve"]);
  });

  it("compares counts, value variables and languages", () => {
    expect(filtered("gt(count(friend), 1)")).toEqual(["Alice", "Bob"]);
    expect(filtered('eq(name@fr, "Alicia")')).toEqual(["Alice"]);
    expect(
      data(g, "{ var(func: has(age)) { a as age } q(func: has(name)) @filter(ge(val(a), 35)) { name } }"),
    ).toEqual({ q: [{ name: "Carol" }, { name: "Eve" }] });
  });

  it("needs the index of term functions and a sortable index for inequalities on indexed predicates", () => {
    expect(failure(g, '{ q(func: has(name)) @filter(anyofterms(bio, "x")) { name } }')).toBe(
      ": Attribute bio is not indexed with type term",
    );
    expect(failure(g, '{ q(func: has(name)) @filter(le(email, "b")) { name } }')).toBe(
      ": Attribute:email does not have proper index for comparison",
    );
  });

  it("uses variables of the enclosing levels of the same block", () => {
    const r = data(g, "{ q(func: uid(1)) { f as friend { friend @filter(uid(f)) { name } } } }");
    expect(r).toEqual({ q: [{ friend: [{ friend: [{ name: "Carol" }] }, { friend: [{ name: "Dave" }] }] }] });
  });
});
