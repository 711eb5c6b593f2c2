import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import { blankPredicate, type PredicateSchema } from "../../src/core/schema-types.ts";
import { parseSchema } from "../../src/schema/schema-parser.ts";

function pred(predicate: string, over: Partial<PredicateSchema>): PredicateSchema {
  return { ...blankPredicate(predicate, "default", false), ...over };
}

function errorOf(text: string): DgraphError {
  try {
    parseSchema(text);
  } catch (e) {
    expect(e).toBeInstanceOf(DgraphError);
    return e as DgraphError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe("parseSchema: declarations", () => {
  it("parses Dgraph's 1million schema", () => {
    const parsed = parseSchema(`director.film: [uid] @reverse @count .
actor.film: [uid] @count .
genre: [uid] @reverse @count .
initial_release_date: datetime @index(year) .
rating: [uid] @reverse .
country: [uid] @reverse .
loc: geo @index(geo) .
name: string @index(hash, term, trigram, fulltext) @lang .
starring: [uid] @count .
performance.character_note: string @lang .
tagline: string @lang .
cut.note: string @lang .
rated: [uid] @reverse .
email: string @index(exact) @upsert .
`);
    expect(parsed.predicates).toHaveLength(14);
    expect(parsed.predicates[0]).toEqual(
      pred("director.film", { type: "uid", list: true, reverse: true, count: true }),
    );
    expect(parsed.predicates[3]).toEqual(
      pred("initial_release_date", { type: "datetime", tokenizers: ["year"] }),
    );
    expect(parsed.predicates[7]).toEqual(
      pred("name", { type: "string", tokenizers: ["hash", "term", "trigram", "fulltext"], lang: true }),
    );
    expect(parsed.predicates[13]).toEqual(
      pred("email", { type: "string", tokenizers: ["exact"], upsert: true }),
    );
    expect(parsed.types).toEqual([]);
  });

  it("reads every scalar type, case-insensitively, and lists", () => {
    const parsed = parseSchema(`a: default .
b: INT .
c: Float .
d: string .
e: bool .
f: dateTime .
g: geo .
h: password .
i: uid .
j: binary .
k: bigfloat .
l: float32vector .
m: [string] .
n: [int] .
o: [datetime] .
`);
    expect(parsed.predicates.map((p) => [p.predicate, p.type, p.list])).toEqual([
      ["a", "default", false],
      ["b", "int", false],
      ["c", "float", false],
      ["d", "string", false],
      ["e", "bool", false],
      ["f", "datetime", false],
      ["g", "geo", false],
      ["h", "password", false],
      ["i", "uid", false],
      ["j", "binary", false],
      ["k", "bigfloat", false],
      ["l", "float32vector", false],
      ["m", "string", true],
      ["n", "int", true],
      ["o", "datetime", true],
    ]);
  });

  it("accepts IRI names, comments and blank lines", () => {
    const parsed = parseSchema(`# people
<http://schema.org/name>: string @index(exact) .   # trailing comment

<name_ü>: int .`);
    expect(parsed.predicates.map((p) => p.predicate)).toEqual(["http://schema.org/name", "name_ü"]);
  });

  it("reads every directive", () => {
    const [p] = parseSchema(
      "email: string @index(exact) @upsert @count @noconflict @unique @lang .",
    ).predicates;
    expect(p).toEqual(
      pred("email", {
        type: "string",
        tokenizers: ["exact"],
        upsert: true,
        count: true,
        noconflict: true,
        unique: true,
        lang: true,
      }),
    );
  });

  it("reads tokenizer names case-insensitively and keeps their order", () => {
    expect(parseSchema("name: string @index(Term, EXACT) .").predicates[0].tokenizers).toEqual([
      "term",
      "exact",
    ]);
  });

  it("accepts an hnsw vector index with options", () => {
    const parsed = parseSchema('vec: float32vector @index(hnsw(metric: "cosine", exponent: "4")) .');
    expect(parsed.predicates[0].tokenizers).toEqual(["hnsw"]);
    expect(parsed.indexSpecs.get("vec")).toEqual([
      {
        name: "hnsw",
        options: [
          { key: "metric", value: "cosine" },
          { key: "exponent", value: "4" },
        ],
      },
    ]);
  });

  it("accepts a namespace prefix", () => {
    expect(parseSchema("[0x1] name: string .").predicates[0].predicate).toBe("name");
  });

  it("accepts an empty schema", () => {
    expect(parseSchema("")).toMatchObject({ predicates: [], types: [] });
    expect(parseSchema("\n# nothing\n")).toMatchObject({ predicates: [], types: [] });
  });
});

describe("parseSchema: types", () => {
  it("parses fields, reverse fields and the old `name: type` form", () => {
    const parsed = parseSchema(`type Person {
  name
  age: int
  friends: [uid]!
  <~friend>
}
name: string .`);
    expect(parsed.types).toEqual([{ name: "Person", fields: ["name", "age", "friends", "~friend"] }]);
    expect(parsed.predicates.map((p) => p.predicate)).toEqual(["name"]);
  });

  it("lets `type` be a predicate name", () => {
    expect(parseSchema("type: string .").predicates[0].predicate).toBe("type");
  });

  it("rejects duplicate fields", () => {
    expect(errorOf("type A {\n  a\n  a\n}").message).toBe("line 4 column 0: Duplicate fields with name: a");
  });

  it("needs a new line or EOF after the closing brace", () => {
    expect(errorOf("type A {\n  a\n} x: int .").message).toMatch(
      /^line 3 column 2: Expected new line or EOF after type declaration\. Got lex\.Item \[5\] "x" at 3:2$/,
    );
  });

  it("rejects a type defined twice", () => {
    expect(errorOf("type A {\n a\n}\ntype A {\n b\n}").message).toBe("type A defined multiple times");
  });
});

describe("parseSchema: errors (line L column C: …, column = byte offset in the line)", () => {
  const cases: [string, string][] = [
    ["name string .", "line 1 column 5: Missing colon"],
    ["name:", "line 1 column 5: Missing Type"],
    ["name: foo .", "line 1 column 6: Undefined Type"],
    ["name: string", "line 1 column 12: Invalid ending"],
    ["name: string . age: int .", "line 1 column 15: Invalid ending"],
    ["name: string @index(exact)", "line 1 column 26: Invalid ending"],
    ["name@en: string .", "line 1 column 4: Invalid '@' in name"],
    ["<name@en>: string .", "line 1 column 9: Invalid '@' in name"],
    ["name: string @upserts .", "line 1 column 14: Invalid index specification"],
    ["age: int @reverse .", "line 1 column 10: Cannot reverse for non-UID type"],
    [
      "age: int @lang .",
      "line 1 column 10: @lang directive can only be specified for string type. Got: [int] for attr: [age]",
    ],
    [
      "names: [string] @lang .",
      "line 1 column 17: @lang directive can only be specified for string type. Got: [string] for attr: [names]",
    ],
    ["name: string @index .", "line 1 column 14: Require type of tokenizer for pred: name for indexing."],
    ["name: string @index(foo) .", "line 1 column 20: Invalid tokenizer foo"],
    [
      "age: int @index(term) .",
      "line 1 column 16: Tokenizer: term isn't valid for predicate: age of type: int",
    ],
    ["when: datetime @index(datetime) .", "line 1 column 22: Invalid tokenizer datetime"],
    [
      "name: string @index(exact, exact) .",
      "line 1 column 25: Only one index tokenizer can be sortable for name",
    ],
    [
      "name: string @index(term, term) .",
      "line 1 column 24: Duplicate tokenizers defined for predicate name",
    ],
    ["d: datetime @index(year, month) .", "line 1 column 23: Only one index tokenizer can be sortable for d"],
    ["friend: uid @index(exact) .", "line 1 column 13: Indexing not allowed on predicate friend of type uid"],
    ["x: default @index(exact) .", "line 1 column 12: Indexing not allowed on predicate x of type default"],
    ["p: password @index(exact) .", "line 1 column 13: Indexing not allowed on predicate p of type password"],
    ["flags: [bool] .", "line 1 column 8: Unsupported type for list: [bool]."],
    ["pwds: [password] .", "line 1 column 7: Unsupported type for list: [password]."],
    ["names: [string .", "line 1 column 15: Unclosed [ while parsing schema for: names"],
    ["a: string .\nb: int @reverse .", "line 2 column 8: Cannot reverse for non-UID type"],
    ["a: string .\r\nb: int @reverse .", "line 3 column 8: Cannot reverse for non-UID type"],
    [
      "é: string .\nx: [bool] .",
      "while lexing é: string .\nx: [bool] . at line 1 column 0: Invalid schema. Unexpected é",
    ],
    [
      "a: string . # ok\nb: string $",
      "while lexing a: string . # ok\nb: string $ at line 2 column 10: Invalid schema. Unexpected $",
    ],
  ];
  for (const [text, message] of cases) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      const e = errorOf(text);
      expect(e.message).toBe(message);
      expect(e.code).toBe("Error");
    });
  }

  it("counts columns in UTF-8 bytes", () => {
    expect(errorOf("<é>: foo .").message).toBe("line 1 column 6: Undefined Type");
  });

  it("rejects a predicate declared twice, without a position", () => {
    expect(errorOf("name: string .\nname: int .").message).toBe("predicate name defined multiple times");
  });

  it("requires an index for @upsert", () => {
    expect(errorOf("email: string @upsert .").message).toBe(
      "Index tokenizer is mandatory for: [email] when specifying @upsert directive",
    );
  });

  it("requires a matching index for @unique", () => {
    expect(() => parseSchema("email: string @index(term) @unique .")).toThrow(DgraphError);
    expect(() => parseSchema("id: int @unique .")).toThrow(DgraphError);
    expect(parseSchema("email: string @index(hash) @unique .").predicates[0].unique).toBe(true);
  });

  it("rejects hnsw on a non-vector predicate and unknown hnsw options", () => {
    expect(errorOf("v: string @index(hnsw) .").message).toBe(
      "line 1 column 17: IndexFactory: hnsw isn't valid for predicate: v of type: string",
    );
    expect(() => parseSchema('v: float32vector @index(hnsw(metric: "manhattan")) .')).toThrow(DgraphError);
  });
});
