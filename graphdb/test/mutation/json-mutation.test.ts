import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type { Edge } from "../../src/mutation/edge.ts";
import { parseJsonMutation } from "../../src/mutation/json-mutation.ts";
import { JsonFloat, parseJsonText } from "../../src/mutation/json-text-parser.ts";

function labels() {
  let n = 0;
  return { nextBlankLabel: () => `dg.7.${++n}` };
}

function set(json: string): Edge[] {
  return parseJsonMutation(parseJsonText(json), "set", labels());
}

function del(json: string): Edge[] {
  return parseJsonMutation(parseJsonText(json), "delete", labels());
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DgraphError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
}

describe("parseJsonMutation: set", () => {
  it("types strings, integers, floats and booleans by how the JSON is written", () => {
    const edges = set(`{"uid":"_:a","s":"x","i":3,"f":1.5,"g":1.0,"e":2e3,"b":true}`);
    expect(edges.map((e) => [e.predicate, e.object])).toEqual([
      ["s", { kind: "literal", type: "string", value: "x" }],
      ["i", { kind: "literal", type: "int", value: 3 }],
      ["f", { kind: "literal", type: "float", value: 1.5 }],
      ["g", { kind: "literal", type: "float", value: 1 }],
      ["e", { kind: "literal", type: "float", value: 2000 }],
      ["b", { kind: "literal", type: "bool", value: true }],
    ]);
    expect(edges.every((e) => e.subject.kind === "blank" && e.subject.label === "a" && !e.list)).toBe(true);
  });

  it("takes integral numbers from plain JSON.parse values as ints", () => {
    const edges = parseJsonMutation(JSON.parse(`{"w": 1.0}`), "set", labels());
    expect(edges[0].object).toEqual({ kind: "literal", type: "int", value: 1 });
  });

  it("reads uid as hex, decimal string, number, blank node or uid(v)", () => {
    const subjects = ["0x1f", "31", 31, "_:x", " uid( v ) "].map(
      (uid) => parseJsonMutation({ uid, name: "n" }, "set", labels())[0].subject,
    );
    expect(subjects).toEqual([
      { kind: "uid", uid: 31 },
      { kind: "uid", uid: 31 },
      { kind: "uid", uid: 31 },
      { kind: "blank", label: "x" },
      { kind: "var", name: "v" },
    ]);
  });

  it("gives objects without a uid (or uid 0) generated blank labels from the context", () => {
    const edges = set(`[{"name":"a"},{"uid":"0x0","name":"b"},{"uid":"","name":"c"}]`);
    expect(edges.map((e) => e.subject)).toEqual([
      { kind: "blank", label: "dg.7.1" },
      { kind: "blank", label: "dg.7.2" },
      { kind: "blank", label: "dg.7.3" },
    ]);
  });

  it("rejects a uid that is not a number", () => {
    expect(errorOf(() => set(`{"uid":"alice","name":"x"}`))).toBe(
      'strconv.ParseUint: parsing "alice": invalid syntax',
    );
  });

  it("links a nested object as a single edge and an array of objects as list edges", () => {
    const edges = set(`{"uid":"_:a","boss":{"uid":"_:b","name":"B"},"friend":[{"uid":"0x2"},{"name":"C"}]}`);
    expect(edges).toEqual([
      {
        subject: { kind: "blank", label: "b" },
        predicate: "name",
        object: expect.anything(),
        facets: [],
        list: false,
      },
      {
        subject: { kind: "blank", label: "a" },
        predicate: "boss",
        object: { kind: "node", ref: { kind: "blank", label: "b" } },
        facets: [],
        list: false,
      },
      {
        subject: { kind: "blank", label: "a" },
        predicate: "friend",
        object: { kind: "node", ref: { kind: "uid", uid: 2 } },
        facets: [],
        list: true,
      },
      {
        subject: { kind: "blank", label: "dg.7.1" },
        predicate: "name",
        object: expect.anything(),
        facets: [],
        list: false,
      },
      {
        subject: { kind: "blank", label: "a" },
        predicate: "friend",
        object: { kind: "node", ref: { kind: "blank", label: "dg.7.1" } },
        facets: [],
        list: true,
      },
    ]);
  });

  it("turns arrays of scalars into list edges", () => {
    const edges = set(`{"uid":"_:a","nick":["x","y"],"score":[1,2.5]}`);
    expect(edges.map((e) => [e.predicate, (e.object as { value: unknown }).value, e.list])).toEqual([
      ["nick", "x", true],
      ["nick", "y", true],
      ["score", 1, true],
      ["score", 2.5, true],
    ]);
  });

  it("recognises GeoJSON points, polygons and multipolygons as geo values", () => {
    const point = set(`{"uid":"_:a","loc":{"type":"Point","coordinates":[1.0,2.5]}}`)[0];
    expect(point.object).toEqual({
      kind: "literal",
      type: "geo",
      value: { type: "Point", coordinates: [1, 2.5] },
    });
    const ring = "[[0,0],[1,0],[1,1],[0,0]]";
    expect(set(`{"uid":"_:a","area":{"type":"Polygon","coordinates":[${ring}]}}`)[0].object).toMatchObject({
      type: "geo",
    });
    expect(
      set(`{"uid":"_:a","area":{"type":"MultiPolygon","coordinates":[[${ring}]]}}`)[0].object,
    ).toMatchObject({
      type: "geo",
    });
  });

  it("treats an object that only looks like GeoJSON as a node", () => {
    const edges = set(`{"uid":"_:a","x":{"type":"Point","coordinates":"nowhere"}}`);
    expect(edges.map((e) => e.predicate)).toEqual(["type", "coordinates", "x"]);
  });

  it("splits language tags from keys", () => {
    expect(set(`{"uid":"_:a","name@en":"Alice"}`)[0]).toMatchObject({
      predicate: "name",
      object: { kind: "literal", type: "string", value: "Alice", lang: "en" },
    });
  });

  it("reads dgraph.type as a string or a list of strings", () => {
    expect(set(`{"uid":"_:a","dgraph.type":["Person","Employee"]}`).map((e) => e.object)).toEqual([
      { kind: "literal", type: "string", value: "Person" },
      { kind: "literal", type: "string", value: "Employee" },
    ]);
  });

  it("reads uid(...) and val(...) strings as references", () => {
    const [friend, age] = set(`{"uid":"uid(v)","friend":"uid(w)","age":"val(a)"}`);
    expect(friend.object).toEqual({ kind: "node", ref: { kind: "var", name: "w" } });
    expect(age.object).toEqual({ kind: "valVar", name: "a" });
    expect(errorOf(() => set(`{"uid":"_:a","friend":"uid(w"}`))).toBe(
      "While processing 'uid(w', brackets are not closed properly",
    );
  });

  it("ignores null values and empty objects in sets", () => {
    expect(set(`{"uid":"_:a","name":null,"x":{}}`)).toEqual([]);
  });

  it("is a no-op for {}, [] and null", () => {
    expect(set(`{}`)).toEqual([]);
    expect(set(`[]`)).toEqual([]);
    expect(set(`null`)).toEqual([]);
  });

  it("rejects a root array holding something other than objects", () => {
    expect(errorOf(() => set(`[{"name":"a"}, 3]`))).toBe("only array of map allowed at root");
  });

  it("rejects booleans and nested arrays inside lists", () => {
    expect(errorOf(() => set(`{"uid":"_:a","flags":[true]}`))).toBe("Got unsupported type for list: flags");
    expect(errorOf(() => set(`{"uid":"_:a","m":[[1]]}`))).toBe("Got unsupported type for list: m");
  });

  it("applies set predicate checks", () => {
    expect(errorOf(() => set(`{"uid":"_:a","~friend":"x"}`))).toContain(
      'predicate "~friend": Has invalid characters',
    );
    expect(errorOf(() => set(`{"uid":"_:a","my name":"x"}`))).toContain("Must not contain spaces");
    expect(errorOf(() => set(`{"uid":"_:a","*":"x"}`))).toMatch(/^Cannot use star in set n-quad: /);
  });
});

