import type { TypedValue } from "../core/scalar.ts";
import { stringToken, stringTokenKey } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";
import { unique } from "./words.ts";

/**
 * All windows of three consecutive characters (code points) of a string, unique, case preserved.
 * Strings shorter than three characters have none.
 */
export function trigramStrings(text: string): string[] {
  const chars = Array.from(text);
  if (chars.length < 3) return [];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i] + chars[i + 1] + chars[i + 2]);
  return unique(out);
}

/** `trigram`: lossy; serves `regexp` (via regexTrigrams) and `match` (fuzzy). */
export const trigramTokenizer: Tokenizer = {
  name: "trigram",
  id: TokenizerId.trigram,
  sortable: false,
  lossy: true,
  allowedTypes: ["string"],
  tokens(value: TypedValue): Uint8Array[] {
    return trigramStrings(value.value as string).map((t) => stringToken(TokenizerId.trigram, t));
  },
  tokenKeys(value: TypedValue): string[] {
    const grams = trigramStrings(value.value as string);
    for (let i = 0; i < grams.length; i++) grams[i] = stringTokenKey(TokenizerId.trigram, grams[i]);
    return grams;
  },
};

const REPEAT = /^\{(\d+)(,(\d*))?\}/;

/** Case variants of one character (itself, lower, upper), keeping only single-character mappings. */
function caseVariants(ch: string): string[] {
  const out = [ch];
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
    if (Array.from(v).length === 1 && !out.includes(v)) out.push(v);
  }
  return out;
}

function trigramAlternatives(tri: string[], ignoreCase: boolean): string[] {
  if (!ignoreCase) return [tri.join("")];
  let acc = [""];
  for (const ch of tri) {
    const next: string[] = [];
    for (const prefix of acc) for (const v of caseVariants(ch)) next.push(prefix + v);
    acc = next;
  }
  return unique(acc);
}

/**
 * The trigrams a regular expression (Go RE2 syntax, as in `regexp(pred, /re/flags)`) requires of any
 * matching string, as an OR of alternatives (the pattern's top-level `a|b|…` branches), each an AND of
 * OR-groups: a string can only match if, for some alternative, it contains at least one trigram of every
 * group (groups hold the case variants under the `i` flag or `(?i)`).
 *
 * Deliberately simple and conservative: only literal runs outside groups and character classes count,
 * and a character followed by `?`, `*` or `{0,…}` ends a run without being part of it; an alternation
 * inside a group leaves the group out. Returns null when some alternative requires no trigram: the index
 * can't narrow the search (Dgraph then reports the regular expression as too wide-ranging at the query
 * root).
 */
export function regexTrigrams(pattern: string, flags = ""): string[][][] | null {
  let ignoreCase = flags.includes("i");
  const alternatives: string[][][] = [];
  for (const branch of topLevelBranches(Array.from(pattern))) {
    const r = branchTrigrams(branch, ignoreCase);
    if (r.groups === null) return null;
    // A `(?i)` at the top level applies to the branches after it too.
    ignoreCase = r.ignoreCase;
    alternatives.push(r.groups);
  }
  return alternatives;
}

