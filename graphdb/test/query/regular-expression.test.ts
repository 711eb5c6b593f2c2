/**
 * DQL regular expressions: Go's RE2 syntax and semantics (re2js), linear-time matching, Dgraph's error
 * texts, and the bounds on compiling and matching that keep one query from holding the process.
 */
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import {
  checkMatchWork,
  compileDqlRegexp,
  estimateInstructions,
  MAX_INSTRUCTIONS,
  MAX_MATCH_WORK,
} from "../../src/query/regular-expression.ts";
import { seededRandom } from "../seeded-random.ts";

const matches = (pattern: string, value: string, flags = "") => compileDqlRegexp(pattern, flags).test(value);

function errorOf(pattern: string, flags = ""): string {
  try {
    compileDqlRegexp(pattern, flags);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`compiled: ${pattern}`);
}

describe("DQL regexp: Go RE2 semantics", () => {
  it("finds a match anywhere, multi-line (Dgraph compiles (?m) + pattern)", () => {
    expect(matches("lic", "Alice")).toBe(true);
    expect(matches("^Ali", "Alice")).toBe(true);
    expect(matches("^Bob$", "Alice\nBob")).toBe(true);
    expect(matches("^ali", "Alice")).toBe(false);
  });

  it("takes the i flag and Go's inline flags", () => {
    expect(matches("^ali", "Alice", "i")).toBe(true);
    expect(matches("(?i)SUB[cm]", "submission")).toBe(true);
    // Dgraph's TestFilterRegex13: case-insensitivity switched off again before ISSION.
    expect(matches("(?i)SUB[cm](?-i)ISSION", "submission")).toBe(false);
  });

  it("knows RE2's syntax: \\pL, \\Q…\\E, (?P<name>…), POSIX classes, code points", () => {
    expect(matches("^\\pL+$", "Артём")).toBe(true);
    expect(matches("\\Qa.b\\E", "xa.by")).toBe(true);
    expect(matches("\\Qa.b\\E", "xazby")).toBe(false);
    expect(matches("(?P<first>Al)ice", "Alice")).toBe(true);
    expect(matches("^[[:alpha:]]+$", "Alice")).toBe(true);
    expect(matches("^.$", "😀")).toBe(true);
  });

  it("rejects modifiers other than i, with Dgraph's text", () => {
    expect(errorOf("pattern", "x")).toBe("Invalid regexp modifier: x");
  });
});

describe("DQL regexp: linear time", () => {
  it("matches /aaa(a+)+$/ against a long non-matching value in milliseconds (JavaScript's RegExp: seconds)", () => {
    const re = compileDqlRegexp("aaa(a+)+$", "");
    for (const n of [28, 1000, 100_000]) {
      const value = `${"a".repeat(n)}b`;
      const started = performance.now();
      expect(re.test(value)).toBe(false);
      expect(performance.now() - started).toBeLessThan(100);
    }
  });

  it("still finds what the pattern matches", () => {
    expect(matches("aaa(a+)+$", "aaaaaa")).toBe(true);
    expect(matches("(x+x+)+y", `${"x".repeat(50_000)}y`)).toBe(true);
  });
});

describe("DQL regexp: RE2's refusals, as Go words them", () => {
  it("refuses lookarounds and backreferences, saying why", () => {
    expect(errorOf("Al(?=ice)")).toBe(
      "error parsing regexp: invalid or unsupported Perl syntax: `(?=`" +
        " (DQL regular expressions use Go's RE2 syntax: no lookahead, lookbehind or backreferences)",
    );
    expect(errorOf("(?!x)a")).toContain("error parsing regexp: invalid or unsupported Perl syntax: `(?!`");
    expect(errorOf("(?<=A)lice")).toContain("error parsing regexp: invalid named capture: `(?<=A)lice`");
    expect(errorOf("(a)\\1")).toBe(
      "error parsing regexp: invalid escape sequence: `\\1`" +
        " (DQL regular expressions use Go's RE2 syntax: no lookahead, lookbehind or backreferences)",
    );
  });

  it("reports other syntax errors verbatim, with the (?m) Dgraph puts in front", () => {
    expect(errorOf("(")).toBe("error parsing regexp: missing closing ): `(?m)(`");
    expect(errorOf("a**")).toBe("error parsing regexp: invalid nested repetition operator: `**`");
    expect(errorOf("x{1001}")).toBe("error parsing regexp: invalid repeat count: `{1001}`");
    expect(errorOf("[z-a]")).toBe("error parsing regexp: invalid character class range: `z-a`");
  });
});

describe("DQL regexp: bounded work", () => {
  it("refuses a pattern too large to compile quickly, before compiling it", () => {
    const pattern = "(?:x{1000})".repeat(100); // about 100,000 instructions: a quarter second to compile
    const started = performance.now();
    expect(errorOf(pattern)).toMatch(
      /^regular expression is too large: about \d+ instructions, at most 20000\./,
    );
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("estimates a program's size from the text: never far below what re2js compiles", () => {
    const rnd = seededRandom(11);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const atoms = [
      "a",
      "\\d",
      "[a-z]",
      "[^x]",
      ".",
      "(ab)",
      "(a|b|c)",
      "\\pL",
      "\\x{41}",
      "\\Qa.b\\E",
      "(?:xy)",
    ];
    const quantifiers = ["", "", "*", "+", "?", "{3}", "{2,5}", "{10}", "{0,20}", "{30,}"];
    let compared = 0;
    for (let i = 0; i < 500; i++) {
      let pattern = "";
      for (let k = 1 + Math.floor(rnd() * 6); k > 0; k--) {
        pattern += rnd() < 0.1 ? "|" : pick(atoms) + pick(quantifiers);
      }
      if (rnd() < 0.2) pattern = `(${pattern}){${1 + Math.floor(rnd() * 20)}}`;
      const source = `(?m)${pattern}`;
      let real: number;
      try {
        real = RE2JS.compile(source).programSize();
      } catch {
        continue;
      }
      compared++;
      expect(estimateInstructions(source), pattern).toBeGreaterThanOrEqual(real * 0.9);
    }
    expect(compared).toBeGreaterThan(400);
  });

  it("refuses a match whose worst case would hold the process, before starting it", () => {
    const re = compileDqlRegexp("[ab]*a[ab]{999}[^ab]", "");
    expect(re.instructions).toBeLessThanOrEqual(MAX_INSTRUCTIONS);
    const short = "ab".repeat(2000);
    expect(() => checkMatchWork(re, short)).not.toThrow();
    const long = "ab".repeat(Math.ceil(MAX_MATCH_WORK / re.instructions));
    expect(() => checkMatchWork(re, long)).toThrow(/^regexp: a value of \d+ characters is too long/);
  });
});
