import { describe, expect, it } from "vitest";
import { getTokenizer, tokenizerNames } from "../../src/tokenizer/registry.ts";
import { tokenKey } from "../../src/tokenizer/token-bytes.ts";
import { seededRandom } from "../seeded-random.ts";

const ALPHABET = ["a", "b", "Z", " ", "-", "é", "ß", "日本", "😀", "the", "running", "Film", "\u0301", "İ"];

function randomText(rnd: () => number): string {
  let s = "";
  const n = Math.floor(rnd() * 8);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

describe("tokenKeys", () => {
  it("gives exactly the tokens' bytes as latin1 strings, for every string tokenizer that has it", () => {
    const rnd = seededRandom(11);
    const withKeys = tokenizerNames()
      .map((n) => getTokenizer(n)!)
      .filter((t) => t.tokenKeys !== undefined);
    expect(withKeys.map((t) => t.name).sort()).toEqual(["exact", "fulltext", "hash", "term", "trigram"]);
    for (let i = 0; i < 2000; i++) {
      const value = { type: "string" as const, value: randomText(rnd) };
      for (const lang of ["", "en", "de", "ja"]) {
        for (const t of withKeys) {
          expect(t.tokenKeys!(value, lang)).toEqual(t.tokens(value, lang).map(tokenKey));
        }
      }
    }
  });
});
