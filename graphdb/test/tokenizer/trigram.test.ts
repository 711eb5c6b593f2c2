import { describe, expect, it } from "vitest";
import { compileDqlRegexp } from "../../src/query/regular-expression.ts";
import { regexTrigrams, trigramStrings, trigramTokenizer } from "../../src/tokenizer/trigram.ts";
import { seededRandom } from "../seeded-random.ts";

describe("trigram tokenizer", () => {
  it("indexes every window of three characters once (Dgraph → Dgr, gra, rap, aph)", () => {
    expect(trigramStrings("Dgraph")).toEqual(["Dgr", "gra", "rap", "aph"]);
    expect(trigramStrings("aaaa")).toEqual(["aaa"]);
  });

  it("works on characters, not UTF-16 units", () => {
    expect(trigramStrings("é😀ab")).toEqual(["é😀a", "😀ab"]);
  });

  it("has no trigrams for strings shorter than three characters", () => {
    expect(trigramTokenizer.tokens({ type: "string", value: "ab" })).toEqual([]);
  });

  it("keeps case (regexp matching is case-sensitive unless /i)", () => {
    expect(trigramStrings("ABc")).toEqual(["ABc"]);
  });
});

describe("regexTrigrams", () => {
  it("requires the trigrams of literal runs (the docs' /^Steven Sp.*$/)", () => {
    expect(regexTrigrams("^Steven Sp.*$")).toEqual([
      [["Ste"], ["tev"], ["eve"], ["ven"], ["en "], ["n S"], [" Sp"]],
    ]);
  });

  it("offers every case variant under the i flag", () => {
    const [groups] = regexTrigrams("ryan", "i")!;
    expect(groups).toHaveLength(2);
    expect(groups[0]).toContain("rya");
    expect(groups[0]).toContain("RYA");
    expect(groups[0]).toContain("Rya");
    expect(groups[0]).toHaveLength(8);
  });

  it("gives up (null) when nothing is required", () => {
    expect(regexTrigrams("ab")).toBeNull();
    expect(regexTrigrams("a.c")).toBeNull();
    expect(regexTrigrams("abc|de")).toBeNull();
    expect(regexTrigrams("abc|")).toBeNull();
    expect(regexTrigrams("[a-z]+")).toBeNull();
    expect(regexTrigrams("(abcd)*")).toBeNull();
  });

  it("does not require optional characters", () => {
    expect(regexTrigrams("abc?d")).toBeNull();
    expect(regexTrigrams("abcd?")).toEqual([[["abc"]]]);
  });

  it("treats escaped metacharacters as literals", () => {
    expect(regexTrigrams("\\.com")).toEqual([[[".co"], ["com"]]]);
  });

  it("gives each top-level alternative its own requirements; alternation inside a group leaves the group out", () => {
    expect(regexTrigrams("^abc|def$")).toEqual([[["abc"]], [["def"]]]);
    expect(regexTrigrams("x(ab|cd)yzw")).toEqual([[["yzw"]]]);
    expect(regexTrigrams("[|]abc|\\|def")).toEqual([[["abc"]], [["|de"], ["def"]]]);
    // `(?i)` applies to the alternatives after it.
    const [first, second] = regexTrigrams("(?i)abc|cde")!;
    expect(first[0]).toContain("ABC");
    expect(second[0]).toContain("CDE");
  });

  it("never asks for a trigram that a matching string lacks (random patterns)", () => {
    const rnd = seededRandom(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const atoms = ["a", "b", "c", "ab", "abc", "bca", ".", "[ab]", "\\d", "(ab)", "(a|b)", "\\.", "x", "[|]"];
    const quantifiers = ["", "", "", "?", "*", "+", "{2}", "{0,2}", "{1,}"];
    let checked = 0;
    let checkedAlternatives = 0;
    for (let p = 0; p < 800; p++) {
      let pattern = rnd() < 0.3 ? "^" : "";
      const n = 1 + Math.floor(rnd() * 5);
      for (let k = 0; k < n; k++) pattern += rnd() < 0.15 ? "|" : pick(atoms) + pick(quantifiers);
      if (rnd() < 0.3) pattern += "$";
      // The engine's own matcher (RE2 semantics), whose candidates the trigrams must never lose.
      const re = compileDqlRegexp(pattern, "");
      const alternatives = regexTrigrams(pattern);
      if (alternatives === null) continue;
      for (let s = 0; s < 200; s++) {
        let str = "";
        const len = Math.floor(rnd() * 7);
        for (let k = 0; k < len; k++) str += pick(["a", "b", "c", "ab", "abc", "bca", "aa", "x", ".", "1"]);
        if (!re.test(str)) continue;
        checked++;
        if (alternatives.length > 1) checkedAlternatives++;
        const have = new Set(trigramStrings(str));
        expect(
          alternatives.some((groups) => groups.every((group) => group.some((t) => have.has(t)))),
          `${pattern} vs ${str}`,
        ).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(checkedAlternatives).toBeGreaterThan(50);
  });
});
