import { describe, expect, it } from "vitest";
import { GALAXY_KEYS, keyString, latin1Bytes } from "../../src/store/keys.ts";
import { getTokenizer, tokenizerNames } from "../../src/tokenizer/registry.ts";
import { seededRandom } from "../seeded-random.ts";

/** The galaxy's keys: the layout every store had before namespaces. */
const indexKey = GALAXY_KEYS.indexKey.bind(GALAXY_KEYS);
const indexKeyPrefix = GALAXY_KEYS.indexKeyPrefix.bind(GALAXY_KEYS);

const ALPHABET = ["a", "b", "Z", " ", "-", "é", "ß", "日本", "😀", "the", "running", "Film", "\u0301", "İ"];

function randomText(rnd: () => number): string {
  let s = "";
  const n = Math.floor(rnd() * 8);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

describe("tokenKeys", () => {
  it("prefixed with indexKeyPrefix, are the index keys' latin1 strings, and latin1Bytes gives the bytes back", () => {
    const rnd = seededRandom(5);
    for (const pred of ["name", "名前", "a.b", "x".repeat(300)]) {
      for (let i = 0; i < 200; i++) {
        const token = getTokenizer("term")!.tokens({ type: "string", value: randomText(rnd) })[0];
        if (token === undefined) continue;
        const key = indexKey(pred, token);
        expect(indexKeyPrefix(pred) + keyString(token)).toBe(keyString(key));
        expect(latin1Bytes(keyString(key))).toEqual(key);
      }
    }
  });

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
          expect(t.tokenKeys!(value, lang)).toEqual(t.tokens(value, lang).map((t) => keyString(t)));
        }
      }
    }
  });
});
