import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import { DqlSyntaxError, parseCondition, parseDql } from "../../src/dql/parser.ts";
import { seededRandom } from "../seeded-random.ts";

const CORPUS = [
  "{ me(func: uid(0x1)) { uid name age friend { name } } }",
  `query q($a: string = "Alice", $n: int, $f: float, $b: bool) { q(func: eq(name, $a), first: $n) @filter(ge(age, $f)) { uid } }`,
  `{ var(func: allofterms(name@en, "Steven Spielberg")) { director.film @groupby(genre) { a as count(uid) } }
     byGenre(func: uid(a), orderdesc: val(a)) { name@en num_movies : val(a) } }`,
  `{ q(func: allofterms(name@en, "Ang Lee")) { director.film { name@en num_actors as count(starring) } most_actors : max(val(num_actors)) } }`,
  `{ var(func: has(bal)) { b as bal } total() { bal: sum(val(b)) } }`,
  `{ q(func: uid(1)) { a as age b as count(friend) r as math(a / b + max(a, 2) * -1) val(r) } }`,
  `{ p as shortest(from: 0x2, to: 0x5, numpaths: 2, depth: 4) { friend @facets(weight) } path(func: uid(p)) { name } }`,
  `{ q(func: near(loc, [1.5, -2], 100)) @cascade @normalize { expand(_all_) { expand(_all_) } friend @facets(close, w as weight) @facets(eq(close, true)) { name } } r(func: uid(w)) { uid } }`,
  `{ q(func: regexp(name, /^al.*$/i), first: 10, offset: 2, after: 0x3, orderasc: name, orderdesc: age) @filter(not has(x) and (eq(a, [1, 2]) or between(b, 1, 5))) { ~friend (first: 2) @filter(uid_in(x, 0x1)) { count(uid) } } }`,
  `schema(pred: [name, age]) { type index }`,
  `schema(type: [A, B]) {}`,
  `fragment f { name ...g } fragment g { age } { q(func: uid(1)) { ...f } }`,
  `{ q(func: has(a)) @recurse(depth: 5, loop: true) @ignorereflex { friend name } }`,
  `{ q(func: match(name, "Alise", 2)) { ok: checkpwd(password, "x") name@en:fr:. n@* } }`,
  `{ q(func: similar_to(vec, 3, "[0.1, 0.2]")) { uid <http://x/y> } }`,
  `{ q(func: type(Person)) @filter(eq(count(friend), 2) AND gt(val(x), 3)) { uid } var(func: uid(1)) { x as age } }`,
];

const FRAGMENTS = [
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  ":",
  ",",
  "@",
  "$",
  "#",
  '"',
  "/",
  "<",
  ">",
  "=",
  "!",
  "-",
  "+",
  "*",
  ".",
  "...",
  "~",
  " ",
  "\n",
  "\\",
  "'",
  "%",
  "&",
  "é",
  "0x1",
  "uid",
  "func",
  "eq",
  "val",
  "len",
  "count",
  "math",
  "expand",
  "_all_",
  "as",
  "and",
  "or",
  "not",
  "filter",
  "facets",
  "cascade",
  "groupby",
  "recurse",
  "normalize",
  "query",
  "schema",
  "fragment",
  "shortest",
  "orderasc",
  "first",
  "after",
  "var",
  "type",
  "uid_in",
  "regexp",
  "near",
];

function mutate(rand: () => number, input: string): string {
  let s = input;
  const steps = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < steps; i++) {
    const pos = Math.floor(rand() * (s.length + 1));
    switch (Math.floor(rand() * 6)) {
      case 0:
        s = s.slice(0, pos) + s.slice(pos + 1 + Math.floor(rand() * 3));
        break;
      case 1:
        s = s.slice(0, pos) + FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)] + s.slice(pos);
        break;
      case 2: {
        const from = Math.floor(rand() * s.length);
        s = s.slice(0, pos) + s.slice(from, from + Math.floor(rand() * 12)) + s.slice(pos);
        break;
      }
      case 3:
        s = s.slice(0, pos);
        break;
      case 4:
        s = s.slice(0, pos) + String.fromCharCode(Math.floor(rand() * 128)) + s.slice(pos + 1);
        break;
      default: {
        const other = CORPUS[Math.floor(rand() * CORPUS.length)];
        const from = Math.floor(rand() * other.length);
        s = s.slice(0, pos) + other.slice(from, from + Math.floor(rand() * 30)) + s.slice(pos);
      }
    }
  }
  return s;
}

