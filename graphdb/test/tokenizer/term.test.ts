import { describe, expect, it } from "vitest";
import { termStrings, termTokenizer } from "../../src/tokenizer/term.ts";
import { analyzeWords } from "../../src/tokenizer/words.ts";

const decoder = new TextDecoder();

function termsOf(value: string, lang?: string): string[] {
  return termTokenizer.tokens({ type: "string", value }, lang).map((t) => decoder.decode(t.subarray(1)));
}

describe("term tokenizer", () => {
  it("splits on word boundaries and lower-cases", () => {
    expect(termsOf("Steven Spielberg")).toEqual(["steven", "spielberg"]);
    expect(termsOf("Marc Caro, Jean-Pierre Jeunet!")).toEqual(["marc", "caro", "jean", "pierre", "jeunet"]);
  });

  it("prefixes every token with the term id 0x1", () => {
    for (const t of termTokenizer.tokens({ type: "string", value: "a b c" })) expect(t[0]).toBe(0x01);
  });

  it("returns each term once", () => {
    expect(termsOf("the THE The the")).toEqual(["the"]);
  });

  it("keeps apostrophes, decimal points and connectors inside words (Unicode word rules)", () => {
    expect(analyzeWords("don't 3.14 1,000 foo_bar e.g.")).toEqual([
      "don't",
      "3.14",
      "1,000",
      "foo_bar",
      "e.g",
    ]);
  });

  it("normalises with NFKC after lower-casing", () => {
    expect(analyzeWords("ﬁne Ａｂｃ")).toEqual(["fine", "abc"]);
    expect(analyzeWords("CAFÉ")).toEqual(["café"]);
  });

  it("drops punctuation, symbols and emoji", () => {
    expect(analyzeWords("hello🙂world -- $5 ?!")).toEqual(["hello", "world", "5"]);
  });

  it("makes each ideograph a word and keeps katakana runs together", () => {
    expect(analyzeWords("東京タワー")).toEqual(["東", "京", "タワー"]);
  });

  it("splits Chinese/Japanese/Thai values on spaces only, as Dgraph does", () => {
    expect(termStrings("東京 タワー 東京", "ja")).toEqual(["東京", "タワー"]);
  });

  it("indexes the empty string as one empty term", () => {
    const tokens = termTokenizer.tokens({ type: "string", value: "" });
    expect(tokens).toHaveLength(1);
    expect([...tokens[0]]).toEqual([0x01]);
  });

  it("is lossy and not sortable", () => {
    expect(termTokenizer.lossy).toBe(true);
    expect(termTokenizer.sortable).toBe(false);
  });

  it("tokenizes a short name in about a microsecond", () => {
    const value = { type: "string" as const, value: "Steven Spielberg" };
    for (let i = 0; i < 20_000; i++) termTokenizer.tokens(value);
    const n = 100_000;
    const start = performance.now();
    for (let i = 0; i < n; i++) termTokenizer.tokens(value);
    const microsPerCall = ((performance.now() - start) * 1000) / n;
    expect(microsPerCall).toBeLessThan(5); // ~0.3 µs on the dev machine; loose bound for noisy CI
  });
});
