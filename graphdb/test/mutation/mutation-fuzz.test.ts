import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type { Edge } from "../../src/mutation/edge.ts";
import { parseJsonMutation } from "../../src/mutation/json-mutation.ts";
import { JsonFloat, parseJsonText } from "../../src/mutation/json-text-parser.ts";
import { parseMutationBlock } from "../../src/mutation/mutation-block.ts";
import { NQuadChunkParser } from "../../src/mutation/nquad-chunk-parser.ts";
import { parseNQuads } from "../../src/mutation/rdf-parser.ts";
import { seededRandom } from "../seeded-random.ts";

const rand = seededRandom(20240611);
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const ALPHABET = [
  ...'<>"\\_:*@^()#.,= \t{}[]|~/0x1aZuvidl-+eE',
  "\u00a0",
  "\r",
  "\n",
  "é",
  "😀",
  "\ud800",
  "\u0000",
];

/** Deletes, inserts, duplicates or truncates a few characters. */
function mutate(s: string): string {
  let out = s;
  const edits = 1 + int(3);
  for (let k = 0; k < edits; k++) {
    const at = int(out.length + 1);
    switch (int(4)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + pick(ALPHABET) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at) + out.slice(int(out.length), int(out.length)) + out.slice(at);
        break;
      default:
        out = out.slice(0, at);
    }
  }
  return out;
}

function randomText(max: number): string {
  const n = int(max);
  let s = "";
  for (let i = 0; i < n; i++) s += pick(ALPHABET);
  return s;
}

/** Runs `f`; anything thrown must be a DgraphError (and not the JSON safety net, unless allowed). */
function expectOnlyDgraphErrors(input: unknown, f: () => unknown, allowSafetyNet = false): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (!(e instanceof DgraphError)) {
      throw new Error(
        `non-DgraphError ${String(e)} for input ${JSON.stringify(String(input)).slice(0, 300)}`,
      );
    }
    if (!allowSafetyNet) expect(e.message.startsWith("invalid JSON mutation:"), e.message).toBe(false);
    expect(e.code).toBe("ErrorInvalidRequest");
    return false;
  }
}

function checkEdges(edges: Edge[]): void {
  for (const e of edges) {
    expect(["uid", "blank", "var"]).toContain(e.subject.kind);
    expect(typeof e.predicate).toBe("string");
    expect(["node", "literal", "valVar", "star"]).toContain(e.object.kind);
    expect(Array.isArray(e.facets)).toBe(true);
  }
}

const SUBJECTS = [
  "_:a",
  "<0x1>",
  "<26>",
  "<0>",
  "<alice>",
  "uid(v)",
  "uid( v )",
  "*",
  "_:a.b",
  "<_:x>",
  "val(x)",
  "</en/x>",
];
const PREDICATES = [
  "<name>",
  "<dgraph.type>",
  "*",
  "<~f>",
  "<a@en>",
  "<>",
  "<na\u00a0me>",
  "<->",
  "<*>",
  "<p\\u0041>",
];
const OBJECTS = [
  `"x"`,
  `"x"@en`,
  `"*"`,
  `""`,
  `"1"^^<xs:int>`,
  `"a"^^<xs:int>`,
  `"1.5"^^<xs:double>`,
  `"true"^^<xs:boolean>`,
  `"2006-01-02"^^<xs:dateTime>`,
  `"2006"^^<http://www.w3.org/2001/XMLSchema#gYear>`,
  `"1.5"^^<xs:decimal>`,
  `"[1,2]"^^<xs:[]float32>`,
  `"p"^^<xs:password>`,
  `"{\\"type\\":\\"Point\\",\\"coordinates\\":[1,2]}"^^<geo:geojson>`,
  `"x"^^<xs:unknown>`,
  `"esc \\" \\\\ \\n \\u00e9 \\U0001F600"`,
  "_:b",
  "<0x2>",
  "</en/y>",
  "*",
  "uid(w)",
  "val(x)",
];
const FACETS = [
  "",
  " (a=1)",
  ` (b="x", c=2006-01-02)`,
  " (k=)",
  " (=1)",
  " (w=0.5, f=false)",
  " (a~b=1)",
  " (k=1,k=2)",
];
const ENDINGS = [" .", ".", "", " . # c", " . x", " <0x0> .", " <ns> ."];

