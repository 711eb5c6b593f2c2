import { describe, expect, it } from "vitest";
import { parseWorldWit } from "../../src/wit/wit-parser.ts";

const PRINTED = `package root:component;

world root {
  import wasi:io/error@0.2.12;
  import trellis:app/host@0.1.0;
  use trellis:app/host@0.1.0.{http-response};

  /// A person.
  /// Two lines of docs.
  record person {
    name: string,
    age: u32,
    tags: list<string>,
    nickname: option<string>,
    %type: kind,
  }

  enum kind {
    human,
    /// a robot
    robot,
  }

  type id = u64;

  export init: func(shim: string, script: string, entry-path: option<string>, disable-gc: bool) -> result<_, string>;
  /// Finds someone.
  export get-person: func(id: id) -> option<person>;
  export all: func() -> result;
  export ok-only: func() -> result<string>;
  export err-only: func() -> result<_, string>;
  export both: func(xs: list<tuple<s8, f64, char>>) -> result<list<person>, string>;
  export nothing: func();
  export wasi:cli/run@0.2.0;
}
`;

describe("parseWorldWit", () => {
  const world = parseWorldWit(PRINTED);

  it("reads world-level records and enums with their docs", () => {
    expect(world.types.get("person")).toEqual({
      kind: "record",
      name: "person",
      docs: "A person.\nTwo lines of docs.",
      fields: [
        { name: "name", type: { kind: "prim", name: "string" } },
        { name: "age", type: { kind: "prim", name: "u32" } },
        { name: "tags", type: { kind: "list", of: { kind: "prim", name: "string" } } },
        { name: "nickname", type: { kind: "option", of: { kind: "prim", name: "string" } } },
        { name: "type", type: { kind: "ref", name: "kind" } },
      ],
    });
    expect(world.types.get("kind")).toEqual({ kind: "enum", name: "kind", cases: ["human", "robot"] });
  });

  it("reads exports in order, resolves aliases and skips the QuickJS init and interface exports", () => {
    expect(world.functions.map((f) => f.name)).toEqual([
      "get-person",
      "all",
      "ok-only",
      "err-only",
      "both",
      "nothing",
    ]);
    const [getPerson, all, okOnly, errOnly, both, nothing] = world.functions;
    expect(getPerson).toEqual({
      name: "get-person",
      docs: "Finds someone.",
      params: [{ name: "id", type: { kind: "prim", name: "u64" } }],
      result: { kind: "option", of: { kind: "ref", name: "person" } },
    });
    expect(all.result).toEqual({ kind: "result" });
    expect(okOnly.result).toEqual({ kind: "result", ok: { kind: "prim", name: "string" } });
    expect(errOnly.result).toEqual({ kind: "result", err: { kind: "prim", name: "string" } });
    expect(both.params[0].type).toEqual({
      kind: "list",
      of: {
        kind: "tuple",
        of: [
          { kind: "prim", name: "s8" },
          { kind: "prim", name: "f64" },
          { kind: "prim", name: "char" },
        ],
      },
    });
    expect(both.result).toEqual({
      kind: "result",
      ok: { kind: "list", of: { kind: "ref", name: "person" } },
      err: { kind: "prim", name: "string" },
    });
    expect(nothing).toEqual({ name: "nothing", params: [] });
  });

  it.each([
    ["variant shape { circle(f64) }", /variant shape is not supported/],
    ["flags perms { read, write }", /flags perms is not supported/],
    ["resource conn { }", /resource conn is not supported/],
  ])("rejects %s naming the item", (item, message) => {
    expect(() => parseWorldWit(`world w {\n  ${item}\n}`)).toThrow(message);
  });

  it("names the export and type when a type comes from an interface", () => {
    const wit = "world w {\n  use pkg:x/types.{item};\n  export get: func() -> item;\n}";
    expect(() => parseWorldWit(wit)).toThrow(
      /result of export get uses type item, which is not a record or enum/,
    );
  });

  it("reports syntax errors with line and column", () => {
    expect(() => parseWorldWit("world w {\n  export f: func(a: ) -> u32;\n}")).toThrow(
      /WIT line 2 column 21: expected a type/,
    );
    expect(() => parseWorldWit("world w {\n  export f: func() -> own<r>;\n}")).toThrow(/resource handle own/);
  });
});
