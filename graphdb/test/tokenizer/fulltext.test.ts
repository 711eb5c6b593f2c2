import { describe, expect, it } from "vitest";
import { fulltextStrings, fulltextTokenizer } from "../../src/tokenizer/fulltext.ts";
import { baseLanguage } from "../../src/tokenizer/language.ts";
import { queryTokens } from "../../src/tokenizer/registry.ts";

describe("fulltext tokenizer", () => {
  it("removes English stop words and stems (the docs' `the dog which barks` example)", () => {
    expect(fulltextStrings("the dog which barks")).toEqual(["dog", "bark"]);
    expect(fulltextStrings("dogs barking")).toEqual(["dog", "bark"]);
  });

  it("removes the Snowball English stop words Dgraph's filter test expects", () => {
    expect(fulltextStrings("the quick brown foxes jump over the big dogs")).toEqual([
      "quick",
      "brown",
      "fox",
      "jump",
      "big",
      "dog",
    ]);
    expect(fulltextStrings("same")).toEqual([]);
  });

  it("defaults to English without a language tag and for unknown tags", () => {
    expect(fulltextStrings("running", "")).toEqual(["run"]);
    expect(fulltextStrings("running", "x-klingon")).toEqual(["run"]);
    expect(baseLanguage("en-US")).toBe("en");
    expect(baseLanguage("zh-Hans")).toBe("zh");
  });

  it("stems with the value's language", () => {
    // Snowball French stems "chiens" to "chien"; English would leave the French word alone
    expect(fulltextStrings("chiens", "fr")).toEqual(["chien"]);
    expect(fulltextStrings("Häuser", "de")).toEqual(fulltextStrings("häuser", "de"));
  });

  it("does not stem languages without a stemmer", () => {
    expect(fulltextStrings("running", "pl")).toEqual(["running"]);
  });

  it("indexes CJK text as overlapping bigrams", () => {
    expect(fulltextStrings("東京タワー", "ja")).toEqual(["東京", "京タ", "タワ", "ワー"]);
    expect(fulltextStrings("東", "zh")).toEqual(["東"]);
  });

  it("has no terms for an empty string", () => {
    expect(fulltextTokenizer.tokens({ type: "string", value: "" })).toEqual([]);
  });

  it("gives query arguments the same tokens as stored values in the same language", () => {
    const stored = fulltextTokenizer.tokens({ type: "string", value: "Barking Dogs" }, "en");
    const query = queryTokens("fulltext", { type: "string", value: "dog barks" }, "en");
    expect(query.map((t) => [...t]).sort()).toEqual(stored.map((t) => [...t]).sort());
    for (const t of query) expect(t[0]).toBe(0x08);
  });
});