/** Splits a pattern at its top-level `|` (outside groups, character classes, escapes and `\Q…\E`). */
function topLevelBranches(chars: string[]): string[][] {
  const branches: string[][] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\") {
      if (chars[i + 1] === "Q") {
        i += 2;
        while (i < chars.length && !(chars[i] === "\\" && chars[i + 1] === "E")) i++;
      }
      i++;
    } else if (c === "[") {
      i = classEnd(chars, i);
      if (i < 0) return [chars]; // unclosed class: branchTrigrams gives up on it
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      branches.push(chars.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(chars.slice(start));
  return branches;
}

/** Index of the `]` closing the character class that opens at `open`, or -1 when it is unclosed. */
function classEnd(chars: string[], open: number): number {
  let j = open + 1;
  if (chars[j] === "^") j++;
  if (chars[j] === "]") j++;
  while (j < chars.length && chars[j] !== "]") {
    if (chars[j] === "\\") j++;
    else if (chars[j] === "[" && chars[j + 1] === ":") {
      const close = chars.indexOf("]", j + 2);
      if (close > 0) j = close;
    }
    j++;
  }
  return j < chars.length ? j : -1;
}

/** The AND of OR-groups one branch (no top-level `|`) requires, and the case flag in force after it. */
function branchTrigrams(
  chars: string[],
  ignoreCaseIn: boolean,
): { groups: string[][] | null; ignoreCase: boolean } {
  let ignoreCase = ignoreCaseIn;
  const runs: string[][] = [];
  let run: string[] = [];
  let depth = 0;
  const none = () => ({ groups: null, ignoreCase });
  const endRun = () => {
    if (run.length >= 3) runs.push(run);
    run = [];
  };
  /** Adds a literal character at depth 0, honouring a quantifier that follows it at index `next`. */
  const literal = (ch: string, next: number): number => {
    const q = chars[next];
    let optional = false;
    let repeated = false;
    let skip = 0;
    if (q === "*" || q === "?") {
      optional = true;
      skip = 1;
    } else if (q === "+") {
      repeated = true;
      skip = 1;
    } else if (q === "{") {
      const m = REPEAT.exec(chars.slice(next, next + 24).join(""));
      if (m) {
        skip = Array.from(m[0]).length;
        if (Number(m[1]) === 0) optional = true;
        else repeated = true;
      }
    }
    if (skip > 0 && chars[next + skip] === "?") skip++; // lazy quantifier
    if (depth > 0) {
      endRun();
      return next + skip;
    }
    if (optional) {
      endRun();
    } else if (repeated) {
      run.push(ch);
      endRun();
      run.push(ch); // what follows the repetition is preceded by at least one `ch`
    } else {
      run.push(ch);
    }
    return next + skip;
  };

  let i = 0;
  while (i < chars.length) {
    const c = chars[i];
    if (c === "\\") {
      const n = chars[i + 1];
      if (n === undefined) return none(); // trailing backslash: invalid pattern
      if (n === "Q") {
        // \Q…\E quotes literal text
        let end = i + 2;
        while (end < chars.length && !(chars[end] === "\\" && chars[end + 1] === "E")) end++;
        const quoted = chars.slice(i + 2, end);
        const after = Math.min(end + 2, chars.length);
        if (quoted.length === 0) {
          i = after;
          continue;
        }
        // all but the last quoted character are plain literals; a quantifier after \E binds to the last
        for (const ch of quoted.slice(0, -1)) {
          if (depth > 0) endRun();
          else run.push(ch);
        }
        i = literal(quoted[quoted.length - 1], after);
        continue;
      }
      if (/[0-9A-Za-z]/.test(n)) {
        endRun();
        i += 2;
        if ((n === "p" || n === "P" || n === "x") && chars[i] === "{") {
          while (i < chars.length && chars[i] !== "}") i++;
          i++;
        } else if (n === "p" || n === "P") i++;
        else if (n === "x") i += 2;
        else if (n >= "0" && n <= "7") while (i < chars.length && /[0-7]/.test(chars[i])) i++;
        continue;
      }
      i = literal(n, i + 2);
      continue;
    }
    if (c === "[") {
      endRun();
      const j = classEnd(chars, i);
      if (j < 0) return none(); // unclosed class
      i = j + 1;
      continue;
    }
    if (c === "(") {
      endRun();
      depth++;
      i++;
      if (chars[i] === "?") {
        // (?flags) or (?flags:…) or (?P<name>…)
        let j = i + 1;
        while (j < chars.length && /[a-zA-Z-]/.test(chars[j])) {
          if (chars[j] === "i") ignoreCase = true;
          j++;
        }
        if (chars[j] === ")") depth--; // a bare flag group applies to the rest
        i = j + 1;
      }
      continue;
    }
    if (c === ")") {
      endRun();
      depth--;
      if (depth < 0) return none();
      i++;
      continue;
    }
    if (c === "|") {
      // Only inside a group (the caller split the top level): the group is left out already.
      endRun();
      i++;
      continue;
    }
    if (c === "." || c === "^" || c === "$") {
      endRun();
      i++;
      continue;
    }
    if (c === "*" || c === "+" || c === "?") {
      endRun();
      i++;
      continue;
    }
    if (c === "{" && REPEAT.test(chars.slice(i, i + 24).join(""))) {
      endRun();
      i += Array.from(REPEAT.exec(chars.slice(i, i + 24).join(""))![0]).length;
      continue;
    }
    i = literal(c, i + 1);
  }
  endRun();

  const groups: string[][] = [];
  const seen = new Set<string>();
  for (const r of runs) {
    for (let k = 0; k + 3 <= r.length; k++) {
      const alternatives = trigramAlternatives(r.slice(k, k + 3), ignoreCase);
      const key = alternatives.join("\u0000");
      if (seen.has(key)) continue;
      seen.add(key);
      groups.push(alternatives);
    }
  }
  return { groups: groups.length > 0 ? groups : null, ignoreCase };
}

/** The index token of one trigram string (for the groups regexTrigrams returns). */
export function trigramToken(trigram: string): Uint8Array {
  return stringToken(TokenizerId.trigram, trigram);
}
