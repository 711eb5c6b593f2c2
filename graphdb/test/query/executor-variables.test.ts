/**
 * Variables (reference §4.4): block dependency order, uid and value variables, val(), aggregations in
 * empty blocks and per node, math(), propagation of value variables to deeper levels.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { parseDql } from "../../src/dql/parser.ts";
import { executeQuery } from "../../src/query/executor.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { data, failure, text } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});
const MALLORY = "Mallory <x> & y";

describe("executor: uid variables and block order", () => {
  it("runs a block after the blocks defining its variables, output in query order", () => {
    expect(text(g, "{ q(func: uid(f)) { name } var(func: uid(1)) { f as friend } }")).toBe(
      '{"q":[{"name":"Bob"},{"name":"Carol"},{"name":"Dave"}]}',
    );
  });

  it("takes a block's result as a variable", () => {
    expect(data(g, "{ v as var(func: has(friend)) { name } q(func: uid(v)) { name } }")).toEqual({
      q: [{ name: "Alice" }, { name: "Bob" }, { name: "Carol" }],
    });
  });

  it("collects uids with `a as uid` at any level", () => {
    expect(data(g, "{ var(func: uid(1, 3)) { friend { a as uid } } q(func: uid(a)) { name } }")).toEqual({
      q: [{ name: "Bob" }, { name: "Carol" }, { name: "Dave" }],
    });
  });

  it("takes the uids of a value variable with uid(x)", () => {
    expect(data(g, "{ var(func: has(age)) { a as age } q(func: uid(a)) { name } }")).toEqual({
      q: [{ name: "Alice" }, { name: "Bob" }, { name: "Carol" }, { name: "Eve" }, { name: MALLORY }],
    });
  });

  it("exposes uid and value variables for upserts", () => {
    const doc = parseDql("{ q(func: uid(1)) { f as friend a as age } }", undefined, { needVars: ["f", "a"] });
    const r = executeQuery(g, doc);
    expect(Array.from(r.vars.uids.get("f") ?? [])).toEqual([2, 3, 4]);
    expect(r.vars.values.get("a")?.get(1)).toEqual({ type: "int", value: 30 });
  });
});

describe("executor: value variables", () => {
  it("outputs values of another block with val(x), aliased or not", () => {
    expect(
      text(g, "{ var(func: has(age)) { a as age } q(func: uid(1, 2, 4)) { name val(a) x: val(a) } }"),
    ).toBe('{"q":[{"name":"Alice","val(a)":30,"x":30},{"name":"Bob","val(a)":25,"x":25},{"name":"Dave"}]}');
  });

  it("keeps count(pred) as a value variable", () => {
    expect(
      text(
        g,
        "{ var(func: has(friend)) { n as count(friend) } q(func: uid(n), orderdesc: val(n)) { name val(n) } }",
      ),
    ).toBe('{"q":[{"name":"Alice","val(n)":3},{"name":"Bob","val(n)":2},{"name":"Carol","val(n)":1}]}');
  });

  it("refuses a value variable over a list predicate", () => {
    expect(failure(g, "{ var(func: uid(1)) { n as nick } q(func: uid(n)) { name } }")).toBe(
      ": Value variables not supported for predicate with list type.",
    );
  });
});

describe("executor: aggregations", () => {
  it("aggregates a variable in an empty block, one element per aggregate", () => {
    expect(
      text(
        g,
        "{ var(func: has(age)) { a as age } total() { s: sum(val(a)) avg(val(a)) min(val(a)) max(val(a)) } }",
      ),
    ).toBe('{"total":[{"s":155},{"avg(val(a))":31.000000},{"min(val(a))":25},{"max(val(a))":40}]}');
  });

  it("gives null for an aggregate over an empty variable", () => {
    expect(text(g, '{ var(func: eq(name, "Nobody")) { a as age } total() { bal: sum(val(a)) } }')).toBe(
      '{"total":[{"bal":null}]}',
    );
  });

  it("aggregates floats and datetimes", () => {
    expect(text(g, "{ var(func: has(score)) { s as score d as dob } t() { sum(val(s)) max(val(d)) } }")).toBe(
      '{"t":[{"sum(val(s))":3.750000},{"max(val(d))":"1990-05-01T00:00:00Z"}]}',
    );
  });

  it("aggregates per node over the children that define the variable", () => {
    expect(
      text(g, "{ q(func: uid(1, 2)) { name friend { n as count(friend) } most: max(val(n)) sum(val(n)) } }"),
    ).toBe(
      '{"q":[{"name":"Alice","friend":[{"count(friend)":2},{"count(friend)":1},{"count(friend)":0}],"most":2,"sum(val(n))":3},' +
        '{"name":"Bob","friend":[{"count(friend)":3},{"count(friend)":1}],"most":3,"sum(val(n))":4}]}',
    );
  });

  it("refuses to aggregate a variable of the same level", () => {
    expect(failure(g, "{ q(func: uid(1, 2)) { a as age s: sum(val(a)) } }")).toBe(
      ": Invalid variable aggregation. Check the levels.",
    );
  });
});

describe("executor: math", () => {
  it("computes in float64 and outputs through val(x) or an alias", () => {
    expect(text(g, "{ q(func: uid(1, 2)) { a as age b as math(a * 2 + 1) } t() { sum(val(b)) } }")).toBe(
      '{"q":[{"age":30,"val(b)":61.000000},{"age":25,"val(b)":51.000000}],"t":[{"sum(val(b))":112.000000}]}',
    );
    expect(text(g, "{ q(func: uid(1)) { a as age r: math(sqrt(a * a) / 4) } }")).toBe(
      '{"q":[{"age":30,"r":7.500000}]}',
    );
  });

  it("compares and chooses with cond()", () => {
    expect(text(g, "{ q(func: uid(1, 2)) { a as age c: math(cond(a > 26, 1, 0)) } }")).toBe(
      '{"q":[{"age":30,"c":1},{"age":25,"c":0}]}',
    );
  });

  it("uses variables of other blocks by uid", () => {
    expect(
      data(g, "{ var(func: uid(1, 2)) { a as age } q(func: uid(1, 2)) { name x: math(a + 10) } }"),
    ).toEqual({
      q: [
        { name: "Alice", x: 40 },
        { name: "Bob", x: 35 },
      ],
    });
  });

  it("carries a value variable down to deeper levels, summing over several parents", () => {
    expect(data(g, "{ q(func: uid(1, 2)) { a as age friend { name s: math(a + 0) } } }")).toEqual({
      q: [
        {
          age: 30,
          friend: [
            { name: "Bob", s: 30 },
            { name: "Carol", s: 55 },
            { name: "Dave", s: 30 },
          ],
        },
        {
          age: 25,
          friend: [
            { name: "Alice", s: 25 },
            { name: "Carol", s: 55 },
          ],
        },
      ],
    });
  });

  it("treats count(uid) variables as constants", () => {
    expect(text(g, "{ var(func: has(age)) { c as count(uid) } q(func: uid(1)) { x: math(c * 2) } }")).toBe(
      '{"q":[{"x":10.000000}]}',
    );
  });

  it("fails on a division by zero", () => {
    expect(failure(g, "{ q(func: uid(1)) { a as age z as math(a - a) x: math(a / z) } }")).toBe(
      ": Division by zero",
    );
  });
});