describe("parseJsonMutation: facets", () => {
  it("reads sibling pred|key facets of scalar values, typing date strings as datetimes", () => {
    const [name] = set(
      `{"uid":"_:a","name":"A","name|since":"2006-01-02","name|w":0.5,"name|n":2,"name|ok":true}`,
    );
    expect(name.facets).toEqual([
      { key: "n", value: 2, type: "int" },
      { key: "ok", value: true, type: "bool" },
      { key: "since", value: "2006-01-02T00:00:00Z", type: "datetime" },
      { key: "w", value: 0.5, type: "float" },
    ]);
  });

  it("reads facets of a nested object's edge from inside that object", () => {
    const edges = set(`{"uid":"_:a","friend":{"uid":"0x2","friend|close":true},"friend|ignored":1}`);
    expect(edges[0].facets).toEqual([{ key: "close", value: true, type: "bool" }]);
  });

  it("maps list facets by value index", () => {
    const edges = set(`{"uid":"_:a","nick":["a","b","c"],"nick|k":{"0":"x","2":"z"}}`);
    expect(edges.map((e) => e.facets)).toEqual([
      [{ key: "k", value: "x", type: "string" }],
      [],
      [{ key: "k", value: "z", type: "string" }],
    ]);
  });

  it("rejects list facets that are not index maps and facet values that are not scalars", () => {
    expect(errorOf(() => set(`{"uid":"_:a","nick":["a"],"nick|k":"x"}`))).toBe(
      "facets format should be of type map for scalarlist predicates, found: x for facet: nick|k",
    );
    expect(errorOf(() => set(`{"uid":"_:a","name":"A","name|k":[1]}`))).toBe(
      "facet: name|k: facet value can only be string/number/bool.",
    );
  });

  it("rejects facet keys with invalid characters in sets", () => {
    expect(errorOf(() => set(`{"uid":"_:a","name":"A","name|a@b":1}`))).toContain(
      'Facet "a@b", Has invalid characters',
    );
  });
});