function soup(rand: () => number): string {
  let s = "";
  const n = Math.floor(rand() * 40);
  for (let i = 0; i < n; i++) s += `${FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]} `;
  return s;
}

/** Parses and reports anything thrown that is not a Dgraph error. */
function unexpectedThrow(fn: () => unknown): unknown {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof DqlSyntaxError && error instanceof DgraphError ? undefined : error;
  }
}

describe("parser robustness", () => {
  it("parses every corpus query", () => {
    for (const q of CORPUS) expect(() => parseDql(q, { $n: "2", $f: "1.5" })).not.toThrow();
  });

  it("only ever throws DqlSyntaxError on mutated and random input", () => {
    const rand = seededRandom(0x5eed);
    const failures: { input: string; error: unknown }[] = [];
    for (let i = 0; i < 20_000; i++) {
      const input = i % 5 === 4 ? soup(rand) : mutate(rand, CORPUS[i % CORPUS.length]);
      const vars: Record<string, string> =
        rand() < 0.3 ? { $n: "x", $a: "[0x1", $z: "1" } : { $n: "3", $a: "a" };
      const error = unexpectedThrow(() => parseDql(input, vars));
      if (error !== undefined) failures.push({ input, error });
      const condError = unexpectedThrow(() => parseCondition(`@if(${input.slice(0, 60)})`));
      if (condError !== undefined) failures.push({ input: `@if(${input.slice(0, 60)})`, error: condError });
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it("survives pathological nesting", () => {
    const deep = 20_000;
    const inputs = [
      `{ q(func: uid(1)) ${"{ a ".repeat(deep)}${"}".repeat(deep)} }`,
      `{ q(func: uid(1)) @filter(${"(".repeat(deep)}has(a)${")".repeat(deep)}) { uid } }`,
      `{ q(func: uid(1)) @filter(${"not ".repeat(deep)}has(a)) { uid } }`,
      `{ q(func: eq(${"val(".repeat(deep)}x${")".repeat(deep)}, 1)) { uid } }`,
      `{ q(func: uid(1)) { x: math(${"(".repeat(deep)}a${")".repeat(deep)}) } }`,
      `{ q(func: uid(1)) { x: math(${"-".repeat(deep)}a) } }`,
      `{ q(func: near(loc, ${"[".repeat(deep)}1${"]".repeat(deep)})) { uid } }`,
      `fragment f { ${"...f ".repeat(100)} } { q(func: uid(1)) { ...f } }`,
      `${"{".repeat(deep)}`,
      `${"#".repeat(deep)}`,
    ];
    for (const input of inputs) expect(unexpectedThrow(() => parseDql(input))).toBeUndefined();
    expect(
      unexpectedThrow(() => parseCondition(`@if(${"(".repeat(deep)}eq(len(v), 1)${")".repeat(deep)})`)),
    ).toBeUndefined();
  });
});

describe("parser performance", () => {
  it("parses 10k typical queries well under a second", () => {
    const queries = [
      "{ q(func: uid(0x1)) { uid name age } }",
      `query q($email: string) { me(func: eq(email, $email), first: 1) @filter(has(name)) { uid name@en friend (first: 10, orderasc: name) { name } } }`,
    ];
    const vars = { $email: "a@b.c" };
    const start = performance.now();
    for (let i = 0; i < 10_000; i++) parseDql(queries[i & 1], vars);
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it("stays linear on long inputs", () => {
    const fields = Array.from({ length: 50_000 }, (_, i) => `p${i}`).join(" ");
    const digits = "1".repeat(200_000);
    const inputs = [
      `{ q(func: uid(1)) { ${fields} } }`,
      `{ q(func: eq(a, ${digits})) { uid } }`,
      `{ q(func: uid(1)) { x: math(${digits}x + 1) } }`,
      `{ q(func: eq(a, "${"\\\\".repeat(100_000)}")) { uid } }`,
      `{ q(func: regexp(a, /${"a".repeat(200_000)}/)) { uid } }`,
      `{ q(func: uid(1)) @filter(${Array.from({ length: 20_000 }, (_, i) => `has(p${i})`).join(" or ")}) { uid } }`,
    ];
    for (const input of inputs) {
      const start = performance.now();
      unexpectedThrow(() => parseDql(input));
      expect(performance.now() - start).toBeLessThan(2000);
    }
  });
});
