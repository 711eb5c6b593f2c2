import { describe, expect, it } from "vitest";
import type { ScalarType } from "../../src/core/scalar.ts";
import { getTokenizer, getTokenizerById, queryTokens, tokenizerNames } from "../../src/tokenizer/registry.ts";

/** Identifiers of Dgraph's `tok` package (storage-perf §3 and tok.go). */
const DGRAPH_IDS: Record<string, number> = {
  term: 0x1,
  exact: 0x2,
  year: 0x4,
  geo: 0x5,
  int: 0x6,
  float: 0x7,
  fulltext: 0x8,
  bool: 0x9,
  trigram: 0xa,
  hash: 0xb,
  sha256: 0xc,
  month: 0x41,
  day: 0x42,
  hour: 0x43,
};

const SAMPLE: Record<ScalarType, unknown> = {
  string: "Hello World",
  int: 42,
  float: 4.5,
  bool: true,
  datetime: "2006-01-02T15:04:05Z",
  geo: { type: "Point", coordinates: [-122.4, 37.8] },
  bigfloat: "1.25",
  default: "x",
  password: "secret",
  uid: 1,
  binary: "x",
  float32vector: [1],
};

describe("tokenizer registry", () => {
  it("uses Dgraph's tokenizer identifiers", () => {
    for (const [name, id] of Object.entries(DGRAPH_IDS)) expect(getTokenizer(name)?.id, name).toBe(id);
  });

  it("gives every tokenizer a distinct id and finds it by id", () => {
    const ids = tokenizerNames().map((n) => getTokenizer(n)!.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const name of tokenizerNames()) expect(getTokenizerById(getTokenizer(name)!.id)?.name).toBe(name);
  });

  it("starts every token with the tokenizer's id", () => {
    for (const name of tokenizerNames()) {
      const t = getTokenizer(name)!;
      const type = t.allowedTypes[0];
      const value = name === "sha256" ? "a".repeat(64) : SAMPLE[type];
      const tokens = t.tokens({ type, value: value as never });
      expect(tokens.length, name).toBeGreaterThan(0);
      for (const token of tokens) expect(token[0], name).toBe(t.id);
    }
  });

  it("knows which tokenizers are lossy as Dgraph does (hash and float differ, see their docs)", () => {
    for (const name of ["exact", "int", "bool", "sha256"])
      expect(getTokenizer(name)!.lossy, name).toBe(false);
    for (const name of ["term", "fulltext", "trigram", "year", "month", "day", "hour", "geo"]) {
      expect(getTokenizer(name)!.lossy, name).toBe(true);
    }
  });

  it("restricts each tokenizer to its predicate type", () => {
    expect(getTokenizer("term")!.allowedTypes).toEqual(["string"]);
    expect(getTokenizer("int")!.allowedTypes).toEqual(["int"]);
    expect(getTokenizer("year")!.allowedTypes).toEqual(["datetime"]);
    expect(getTokenizer("geo")!.allowedTypes).toEqual(["geo"]);
  });

  it("does not know datetime as a tokenizer name", () => {
    expect(getTokenizer("datetime")).toBeUndefined();
  });

  it("rejects unknown tokenizers on the query side with a DgraphError", () => {
    expect(() => queryTokens("nope", { type: "string", value: "x" })).toThrow(/Tokenizer not found for nope/);
  });

  it("tokenizes bool as one byte after the id", () => {
    expect([...getTokenizer("bool")!.tokens({ type: "bool", value: true })[0]]).toEqual([0x09, 1]);
    expect([...getTokenizer("bool")!.tokens({ type: "bool", value: false })[0]]).toEqual([0x09, 0]);
  });
});
