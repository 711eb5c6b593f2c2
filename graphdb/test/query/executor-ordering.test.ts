/**
 * first / offset / after and orderasc / orderdesc (reference §4.3), at the root and on edges.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { engineGraph } from "./engine-graph.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { data, failure } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});
const MALLORY = "Mallory <x> & y";

function names(query: string): string[] {
  const r = data(g, query) as { q: { name?: string }[] };
  return r.q.map((n) => n.name ?? "?");
}

function friendNames(args: string): string[] {
  const r = data(g, `{ q(func: uid(1)) { friend(${args}) { name } } }`) as {
    q: { friend?: { name: string }[] }[];
  };
  return (r.q[0]?.friend ?? []).map((n) => n.name);
}

const ALL = "uid(1, 2, 3, 4, 5, 6)";

describe("executor: ordering", () => {
  it("sorts ascending with missing values last and ties in uid order", () => {
    expect(names(`{ q(func: ${ALL}, orderasc: age) { name } }`)).toEqual([
      "Bob",
      MALLORY,
      "Alice",
      "Carol",
      "Eve",
      "Dave",
    ]);
  });

  it("sorts descending with missing values still last", () => {
    expect(names(`{ q(func: ${ALL}, orderdesc: age) { name } }`)).toEqual([
      "Eve",
      "Carol",
      "Alice",
      "Bob",
      MALLORY,
      "Dave",
    ]);
  });

  it("sorts by several predicates", () => {
    expect(names(`{ q(func: ${ALL}, orderasc: age, orderdesc: name) { name } }`)).toEqual([
      MALLORY,
      "Bob",
      "Alice",
      "Carol",
      "Eve",
      "Dave",
    ]);
  });

  it("sorts datetimes by instant and strings by bytes", async () => {
    expect(names(`{ q(func: ${ALL}, orderasc: dob) { name } }`)).toEqual([
      "Bob",
      "Alice",
      "Carol",
      "Dave",
      "Eve",
      MALLORY,
    ]);
    const { reader: u } = await engineGraph("w: string .", [
      { s: 1, p: "w", value: "é" },
      { s: 2, p: "w", value: "z" },
      { s: 3, p: "w", value: "Z" },
      { s: 4, p: "w", value: "\u{1F600}" },
      { s: 5, p: "w", value: "\uFF21" },
    ]);
    const r = data(u, "{ q(func: uid(1, 2, 3, 4, 5), orderasc: w) { w } }") as { q: { w: string }[] };
    expect(r.q.map((x) => x.w)).toEqual(["Z", "z", "é", "\uFF21", "\u{1F600}"]);
  });

  it("sorts by a language preference", () => {
    expect(names(`{ q(func: uid(1, 2, 4), orderdesc: name@en) { name } }`)).toEqual(["Dave", "Alice", "Bob"]);
    expect(names(`{ q(func: uid(1, 2, 4), orderasc: name@fr) { name } }`)).toEqual(["Alice", "Bob", "Dave"]);
  });

  it("sorts by a value variable, dropping nodes without a value", () => {
    expect(names("{ var(func: has(age)) { a as age } q(func: uid(a), orderdesc: val(a)) { name } }")).toEqual(
      ["Eve", "Carol", "Alice", "Bob", MALLORY],
    );
    expect(
      names("{ var(func: has(age)) { a as age } q(func: uid(1, 4), orderasc: val(a)) { name } }"),
    ).toEqual(["Alice"]);
  });

  it("sorts edges per parent", () => {
    expect(friendNames("orderdesc: name")).toEqual(["Dave", "Carol", "Bob"]);
    expect(friendNames("orderasc: age")).toEqual(["Bob", "Carol", "Dave"]);
  });

  it("refuses to sort by uid and list predicates", () => {
    expect(failure(g, "{ q(func: uid(1), orderasc: friend) { name } }")).toBe(
      ": Cannot sort attribute friend of type object.",
    );
    expect(failure(g, "{ q(func: uid(1), orderasc: nick) { name } }")).toBe(
      ": Sorting not supported on attr: nick of type: [scalar]",
    );
  });
});

describe("executor: pagination", () => {
  it("applies first and offset at the root", () => {
    expect(names("{ q(func: has(age), first: 2) { name } }")).toEqual(["Alice", "Bob"]);
    expect(names("{ q(func: has(age), first: 2, offset: 1) { name } }")).toEqual(["Bob", "Carol"]);
    expect(names("{ q(func: has(age), offset: 4) { name } }")).toEqual([MALLORY]);
    expect(names("{ q(func: has(age), offset: 9) { name } }")).toEqual([]);
  });

  it("takes the last N with a negative first", () => {
    expect(names("{ q(func: has(age), first: -2) { name } }")).toEqual(["Eve", MALLORY]);
    expect(names("{ q(func: has(age), first: -20) { name } }")).toEqual([
      "Alice",
      "Bob",
      "Carol",
      "Eve",
      MALLORY,
    ]);
  });

  it("paginates after sorting", () => {
    expect(names("{ q(func: has(age), orderdesc: age, first: 2, offset: 1) { name } }")).toEqual([
      "Carol",
      "Alice",
    ]);
  });

  it("refuses a negative first with sorting", () => {
    expect(failure(g, "{ q(func: has(age), orderdesc: age, first: -2) { name } }")).toBe(
      ": We do not yet support negative or infinite count with sorting: age -2. " +
        "Try flipping order and return first few elements instead.",
    );
  });

  it("paginates edges per parent, with after", () => {
    expect(friendNames("first: 2")).toEqual(["Bob", "Carol"]);
    expect(friendNames("offset: 1")).toEqual(["Carol", "Dave"]);
    expect(friendNames("first: -1")).toEqual(["Dave"]);
    expect(friendNames("after: 0x2")).toEqual(["Carol", "Dave"]);
    expect(friendNames("orderdesc: name, first: 2")).toEqual(["Dave", "Carol"]);
    const r = data(g, "{ q(func: uid(1, 2)) { name friend(first: 1) { name } } }");
    expect(r).toEqual({
      q: [
        { name: "Alice", friend: [{ name: "Bob" }] },
        { name: "Bob", friend: [{ name: "Alice" }] },
      ],
    });
  });
});
