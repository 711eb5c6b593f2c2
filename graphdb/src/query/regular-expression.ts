/**
 * DQL's regular expressions (`regexp(pred, /re/flags)`): Go's RE2 syntax and semantics, matched in time
 * linear in the input by re2js (a port of RE2/J), never by JavaScript's backtracking RegExp, on which a
 * pattern like `/aaa(a+)+$/` runs for seconds. Compiled as Dgraph's worker compiles them — `(?m)` before
 * the pattern, `(?i)(?m)` with the `i` flag — so syntax errors read as Go's
 * (`error parsing regexp: invalid escape sequence: \`\1\``).
 *
 * Linear is not free: matching costs up to (program size × value length), and compiling a program of a
 * million instructions (the most Go allows) takes seconds. Both are single steps no deadline check can
 * interrupt, so both are bounded here (MAX_INSTRUCTIONS, MAX_MATCH_WORK).
 */
import { RE2JS, RE2JSException } from "re2js";
import { DgraphError } from "../core/errors.ts";

/** A compiled DQL regular expression. */
export interface DqlRegexp {
  /** Whether the expression matches somewhere in `value` (Go's `MatchString`). */
  test(value: string): boolean;
  /** Instructions of the compiled program: the cost of matching one character, at worst. */
  readonly instructions: number;
}

/**
 * Largest program accepted (Go accepts about 1.4 million instructions; compiling that here takes seconds).
 * Real patterns are far smaller: `[a-z]{1000}` is a thousand.
 */
export const MAX_INSTRUCTIONS = 20_000;

/**
 * Most (instructions × characters) one value may cost: about 100 ms for a pattern that defeats re2js's DFA
 * and prefilters, a few ms for ordinary ones. A 20-instruction pattern still matches values of 400,000
 * characters.
 */
export const MAX_MATCH_WORK = 2 ** 23;

/** Compiled expressions by source: a query often repeats a filter per level, clients repeat queries. */
const cache = new Map<string, DqlRegexp>();
const CACHE_SIZE = 256;

/** Compiles `pattern` with DQL's flags (`""` or `"i"`); throws DgraphError with Dgraph's texts. */
export function compileDqlRegexp(pattern: string, flags: string): DqlRegexp {
  if (flags !== "" && flags !== "i") throw new DgraphError(`Invalid regexp modifier: ${flags}`);
  const source = (flags === "i" ? "(?i)(?m)" : "(?m)") + pattern;
  const hit = cache.get(source);
  if (hit !== undefined) {
    // Least recently used goes first: re-insert on every hit.
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const estimate = estimateInstructions(source);
  if (estimate > MAX_INSTRUCTIONS) throw tooLarge(estimate);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    if (e instanceof RE2JSException) throw syntaxError(e.message);
    throw e;
  }
  const instructions = re.programSize();
  if (instructions > MAX_INSTRUCTIONS) throw tooLarge(instructions);
  const compiled: DqlRegexp = { test: (value) => re.test(value), instructions };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(source, compiled);
  return compiled;
}

/**
 * Go's message, plus what to do when the pattern uses what RE2 leaves out on purpose (lookarounds and
 * backreferences make matching exponential).
 */
function syntaxError(message: string): DgraphError {
  const unsupported =
    message.includes("invalid or unsupported Perl syntax") ||
    /invalid escape sequence: `\\[1-9]/.test(message) ||
    /invalid named capture: `\(\?<[=!]/.test(message);
  if (!unsupported) return new DgraphError(message);
  return new DgraphError(
    `${message} (DQL regular expressions use Go's RE2 syntax: no lookahead, lookbehind or backreferences)`,
  );
}

function tooLarge(instructions: number): DgraphError {
  return new DgraphError(
    `regular expression is too large: about ${instructions} instructions, at most ${MAX_INSTRUCTIONS}.` +
      " Use fewer or smaller repeat counts ({n}) and shorter alternatives.",
  );
}

/**
 * Fails a match that would cost more than MAX_MATCH_WORK, before it starts: one call of `test` cannot be
 * interrupted, and a tenant's value can be megabytes long.
 */
export function checkMatchWork(re: DqlRegexp, value: string): void {
  if (re.instructions * value.length > MAX_MATCH_WORK) {
    throw new DgraphError(
      `regexp: a value of ${value.length} characters is too long for this regular expression ` +
        `(${re.instructions} instructions; a match may cost at most ${MAX_MATCH_WORK} characters × instructions).` +
        " Use a simpler expression, or narrow the candidates with a more selective function first.",
    );
  }
}

/**
 * An upper estimate of the compiled program's size, read from the pattern text without compiling it:
 * every atom costs one instruction times the repeat counts around it (`(ab){3}` = 3 × (2 + 2)), each
 * operator one or two. It only has to be close enough to refuse, in microseconds, a pattern whose
 * compilation would take seconds; compile() checks the real size afterwards.
 */
export function estimateInstructions(pattern: string): number {
  // Size of the group being read, one entry per open parenthesis; `last` is the size of the last atom.
  const groups: number[] = [0];
  let last = 0;
  const add = (n: number) => {
    groups[groups.length - 1] += n;
    last = n;
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        const stop = end < 0 ? pattern.length : end;
        add(stop - (i + 2));
        i = end < 0 ? stop : end + 2;
        continue;
      }
      // \p{Greek}, \x{10FFFF}: one atom up to the closing brace.
      if ((next === "p" || next === "P" || next === "x") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        i = end < 0 ? pattern.length : end + 1;
      } else {
        i += 2;
      }
      add(1);
      continue;
    }
    if (c === "[") {
      i = classEnd(pattern, i) + 1;
      add(1);
      continue;
    }
    if (c === "(") {
      groups.push(0);
      i++;
      continue;
    }
    if (c === ")") {
      const size = (groups.length > 1 ? (groups.pop() as number) : 0) + 2;
      add(size);
      i++;
      continue;
    }
    if (c === "{") {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m !== null) {
        const times = Math.max(Number(m[1]), m[2] === undefined || m[2] === "" ? 1 : Number(m[2]), 1);
        const extra = last * (times - 1) + (times - Number(m[1]));
        groups[groups.length - 1] += extra;
        last += extra;
        i += m[0].length;
        continue;
      }
    }
    if (c === "*" || c === "+" || c === "?" || c === "|") {
      groups[groups.length - 1] += 2;
      last += 2;
      i++;
      continue;
    }
    add(1);
    i++;
  }
  let total = 0;
  for (const g of groups) total += g;
  return total;
}

/** Index of the `]` closing the class opened at `open` (the pattern's end when it is unclosed). */
function classEnd(pattern: string, open: number): number {
  let j = open + 1;
  if (pattern[j] === "^") j++;
  if (pattern[j] === "]") j++;
  while (j < pattern.length && pattern[j] !== "]") {
    if (pattern[j] === "\\") j++;
    else if (pattern[j] === "[" && pattern[j + 1] === ":") {
      const close = pattern.indexOf(":]", j + 2);
      if (close > 0) j = close + 1;
    }
    j++;
  }
  return Math.min(j, pattern.length);
}