function randomNQuad(): string {
  return `${pick(SUBJECTS)} ${pick(PREDICATES)} ${pick(OBJECTS)}${pick(FACETS)}${pick(ENDINGS)}`;
}

describe("fuzzing the mutation parsers", () => {
  it("throws only DgraphError for thousands of random and mutated N-Quad lines", () => {
    let parsed = 0;
    for (let i = 0; i < 6000; i++) {
      const r = rand();
      const text = r < 0.4 ? randomNQuad() : r < 0.85 ? mutate(randomNQuad()) : randomText(40);
      const options = { op: rand() < 0.5 ? ("set" as const) : ("delete" as const), iriAsBlank: rand() < 0.5 };
      if (
        expectOnlyDgraphErrors(text, () => {
          const edges = parseNQuads(text, options);
          checkEdges(edges);
        })
      ) {
        parsed++;
      }
    }
    // Both outcomes must be well represented for the fuzzing to mean anything.
    expect(parsed).toBeGreaterThan(300);
    expect(parsed).toBeLessThan(5500);
  });

  it("throws only DgraphError for multi-line inputs fed in random chunks", () => {
    for (let i = 0; i < 300; i++) {
      const lines = Array.from({ length: 1 + int(8) }, () =>
        rand() < 0.7 ? randomNQuad() : mutate(randomNQuad()),
      );
      const text = lines.join(pick(["\n", "\r\n", "\n\n"]));
      expectOnlyDgraphErrors(text, () => {
        const parser = new NQuadChunkParser({ op: "delete", iriAsBlank: true });
        for (let at = 0; at < text.length; ) {
          const n = 1 + int(20);
          parser.push(text.slice(at, at + n));
          at += n;
        }
        parser.end();
      });
    }
  });

  it("throws only DgraphError for random and mutated mutation blocks", () => {
    const tokens = [
      "upsert",
      "{",
      "}",
      "query",
      "mutation",
      "@if(eq(len(v), 0))",
      "@if(",
      ")",
      "set",
      "delete",
      "del",
      "schema",
      "dropall",
      "fragment f",
      '"',
      '"x}"',
      "\\",
      "# c\n",
      "\n",
      " ",
      "q(func: uid(1)) { uid }",
    ];
    const valid = [
      `{ set { _:a <name> "A" . } delete { <0x1> <name> * . } }`,
      `upsert { query { q(func: eq(e, "x")) { v as uid } } mutation @if(eq(len(v), 0)) { set { _:n <e> "x" . } } fragment f { name } }`,
    ];
    let parsed = 0;
    for (let i = 0; i < 4000; i++) {
      const r = rand();
      const text =
        r < 0.5
          ? mutate(pick(valid))
          : r < 0.9
            ? Array.from({ length: 1 + int(14) }, () => (rand() < 0.9 ? pick(tokens) : randomNQuad())).join(
                " ",
              )
            : randomText(30);
      const ok = expectOnlyDgraphErrors(text, () => {
        const block = parseMutationBlock(text);
        for (const m of block.mutations) {
          if (m.setNquads !== undefined)
            expectOnlyDgraphErrors(m.setNquads, () => parseNQuads(m.setNquads ?? ""));
          if (m.delNquads !== undefined) {
            expectOnlyDgraphErrors(m.delNquads, () => parseNQuads(m.delNquads ?? "", { op: "delete" }));
          }
        }
      });
      if (ok) parsed++;
    }
    expect(parsed).toBeGreaterThan(100);
  });

  const KEYS = [
    "uid",
    "name",
    "name@en",
    "@en",
    "friend",
    "name|k",
    "friend|close",
    "nick",
    "nick|k",
    "dgraph.type",
    "~x",
    "",
    "*",
    "loc",
    "type",
    "coordinates",
    "namespace",
    "__proto__",
    "my key",
    "|",
  ];
  const STRINGS = [
    "0x1",
    "_:a",
    "uid(v)",
    "val(x)",
    "",
    "uid(",
    "2006-01-02",
    "abc",
    "0",
    "0x0",
    "Point",
    "-1",
    "1e3",
  ];

  function randomJson(depth: number): unknown {
    const r = rand();
    if (depth > 4 || r < 0.35) {
      switch (int(9)) {
        case 0:
          return pick(STRINGS);
        case 1:
          return pick([0, 1, -1, 1.5, 1e20, 2 ** 60, 31]);
        case 2:
          return new JsonFloat(pick([0, 2, -3]));
        case 3:
          return rand() < 0.5;
        case 4:
          return null;
        case 5:
          return {
            type: pick(["Point", "Polygon", "MultiPolygon", "Nope"]),
            coordinates: randomJson(depth + 1),
          };
        case 6:
          return [pick([1, 2.5]), pick([3, new JsonFloat(4)])];
        default:
          return pick(STRINGS);
      }
    }
    if (r < 0.55) return Array.from({ length: int(4) }, () => randomJson(depth + 1));
    const o: Record<string, unknown> = {};
    for (let k = int(6); k > 0; k--) {
      Object.defineProperty(o, pick(KEYS), {
        value: randomJson(depth + 1),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return o;
  }

  it("throws only DgraphError for thousands of random JSON mutation values", () => {
    let n = 0;
    const ctx = { nextBlankLabel: () => `dg.1.${++n}` };
    let parsed = 0;
    for (let i = 0; i < 4000; i++) {
      const value = randomJson(0);
      for (const op of ["set", "delete"] as const) {
        if (
          expectOnlyDgraphErrors(JSON.stringify(value), () => checkEdges(parseJsonMutation(value, op, ctx)))
        )
          parsed++;
      }
    }
    expect(parsed).toBeGreaterThan(1000);
  });

  it("throws only DgraphError for random and mutated JSON texts", () => {
    const ctx = { nextBlankLabel: () => "dg.1.1" };
    for (let i = 0; i < 4000; i++) {
      const text = rand() < 0.8 ? mutate(JSON.stringify(randomJson(0)) ?? "null") : randomText(20);
      expectOnlyDgraphErrors(text, () => {
        const value = parseJsonText(text);
        parseJsonMutation(value, rand() < 0.5 ? "set" : "delete", ctx);
      });
    }
  });

  it("throws only DgraphError for values no JSON parser produces", () => {
    const ctx = { nextBlankLabel: () => "dg.1.1" };
    const cyclic: Record<string, unknown> = { uid: "_:a" };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { name: "leaf" };
    for (let i = 0; i < 20000; i++) deep = { child: deep };
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new TypeError("no keys for you");
        },
      },
    );
    const exotic: unknown[] = [
      cyclic,
      deep,
      hostile,
      { uid: "_:a", big: 10n },
      { uid: "_:a", sym: Symbol("s") },
      { uid: "_:a", fn: () => 1 },
      { uid: "_:a", when: new Date(0), map: new Map([[1, 2]]) },
      { uid: "_:a", n: Number.NaN, inf: Number.POSITIVE_INFINITY },
      { uid: 1.5, name: "x" },
      { uid: -3, name: "x" },
      { uid: true, name: "x" },
      "a string",
      42,
      [[{}]],
      [null],
    ];
    for (const value of exotic) {
      for (const op of ["set", "delete"] as const) {
        expectOnlyDgraphErrors(value, () => parseJsonMutation(value, op, ctx), true);
      }
    }
  });
});
