/**
 * Directives and selection forms (reference §4.5): @cascade, @normalize, expand(), language
 * preferences, @ignorereflex, @facets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { engineGraph } from "./engine-graph.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { data, failure, text } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});

describe("executor: @cascade", () => {
  it("drops nodes missing any selected child", () => {
    expect(data(g, "{ q(func: uid(1, 2, 3, 4)) @cascade { name age } }")).toEqual({
      q: [
        { name: "Alice", age: 30 },
        { name: "Bob", age: 25 },
        { name: "Carol", age: 35 },
      ],
    });
  });

  it("cascades through nested levels", () => {
    expect(data(g, "{ q(func: uid(1, 2, 3)) @cascade { name friend { name age } } }")).toEqual({
      q: [
        {
          name: "Alice",
          friend: [
            { name: "Bob", age: 25 },
            { name: "Carol", age: 35 },
          ],
        },
        {
          name: "Bob",
          friend: [
            { name: "Alice", age: 30 },
            { name: "Carol", age: 35 },
          ],
        },
      ],
    });
  });

  it("only requires the listed predicates with @cascade(p)", () => {
    expect(data(g, "{ q(func: uid(1, 4, 5)) @cascade(age) { name age nick } }")).toEqual({
      q: [
        { name: "Alice", age: 30, nick: ["Al", "Ally"] },
        { name: "Eve", age: 40 },
      ],
    });
  });

  it("paginates after the cascade", () => {
    expect(data(g, "{ q(func: uid(1, 2, 3, 4, 5), first: -1) @cascade { name friend { name } } }")).toEqual({
      q: [{ name: "Carol", friend: [{ name: "Dave" }] }],
    });
    expect(data(g, "{ q(func: uid(1)) { friend(first: 1, offset: 1) @cascade { name age } } }")).toEqual({
      q: [{ friend: [{ name: "Carol", age: 35 }] }],
    });
  });
});

describe("executor: @normalize", () => {
  it("keeps aliased fields only and flattens children, keys sorted", () => {
    expect(text(g, "{ q(func: uid(1)) @normalize { n: name age friend { f: name } } }")).toBe(
      '{"q":[{"f":"Bob","n":"Alice"},{"f":"Carol","n":"Alice"},{"f":"Dave","n":"Alice"}]}',
    );
  });

  it("produces one object per path through nested levels", () => {
    expect(
      data(g, "{ q(func: uid(1)) @normalize { n: name friend { f: name friend { ff: name } } } }"),
    ).toEqual({
      q: [
        { n: "Alice", f: "Bob", ff: "Alice" },
        { n: "Alice", f: "Bob", ff: "Carol" },
        { n: "Alice", f: "Carol", ff: "Dave" },
        { n: "Alice", f: "Dave" },
      ],
    });
  });

  it("crosses sibling edges", () => {
    expect(
      data(g, "{ q(func: uid(1)) @normalize { n: name friend(first: 2) { f: name } boss { b: name } } }"),
    ).toEqual({
      q: [
        { b: "Eve", f: "Bob", n: "Alice" },
        { b: "Eve", f: "Carol", n: "Alice" },
      ],
    });
  });

  it("normalizes a single edge", () => {
    expect(data(g, "{ q(func: uid(1)) { name friend @normalize { f: name friend { ff: name } } } }")).toEqual(
      {
        q: [
          {
            name: "Alice",
            friend: [
              { f: "Bob", ff: "Alice" },
              { f: "Bob", ff: "Carol" },
              { f: "Carol", ff: "Dave" },
              { f: "Dave" },
            ],
          },
        ],
      },
    );
  });
});

describe("executor: expand()", () => {
  it("expands the predicates of the node's types, every language included", () => {
    expect(data(g, "{ q(func: uid(1)) { expand(_all_) } }")).toEqual({
      q: [{ name: "Alice", "name@fr": "Alicia", age: 30 }],
    });
  });

  it("expands uid predicates with the nested selection", () => {
    expect(data(g, "{ q(func: uid(1)) { expand(_all_) { name } } }")).toEqual({
      q: [
        {
          name: "Alice",
          "name@fr": "Alicia",
          age: 30,
          friend: [{ name: "Bob" }, { name: "Carol" }, { name: "Dave" }],
          boss: { name: "Eve" },
        },
      ],
    });
  });

  it("expands named types whatever the node's type, and nothing for untyped nodes with _all_", () => {
    expect(data(g, "{ q(func: uid(5)) { expand(Person) } }")).toEqual({ q: [{ name: "Eve", age: 40 }] });
    expect(data(g, "{ q(func: uid(5)) { expand(_all_) } }")).toEqual({ q: [] });
  });

  it("expands only uid predicates under a filter", () => {
    expect(data(g, "{ q(func: uid(1)) { expand(_all_) @filter(type(Person)) { name } } }")).toEqual({
      q: [{ friend: [{ name: "Bob" }, { name: "Carol" }] }],
    });
  });

  it("refuses to repeat an explicitly selected predicate", () => {
    expect(failure(g, "{ q(func: uid(1)) { name expand(_all_) } }")).toBe(
      ": Repeated subgraph: [name] while using expand()",
    );
  });
});

describe("executor: languages", () => {
  it("follows a preference list, `.` meaning untagged then any", () => {
    expect(data(g, "{ q(func: uid(1, 2, 4)) { name@en:fr:. } }")).toEqual({
      q: [{ "name@en:fr:.": "Alicia" }, { "name@en:fr:.": "Bob" }, { "name@en:fr:.": "David" }],
    });
    expect(data(g, "{ q(func: uid(1, 2)) { name@fr } }")).toEqual({ q: [{ "name@fr": "Alicia" }] });
    expect(data(g, "{ q(func: uid(4)) { name@. n: name@en } }")).toEqual({
      q: [{ "name@.": "Dave", n: "David" }],
    });
  });

  it("returns every language with @*", () => {
    expect(data(g, "{ q(func: uid(1, 2)) { name@* } }")).toEqual({
      q: [{ name: "Alice", "name@fr": "Alicia" }, { name: "Bob" }],
    });
  });
});

describe("executor: @ignorereflex", () => {
  it("removes a node's ancestors from its children", () => {
    expect(data(g, "{ q(func: uid(1)) @ignorereflex { name friend { name friend { name } } } }")).toEqual({
      q: [
        {
          name: "Alice",
          friend: [
            { name: "Bob", friend: [{ name: "Carol" }] },
            { name: "Carol", friend: [{ name: "Dave" }] },
            { name: "Dave" },
          ],
        },
      ],
    });
  });
});

describe("executor: @facets", () => {
  let f: GraphReader;
  beforeAll(async () => {
    f = (
      await engineGraph("name: string .\nfriend: [uid] .\ntags: [string] .\nnick: string .", [
        { s: 1, p: "name", value: "A" },
        { s: 2, p: "name", value: "B" },
        { s: 3, p: "name", value: "C" },
        {
          s: 1,
          p: "friend",
          uid: 2,
          facets: [
            { key: "since", value: "2006-01-02T15:04:05Z", type: "datetime" },
            { key: "close", value: true, type: "bool" },
            { key: "weight", value: 0.5, type: "float" },
            { key: "n", value: 3, type: "int" },
          ],
        },
        {
          s: 1,
          p: "friend",
          uid: 3,
          facets: [
            { key: "close", value: false, type: "bool" },
            { key: "weight", value: 2, type: "float" },
          ],
        },
        { s: 1, p: "nick", value: "Ace", facets: [{ key: "src", value: "wiki", type: "string" }] },
        { s: 1, p: "tags", value: "x", facets: [{ key: "k", value: "one", type: "string" }] },
        { s: 1, p: "tags", value: "y" },
        { s: 1, p: "tags", value: "z", facets: [{ key: "k", value: "three", type: "string" }] },
      ])
    ).reader;
  });

  it("puts edge facets inside the child as pred|key, sorted by key", () => {
    expect(text(f, "{ q(func: uid(1)) { friend @facets { name } } }")).toBe(
      '{"q":[{"friend":[{"name":"B","friend|close":true,"friend|n":3,"friend|since":"2006-01-02T15:04:05Z",' +
        '"friend|weight":0.500000},{"name":"C","friend|close":false,"friend|weight":2.000000}]}]}',
    );
  });

  it("selects and aliases facet keys", () => {
    expect(data(f, "{ q(func: uid(1)) { friend @facets(c: close, n) { name } } }")).toEqual({
      q: [
        {
          friend: [
            { name: "B", c: true, "friend|n": 3 },
            { name: "C", c: false },
          ],
        },
      ],
    });
  });

  it("puts value facets before the value, list facets indexed by position", () => {
    expect(text(f, "{ q(func: uid(1)) { nick @facets tags @facets(k) } }")).toBe(
      '{"q":[{"nick|src":"wiki","nick":"Ace","tags|k":{"0":"one","2":"three"},"tags":["x","y","z"]}]}',
    );
  });

  it("filters and orders edges by facets", () => {
    expect(data(f, "{ q(func: uid(1)) { friend @facets(eq(close, true)) { name } } }")).toEqual({
      q: [{ friend: [{ name: "B" }] }],
    });
    expect(data(f, "{ q(func: uid(1)) { friend @facets(ge(weight, 1) or eq(n, 3)) { name } } }")).toEqual({
      q: [{ friend: [{ name: "B" }, { name: "C" }] }],
    });
    const r = data(f, "{ q(func: uid(1)) { friend @facets(orderdesc: weight) { name } } }") as {
      q: { friend: { name: string }[] }[];
    };
    expect(r.q[0].friend.map((x) => x.name)).toEqual(["C", "B"]);
  });

  it("assigns facet values to variables", () => {
    expect(text(f, "{ var(func: uid(1)) { friend @facets(w as weight) } t() { sum(val(w)) } }")).toBe(
      '{"t":[{"sum(val(w))":2.500000}]}',
    );
    expect(text(f, "{ q(func: uid(1)) { name friend @facets(w as weight) s: sum(val(w)) } }")).toBe(
      '{"q":[{"name":"A","s":2.500000}]}',
    );
  });
});

describe("executor: @recurse", () => {
  it("applies the selection at every level reached, each edge followed once", () => {
    const level3 = {
      q: [
        {
          name: "Alice",
          friend: [
            { name: "Bob", friend: [{ name: "Alice" }, { name: "Carol" }] },
            { name: "Carol", friend: [{ name: "Dave" }] },
            { name: "Dave" },
          ],
        },
      ],
    };
    expect(data(g, "{ q(func: uid(1)) @recurse(depth: 3) { name friend } }")).toEqual(level3);
    expect(data(g, "{ q(func: uid(1)) @recurse { name friend } }")).toEqual(level3);
  });

  it("stops at the depth, following edges again with loop: true", () => {
    expect(data(g, "{ q(func: uid(1)) @recurse(depth: 2, loop: true) { name friend } }")).toEqual({
      q: [{ name: "Alice", friend: [{ name: "Bob" }, { name: "Carol" }, { name: "Dave" }] }],
    });
    expect(data(g, "{ q(func: uid(2)) @recurse(depth: 3, loop: true) { n: name friend } }")).toEqual({
      q: [
        {
          n: "Bob",
          friend: [
            { n: "Alice", friend: [{ n: "Bob" }, { n: "Carol" }, { n: "Dave" }] },
            { n: "Carol", friend: [{ n: "Dave" }] },
          ],
        },
      ],
    });
  });

  it("rejects loop without depth and nested selections", () => {
    expect(failure(g, "{ q(func: uid(1)) @recurse(loop: true) { name friend } }")).toBe(
      ": Depth must be > 0 when loop is true for recurse query",
    );
    expect(failure(g, "{ q(func: uid(1)) @recurse { friend { name } } }")).toBe(
      ": recurse queries require that all predicates are specified in one level",
    );
  });
});

describe("executor: @groupby", () => {
  it("groups the block's nodes, smaller groups first, with count and predicate aggregates", () => {
    expect(text(g, "{ q(func: has(age)) @groupby(age) { count(uid) min(score) } }")).toBe(
      '{"q":[{"@groupby":[{"age":35,"count":1},{"age":40,"count":1},' +
        '{"age":30,"count":1,"min(score)":1.500000},{"age":25,"count":2,"min(score)":2.250000}]}]}',
    );
  });

  it("groups by uid predicates (a node in every group of its targets) and per parent on edges", () => {
    expect(data(g, "{ q(func: uid(1, 2, 3)) @groupby(friend) { c: count(uid) } }")).toEqual({
      q: [
        {
          "@groupby": [
            { friend: "0x1", c: 1 },
            { friend: "0x2", c: 1 },
            { friend: "0x3", c: 2 },
            { friend: "0x4", c: 2 },
          ],
        },
      ],
    });
    expect(data(g, "{ q(func: uid(1, 2)) { name friend @groupby(age) { count(uid) } } }")).toEqual({
      q: [
        {
          name: "Alice",
          friend: [
            {
              "@groupby": [
                { age: 25, count: 1 },
                { age: 35, count: 1 },
              ],
            },
          ],
        },
        {
          name: "Bob",
          friend: [
            {
              "@groupby": [
                { age: 30, count: 1 },
                { age: 35, count: 1 },
              ],
            },
          ],
        },
      ],
    });
  });

  it("keys a count variable by the group's uid", () => {
    expect(
      data(
        g,
        "{ var(func: uid(1, 2, 3)) @groupby(friend) { a as count(uid) } q(func: uid(a), orderdesc: val(a)) { name val(a) } }",
      ),
    ).toEqual({
      q: [
        { name: "Carol", "val(a)": 2 },
        { name: "Dave", "val(a)": 2 },
        { name: "Alice", "val(a)": 1 },
        { name: "Bob", "val(a)": 1 },
      ],
    });
  });

  it("writes no key for a block without groups", () => {
    expect(text(g, "{ q(func: uid(4)) @groupby(age) { count(uid) } }")).toBe("{}");
  });
});

describe("executor: unsupported features", () => {
  it("reports shortest paths as not supported yet", () => {
    expect(failure(g, "{ p as shortest(from: 0x1, to: 0x4) { friend } q(func: uid(p)) { name } }")).toContain(
      "not supported yet",
    );
  });
});
