/**
 * Per-value tests of query functions (Dgraph's matchRegex, matchFuzzy, matchStrings and
 * CompareVals over a subject's values), shared by root re-checks and filters.
 */
import type { ValuePosting } from "../core/graph-reader.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { fulltextStrings } from "../tokenizer/fulltext.ts";
import { termStrings } from "../tokenizer/term.ts";
import { type CompareOp, type PreparedFunction, storedAs } from "./function-context.ts";
import type { QueryBudget } from "./query-budget.ts";
import { checkMatchWork, type DqlRegexp } from "./regular-expression.ts";

/**
 * Dgraph's matchRegex: non-empty string values only. The match is charged to `budget` by its worst-case
 * cost (instructions × characters, about a microsecond per 64), so that the clock is read soon after an
 * expensive one.
 */
export function regexMatches(regex: DqlRegexp, v: TypedValue, budget: QueryBudget): boolean {
  const s = typeof v.value === "string" ? v.value : String(v.value);
  if (s.length === 0) return false;
  checkMatchWork(regex, s);
  const matched = regex.test(s);
  budget.tick(1 + ((regex.instructions * s.length) >>> 6));
  return matched;
}

/**
 * Levenshtein distance of two strings (code points), giving up past `max`. It costs |a| × |b| steps,
 * charged to `budget` row by row: both strings may be long (a stored value, the query's text).
 */
export function levenshtein(a: string, b: string, max: number, budget?: QueryBudget): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prev = new Array<number>(t.length + 1);
  let cur = new Array<number>(t.length + 1);
  for (let j = 0; j <= t.length; j++) prev[j] = j;
  for (let i = 1; i <= s.length; i++) {
    budget?.tick(t.length);
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[t.length];
}

/** Dgraph's matchFuzzy. */
export function fuzzyMatches(query: string, v: TypedValue, max: number, budget?: QueryBudget): boolean {
  const s = typeof v.value === "string" ? v.value : String(v.value);
  if (s === "") return false;
  return levenshtein(s, query, max, budget) <= max;
}

/** True when a value's words satisfy an allof/anyof text function (words analysed in the function's language). */
export function textMatches(p: Extract<PreparedFunction, { kind: "text" }>, v: TypedValue): boolean {
  const s = typeof v.value === "string" ? v.value : String(v.value);
  const lang = p.lang === "." ? "en" : p.lang === "" ? undefined : p.lang;
  const have = new Set(p.tokenizer === "fulltext" ? fulltextStrings(s, lang) : termStrings(s, lang));
  if (p.all) {
    for (const w of p.words) if (!have.has(w)) return false;
    return true;
  }
  for (const w of p.words) if (have.has(w)) return true;
  return false;
}

/** Any of the values passes the comparison. */
export function compareMatches(
  op: CompareOp,
  values: readonly ValuePosting[],
  type: ScalarType,
  args: readonly TypedValue[],
  test: (op: string, v: TypedValue, arg: TypedValue) => boolean,
): boolean {
  for (const p of values) {
    const v = storedAs(p.value, type);
    if (v === undefined) continue;
    if (op === "eq") {
      for (const a of args) if (test("eq", v, a)) return true;
    } else if (op === "between") {
      if (test("ge", v, args[0]) && test("le", v, args[1])) return true;
    } else if (test(op, v, args[0])) return true;
  }
  return false;
}
