/**
 * Output shape rules of DQL results (reference §4.2): arrays per block, lists vs single objects, absent
 * keys, dropped empty nodes, uid order, scalar formats, count(uid) elements, aliases, debug uids.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphReader } from "../../src/core/graph-reader.ts";
import { engineGraph } from "./engine-graph.ts";
import { peopleGraph } from "./executor-fixture.ts";
import { data, execute, failure, text } from "./executor-run.ts";

let g: GraphReader;
beforeAll(async () => {
  g = (await peopleGraph()).reader;
});

describe("executor: output shape", () => {
  it("returns every block as an array, even for one node", () => {
    expect(data(g, "{ q(func: uid(1)) { name } }")).toEqual({ q: [{ name: "Alice" }] });
  });

  it("returns an empty array for a block without results", () => {
    expect(data(g, '{ q(func: eq(name, "Nobody")) { name } }')).toEqual({ q: [] });
  });

  it("returns {} when only var blocks ran", () => {
    expect(text(g, "{ var(func: uid(1)) { f as friend } var(func: uid(f)) { name } }")).toBe("{}");
  });

  it("outputs blocks in query order whatever the execution order", () => {
    expect(text(g, "{ b(func: uid(f)) { name } a(func: uid(1)) { f as boss } }")).toBe(
      '{"b":[{"name":"Eve"}],"a":[]}',
    );
  });

  it("outputs [uid] and reverse edges as arrays of objects and a uid predicate as one object", () => {
    expect(data(g, "{ q(func: uid(1)) { friend { name } boss { name } } }")).toEqual({
      q: [{ friend: [{ name: "Bob" }, { name: "Carol" }, { name: "Dave" }], boss: { name: "Eve" } }],
    });
    expect(data(g, "{ q(func: uid(5)) { ~boss { name } } }")).toEqual({
      q: [{ "~boss": [{ name: "Alice" }] }],
    });
  });

  it("outputs list scalars as arrays, even with one value", async () => {
    const { reader: one } = await engineGraph("tags: [string] .", [{ s: 1, p: "tags", value: "solo" }]);
    expect(data(one, "{ q(func: uid(1)) { tags } }")).toEqual({ q: [{ tags: ["solo"] }] });
    expect(data(g, "{ q(func: uid(1)) { nick } }")).toEqual({ q: [{ nick: ["Al", "Ally"] }] });
  });

  it("leaves out keys without values instead of writing null", () => {
    expect(text(g, "{ q(func: uid(4)) { name age friend { name } } }")).toBe('{"q":[{"name":"Dave"}]}');
  });

  it("drops nodes whose selection yields no key", () => {
    expect(data(g, "{ q(func: uid(1, 5)) { nick } }")).toEqual({ q: [{ nick: ["Al", "Ally"] }] });
    expect(data(g, "{ q(func: uid(1)) { name boss { nick } } }")).toEqual({ q: [{ name: "Alice" }] });
  });

  it("keeps a node that asks for its uid even when it has no data (uid() does not check existence)", () => {
    expect(data(g, "{ q(func: uid(0x99)) { uid name } }")).toEqual({ q: [{ uid: "0x99" }] });
  });

  it("returns nodes in uid order", () => {
    expect(data(g, "{ q(func: uid(3, 1, 2)) { name } }")).toEqual({
      q: [{ name: "Alice" }, { name: "Bob" }, { name: "Carol" }],
    });
  });

  it("writes scalars as Dgraph does: int, %f float, bool, RFC 3339 datetime, default as string", () => {
    expect(text(g, "{ q(func: uid(1)) { age score alive dob balance } }")).toBe(
      '{"q":[{"age":30,"score":1.500000,"alive":true,"dob":"1990-05-01T00:00:00Z","balance":"110"}]}',
    );
  });

  it("writes keys in selection order", () => {
    expect(text(g, "{ q(func: uid(2)) { age uid name } }")).toBe(
      '{"q":[{"age":25,"uid":"0x2","name":"Bob"}]}',
    );
  });

  it("adds count(pred) on each node, 0 included", () => {
    expect(data(g, "{ q(func: uid(1)) { friend { name count(friend) } } }")).toEqual({
      q: [
        {
          friend: [
            { name: "Bob", "count(friend)": 2 },
            { name: "Carol", "count(friend)": 1 },
            { name: "Dave", "count(friend)": 0 },
          ],
        },
      ],
    });
    expect(data(g, "{ q(func: uid(2)) { count(~friend) } }")).toEqual({ q: [{ "count(~friend)": 1 }] });
  });

  it("adds count(uid) as its own element: first at the root, last at an edge", () => {
    expect(data(g, "{ q(func: has(age)) { count(uid) } }")).toEqual({ q: [{ count: 5 }] });
    expect(text(g, "{ q(func: uid(1, 2)) { count(uid) name } }")).toBe(
      '{"q":[{"count":2},{"name":"Alice"},{"name":"Bob"}]}',
    );
    expect(text(g, "{ q(func: uid(1)) { friend { name count(uid) } } }")).toBe(
      '{"q":[{"friend":[{"name":"Bob"},{"name":"Carol"},{"name":"Dave"},{"count":3}]}]}',
    );
    expect(data(g, "{ q(func: uid(1)) { friend { count(uid) } } }")).toEqual({
      q: [{ friend: [{ count: 3 }] }],
    });
  });

  it("renames keys with aliases", () => {
    expect(
      data(
        g,
        "{ people(func: uid(1)) { n: name f: friend(first: 1) { who: name } c: count(friend) total: count(uid) } }",
      ),
    ).toEqual({ people: [{ total: 1 }, { n: "Alice", f: [{ who: "Bob" }], c: 3 }] });
  });

  it("adds the uid to every non-empty node in debug mode, last", () => {
    expect(text(g, "{ q(func: uid(1, 5)) { nick friend(first: 1) { name } } }", { debug: true })).toBe(
      '{"q":[{"nick":["Al","Ally"],"friend":[{"name":"Bob","uid":"0x2"}],"uid":"0x1"}]}',
    );
    expect(text(g, "{ q(func: uid(2)) { uid name } }", { debug: true })).toBe(
      '{"q":[{"uid":"0x2","name":"Bob"}]}',
    );
  });

  it("ignores predicates that do not exist", () => {
    expect(data(g, "{ q(func: uid(1)) { name nosuch other { name } } }")).toEqual({ q: [{ name: "Alice" }] });
    expect(data(g, '{ q(func: eq(nosuch, "x")) { name } }')).toEqual({ q: [] });
  });

  it("never returns password values", () => {
    expect(data(g, "{ q(func: uid(1)) { name pw } }")).toEqual({ q: [{ name: "Alice" }] });
  });

  it("checks passwords with checkpwd, false when there is none", () => {
    expect(data(g, '{ q(func: uid(1, 2)) { name checkpwd(pw, "secret123") } }')).toEqual({
      q: [
        { name: "Alice", "checkpwd(pw)": true },
        { name: "Bob", "checkpwd(pw)": false },
      ],
    });
    expect(data(g, '{ q(func: uid(1)) { ok: checkpwd(pw, "wrong!!") } }')).toEqual({ q: [{ ok: false }] });
    expect(failure(g, '{ q(func: uid(1)) { checkpwd(name, "x") } }')).toBe(
      ": checkpwd fn can only be used on attr: [name] with schema type password. Got type: string",
    );
  });

  it("counts the uids each predicate touched", () => {
    const r = execute(g, "{ q(func: uid(1, 2)) { name friend { name } } }");
    expect(r.metrics).toEqual({ name: 6, friend: 2, _total: 8 });
  });

  it("rejects two unaliased selections of the same thing", () => {
    expect(failure(g, "{ q(func: uid(1)) { name name } }")).toBe(
      ": name not allowed multiple times in same sub-query.",
    );
  });
});
