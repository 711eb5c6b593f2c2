import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import type { Edge } from "../../src/mutation/edge.ts";
import { NQuadChunkParser, parseNQuadsStream } from "../../src/mutation/nquad-chunk-parser.ts";
import type { NQuadOptions } from "../../src/mutation/rdf-parser.ts";
import { parseNQuads } from "../../src/mutation/rdf-parser.ts";

function one(line: string, options?: NQuadOptions): Edge {
  const edges = parseNQuads(line, options);
  expect(edges).toHaveLength(1);
  return edges[0];
}

function errorOf(text: string, options?: NQuadOptions): string {
  try {
    parseNQuads(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(DgraphError);
    expect((e as DgraphError).code).toBe("ErrorInvalidRequest");
    return (e as DgraphError).message;
  }
  throw new Error(`expected an error for ${text}`);
}

describe("parseNQuads: terms", () => {
  it("reads a blank-node subject, an IRI predicate and a plain literal as a default-typed value", () => {
    expect(one(`_:alice <name> "Alice" .`)).toEqual({
      subject: { kind: "blank", label: "alice" },
      predicate: "name",
      object: { kind: "literal", type: "default", value: "Alice" },
      facets: [],
      list: false,
    });
  });

  it("reads hex and decimal uids in subject and object position", () => {
    const e = one(`<0x1a> <friend> <27> .`);
    expect(e.subject).toEqual({ kind: "uid", uid: 26 });
    expect(e.object).toEqual({ kind: "node", ref: { kind: "uid", uid: 27 } });
  });

  it("rejects uid 0 with Dgraph's message", () => {
    expect(errorOf(`<0x0> <name> "x" .`)).toBe("UID must to be greater than 0");
    expect(errorOf(`_:a <friend> <0> .`)).toBe("UID must to be greater than 0");
  });

  it("rejects an IRI subject that is not a uid with Go's ParseUint error", () => {
    expect(errorOf(`<alice> <name> "Alice" .`)).toBe('strconv.ParseUint: parsing "alice": invalid syntax');
    expect(errorOf(`_:a <friend> <bob> .`)).toBe('strconv.ParseUint: parsing "bob": invalid syntax');
  });

  it("maps non-uid IRIs to blank nodes labelled by the IRI when iriAsBlank is set", () => {
    const e = one(`</en/larry_fine_1902> </people/person/name> </en/x> .`, { iriAsBlank: true });
    expect(e.subject).toEqual({ kind: "blank", label: "/en/larry_fine_1902" });
    expect(e.predicate).toBe("/people/person/name");
    expect(e.object).toEqual({ kind: "node", ref: { kind: "blank", label: "/en/x" } });
    expect(one(`<0x5> <p> <x> .`, { iriAsBlank: true }).subject).toEqual({ kind: "uid", uid: 5 });
  });

  it("reads uid(v) subjects and objects and val(x) objects of upserts", () => {
    expect(one(`uid(v) <friend> uid( w ) .`)).toMatchObject({
      subject: { kind: "var", name: "v" },
      object: { kind: "node", ref: { kind: "var", name: "w" } },
    });
    expect(one(`uid(v) <age> val(a) .`).object).toEqual({ kind: "valVar", name: "a" });
  });

  it("accepts <dgraph.type> and predicates without spaces between terms", () => {
    expect(one(`_:a <dgraph.type> "Person".`).predicate).toBe("dgraph.type");
    expect(one(`<0x1><p><0x2>.`).object).toEqual({ kind: "node", ref: { kind: "uid", uid: 2 } });
  });

  it("rejects blank labels with @ or spaces and labels ending in a dot", () => {
    expect(errorOf(`_:a@b <name> "x" .`)).toContain("Invalid character '@' found for itemType");
    expect(errorOf(`_:a <friend> _:b.`)).toContain("Can not end 8 with '.'");
    expect(errorOf(`_: <name> "x" .`)).toContain("while lexing");
  });

  it("rejects unquoted words and missing terms", () => {
    expect(errorOf(`alice <name> "Alice" .`)).toContain("while lexing alice <name>");
    expect(errorOf(`_:a <name> .`)).toContain("Invalid input: . at lexText");
    expect(errorOf(`_:a <name> "x"`)).toBe(`invalid end of input. Input: [_:a <name> "x"]`);
  });

  it("rejects a second statement on the same line", () => {
    expect(errorOf(`_:a <p> "x" . _:b <p> "y" .`)).toBe(
      `invalid end of input. Expected newline or # after . Input: [_:a <p> "x" . _:b <p> "y" .]`,
    );
  });

  it("skips comments, blank lines and trailing comments, and accepts CRLF line ends", () => {
    const text = `# header\n\n  _:a <name> "A" . # trailing\r\n\t\n_:b <name> "B" .`;
    expect(parseNQuads(text).map((e) => e.object)).toEqual([
      { kind: "literal", type: "default", value: "A" },
      { kind: "literal", type: "default", value: "B" },
    ]);
  });

  it("hints list for uid objects and not for literals", () => {
    const [uidEdge, valueEdge] = parseNQuads(`_:a <friend> _:b .\n_:a <name> "x" .`);
    expect(uidEdge.list).toBe(true);
    expect(valueEdge.list).toBe(false);
  });
});

describe("parseNQuads: literals", () => {
  it('decodes escapes \\" \\\\ \\n \\t \\r \\uXXXX \\UXXXXXXXX', () => {
    const e = one(String.raw`_:a <p> "q\"b\\n\nt\tr\ru\u00e9U\U0001F600" .`);
    expect(e.object).toMatchObject({ value: 'q"b\\n\nt\tr\ru\u00e9U😀' });
  });

  it("rejects escapes the N-Quads grammar does not allow", () => {
    expect(errorOf(String.raw`_:a <p> "\q" .`)).toContain("Invalid escape character : 'q' in literal");
    expect(errorOf(String.raw`_:a <p> "\'" .`)).toBe("while unquoting: invalid syntax");
    expect(errorOf(`_:a <p> "open .`)).toBe("while unquoting: invalid syntax");
  });

  it("attaches @lang tags, also when written on the predicate", () => {
    expect(one(`_:a <name> "Alicia"@es-419 .`).object).toEqual({
      kind: "literal",
      type: "default",
      value: "Alicia",
      lang: "es-419",
    });
    expect(one(`_:a <name@fr> "Alice" .`)).toMatchObject({ predicate: "name", object: { lang: "fr" } });
    expect(errorOf(`_:a <name> "x"@en- .`)).toContain("Invalid character - at the end of language literal.");
  });

  it("converts typed literals of every xs: type Dgraph knows", () => {
    const cases: [string, string, unknown][] = [
      [`"x"^^<xs:string>`, "string", "x"],
      [`"12"^^<xs:int>`, "int", 12],
      [`"0x10"^^<xs:integer>`, "int", 16],
      [`"7"^^<xs:positiveInteger>`, "int", 7],
      [`"true"^^<xs:boolean>`, "bool", true],
      [`"F"^^<xs:boolean>`, "bool", false],
      [`"1.5"^^<xs:double>`, "float", 1.5],
      [`"2e3"^^<xs:float>`, "float", 2000],
      [`"2006-01-02"^^<xs:date>`, "datetime", "2006-01-02T00:00:00Z"],
      [`"2006-01-02T15:04:05+05:30"^^<xs:dateTime>`, "datetime", "2006-01-02T15:04:05+05:30"],
      [`"aGk="^^<xs:base64Binary>`, "binary", "aGk="],
      [`"3.14159265358979323846"^^<xs:decimal>`, "bigfloat", "3.14159265358979323846"],
      [`"secret123"^^<xs:password>`, "password", "secret123"],
      [`"[1.5, 2, 3e-1]"^^<xs:[]float32>`, "float32vector", [1.5, 2, Math.fround(0.3)]],
      [`"2006"^^<http://www.w3.org/2001/XMLSchema#gYear>`, "datetime", "2006-01-01T00:00:00Z"],
      [`"2006-03"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>`, "datetime", "2006-03-01T00:00:00Z"],
      [`"5"^^<http://www.w3.org/2001/XMLSchema#int>`, "int", 5],
    ];
    for (const [literal, type, value] of cases) {
      expect(one(`_:a <p> ${literal} .`).object, literal).toEqual({ kind: "literal", type, value });
    }
  });

  it("parses geo:geojson literals into geometry objects", () => {
    const e = one(
      String.raw`_:a <loc> "{\"type\":\"Point\",\"coordinates\":[-122.4,37.7]}"^^<geo:geojson> .`,
    );
    expect(e.object).toEqual({
      kind: "literal",
      type: "geo",
      value: { type: "Point", coordinates: [-122.4, 37.7] },
    });
    expect(errorOf(String.raw`_:a <loc> "{\"type\":\"Blob\"}"^^<geo:geojson> .`)).toContain("geojson");
  });

  it("reports unknown types, bad values and empty non-string values as Dgraph does", () => {
    expect(errorOf(`_:a <p> "x"^^<xs:foo> .`)).toBe("unrecognized rdf type xs:foo");
    expect(errorOf(`_:a <p> "abc"^^<xs:int> .`)).toBe('strconv.ParseInt: parsing "abc": invalid syntax');
    expect(errorOf(`_:a <p> "maybe"^^<xs:boolean> .`)).toBe(
      'strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(errorOf(`_:a <p> ""^^<xs:int> .`)).toBe("invalid ObjectValue");
    expect(one(`_:a <p> ""^^<xs:string> .`).object).toEqual({ kind: "literal", type: "string", value: "" });
    expect(errorOf(`_:a <p> "99999999999999999999"^^<xs:int> .`)).toContain("value out of range");
  });
});

describe("parseNQuads: facets", () => {
  it("infers int, float, bool, datetime and string facets, sorted by key", () => {
    const e = one(
      `_:a <friend> _:b (since=2006-01-02T15:04:05, first=true, weight=0.1, count=3, note="te\\"xt") .`,
    );
    expect(e.facets).toEqual([
      { key: "count", value: 3, type: "int" },
      { key: "first", value: true, type: "bool" },
      { key: "note", value: 'te"xt', type: "string" },
      { key: "since", value: "2006-01-02T15:04:05Z", type: "datetime" },
      { key: "weight", value: 0.1, type: "float" },
    ]);
  });

  it("keeps quoted numbers as strings and an empty value as the empty string", () => {
    expect(one(`_:a <p> "x" (n="13", e=) .`).facets).toEqual([
      { key: "e", value: "", type: "string" },
      { key: "n", value: "13", type: "string" },
    ]);
  });

  it("reads Go integer forms and out-of-range digits like Dgraph", () => {
    expect(one(`_:a <p> "x" (h=0x1F, o=010, u=1_000) .`).facets.map((f) => f.value)).toEqual([31, 8, 1000]);
    expect(errorOf(`_:a <p> "x" (n=99999999999999999999) .`)).toBe(
      'could not parse facet: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
  });

  it("rejects facet values it cannot type, and malformed facet lists", () => {
    expect(errorOf(`_:a <p> "x" (k=abc) .`)).toBe(
      "could not parse facet: Could not parse the facet value : [abc]",
    );
    expect(errorOf(`_:a <p> "x" (k 1) .`)).toContain("could not parse facet: expected = after facetKey");
    expect(errorOf(`_:a <p> "x" () .`)).toContain("could not parse facet: expected key but found )");
  });

  it("rejects facet keys with ~ or @ in sets but not in deletes", () => {
    expect(errorOf(`_:a <p> "x" (a~b=1) .`)).toMatch(/^key error: .*: Facet "a~b", Has invalid characters$/);
    expect(one(`<0x1> <p> "x" (a~b=1) .`, { op: "delete" }).facets).toHaveLength(1);
  });

  it("rejects a repeated facet key in sets", () => {
    expect(errorOf(`_:a <p> "x" (k=1, k=2) .`)).toBe("Repeated keys are not allowed in facets. But got k");
  });
});

describe("parseNQuads: stars and predicate checks", () => {
  it("accepts S P * and S * * in deletes", () => {
    expect(one(`<0x1> <name> * .`, { op: "delete" })).toMatchObject({
      predicate: "name",
      object: { kind: "star" },
    });
    expect(one(`<0x1> * * .`, { op: "delete" })).toMatchObject({ predicate: "*", object: { kind: "star" } });
    expect(one(`uid(v) <name> * .`, { op: "delete" }).subject).toEqual({ kind: "var", name: "v" });
  });

  it('treats an untyped literal "*" as the star, as Dgraph does', () => {
    expect(one(`<0x1> <name> "*" .`, { op: "delete" }).object).toEqual({ kind: "star" });
  });

  it("rejects other wildcard deletes", () => {
    const msg = "Only valid wildcard delete patterns are 'S * *' and 'S P *': ";
    expect(errorOf(`* <name> "x" .`, { op: "delete" })).toContain(msg);
    expect(errorOf(`<0x1> * "x" .`, { op: "delete" })).toContain(msg);
    expect(errorOf(`* * * .`, { op: "delete" })).toContain(msg);
  });

  it("rejects any star in sets", () => {
    for (const line of [`<0x1> <name> * .`, `<0x1> * * .`, `* <name> "x" .`]) {
      expect(errorOf(line, { op: "set" })).toMatch(/^Cannot use star in set n-quad: /);
    }
  });

  it("rejects a typed literal under a star subject or predicate", () => {
    expect(errorOf(`<0x1> * "1"^^<xs:int> .`, { op: "delete" })).toBe(
      "if predicate/subject is *, value should be * as well",
    );
  });

  it("rejects ~ and @ in set predicates, allows them in deletes", () => {
    expect(errorOf(`_:a <~friend> _:b .`)).toMatch(
      /^key error: .*: predicate "~friend": Has invalid characters$/,
    );
    expect(errorOf(`_:a <@x> "y" .`)).toContain('predicate "@x": Has invalid characters');
    expect(one(`<0x1> <~friend> * .`, { op: "delete" }).predicate).toBe("~friend");
  });

  it("rejects white space in set predicates", () => {
    expect(errorOf(`_:a <na\u00a0me> "x" .`)).toContain("Must not contain spaces");
  });

  it("rejects predicate names longer than 2^16 bytes", () => {
    const long = "p".repeat(65536);
    expect(errorOf(`_:a <${long}> "x" .`, { op: "delete" })).toBe(
      `Predicate name length cannot be bigger than 2^16. Predicate: ${"p".repeat(80)}`,
    );
    expect(one(`_:a <${"p".repeat(65535)}> "x" .`).predicate).toHaveLength(65535);
  });

  it("rejects terms without a letter or digit (Dgraph's sanity check)", () => {
    expect(errorOf(`_:_ <name> "x" .`)).toMatch(/^NQuad failed sanity check:/);
    expect(errorOf(`_:a <-> "x" .`)).toMatch(/^NQuad failed sanity check:/);
  });
});

describe("incremental parsing", () => {
  const text = `_:a <name> "A" .\n_:b <name> "B" .\n_:c <friend> _:a .\n_:d <name> "D" .`;

  it("parses chunks cut in the middle of lines", () => {
    const parser = new NQuadChunkParser();
    const edges: Edge[] = [];
    for (let i = 0; i < text.length; i += 7) parser.push(text.slice(i, i + 7), edges);
    parser.end(edges);
    expect(edges).toEqual(parseNQuads(text));
  });

  it("parses a stream of UTF-8 byte chunks split inside a character", async () => {
    const bytes = Buffer.from(`_:a <name> "Zoë" .\n_:b <name> "Łukasz" .\n`);
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
    }
    const edges: Edge[] = [];
    for await (const batch of parseNQuadsStream(chunks())) edges.push(...batch);
    expect(edges.map((e) => (e.object as { value: string }).value)).toEqual(["Zoë", "Łukasz"]);
  });
});