describe("parseJsonMutation: delete", () => {
  it("requires a uid", () => {
    expect(errorOf(() => del(`{"name":"x"}`))).toBe("UID must be present and non-zero while deleting edges.");
  });

  it('turns null, "", 0.0 and false into S P * but deletes the value of an integer 0', () => {
    const edges = del(`{"uid":"0x1","a":null,"b":"","c":0.0,"d":false,"e":0,"f":"x"}`);
    expect(edges.map((e) => [e.predicate, e.object])).toEqual([
      ["a", { kind: "star" }],
      ["b", { kind: "star" }],
      ["c", { kind: "star" }],
      ["d", { kind: "star" }],
      ["e", { kind: "literal", type: "int", value: 0 }],
      ["f", { kind: "literal", type: "string", value: "x" }],
    ]);
  });

  it("deletes all of a node's predicates (S * *) for a root object with only a uid", () => {
    expect(del(`[{"uid":"0x1"},{"uid":"0x2","friend":{"uid":"0x3"}}]`)).toEqual([
      { subject: { kind: "uid", uid: 1 }, predicate: "*", object: { kind: "star" }, facets: [], list: false },
      {
        subject: { kind: "uid", uid: 2 },
        predicate: "friend",
        object: { kind: "node", ref: { kind: "uid", uid: 3 } },
        facets: [],
        list: false,
      },
    ]);
  });

  it("allows predicate names with ~ in deletes", () => {
    expect(del(`{"uid":"0x1","~friend":null}`)[0].predicate).toBe("~friend");
  });
});

describe("parseJsonText", () => {
  it("returns integral floats as JsonFloat and other numbers as numbers", () => {
    const v = parseJsonText(`{"a":1.0,"b":1,"c":1.5,"d":-0.0,"e":1E2}`) as Record<string, unknown>;
    expect(v.a).toBeInstanceOf(JsonFloat);
    expect(v.b).toBe(1);
    expect(v.c).toBe(1.5);
    expect(v.d).toBeInstanceOf(JsonFloat);
    expect((v.e as JsonFloat).value).toBe(100);
    expect(JSON.stringify(v)).toBe(`{"a":1,"b":1,"c":1.5,"d":0,"e":100}`);
  });

  it("decodes strings, escapes, literals and nesting like JSON.parse", () => {
    const text = `{"s":"a\\"b\\u00e9\\n","t":true,"f":false,"n":null,"arr":[[],{},[1,[2]]],"o":{"k":{"x":"y"}}}`;
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it("keeps a __proto__ key as an own property", () => {
    const v = parseJsonText(`{"__proto__":{"polluted":1}}`) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reports syntax errors with Go's texts, Dgraph's position and a trailing newline", () => {
    const cases: [string, string][] = [
      [
        `{"a": x}`,
        "Error parsing JSON at line 1, character 8: invalid character 'x' looking for beginning of value\n",
      ],
      [`{"a":\n 1`, "Error parsing JSON at line 2, character 3: unexpected end of JSON input\n"],
      [``, "Error parsing JSON at line 1, character 0: unexpected end of JSON input\n"],
      [
        `{"a":1}}`,
        "Error parsing JSON at line 1, character 8: invalid character '}' after top-level value\n",
      ],
      [`[1 2]`, "Error parsing JSON at line 1, character 5: invalid character '2' after array element\n"],
      [`{"a" 1}`, "Error parsing JSON at line 1, character 7: invalid character '1' after object key\n"],
      [
        `{1:2}`,
        "Error parsing JSON at line 1, character 3: invalid character '1' looking for beginning of object key string\n",
      ],
      // Dgraph's walk stops one rune past Go's offset, or at the end when the bad character is the last one.
      [
        `[tru]`,
        "Error parsing JSON at line 1, character 5: invalid character ']' in literal true (expecting 'e')\n",
      ],
      [
        `[1.]`,
        "Error parsing JSON at line 1, character 4: invalid character ']' after decimal point in numeric literal\n",
      ],
      [`["\\x"]`, "Error parsing JSON at line 1, character 5: invalid character 'x' in string escape code\n"],
    ];
    for (const [text, message] of cases)
      expect(
        errorOf(() => parseJsonText(text)),
        text,
      ).toBe(message);
  });

  it("rejects nesting deeper than Go's limit", () => {
    expect(errorOf(() => parseJsonText("[".repeat(10001)))).toContain("exceeded max depth");
  });
});
