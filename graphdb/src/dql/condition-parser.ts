/**
 * Upsert conditions: `@if(eq(len(v), 0) AND gt(len(w), 1))` (or `@filter(...)`), validated as Dgraph's
 * `validateCondValue` does, then parsed with the filter grammar (`len(v)` comparisons allowed).
 */
import type { ConditionAST, FilterTree } from "./ast.ts";
import { DqlSyntaxError } from "./errors.ts";
import { parseFilter } from "./filter-parser.ts";
import { lexCondition } from "./lexer.ts";
import { VariableMap } from "./query-variables.ts";
import { plainError, TokenStream } from "./token-stream.ts";
import { filterNeeds } from "./variable-usage.ts";

const MUST_START = "invalid cond value: must start with @if( or @filter(";
const UNBALANCED = "invalid cond value: unbalanced parentheses";

function isWhitespace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r";
}

/** Index just past the `)` matching the `(` at `open`, skipping quoted strings; -1 if unbalanced. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) return -1;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parseDirectiveText(text: string, directive: "@if" | "@filter"): FilterTree | undefined {
  try {
    return parseDirectiveTokens(text, directive);
  } catch (error) {
    // Pathologically deep nesting exhausts the stack; report it as a request error, never a crash.
    if (error instanceof RangeError) throw new DqlSyntaxError("Query is nested too deeply");
    throw error;
  }
}

function parseDirectiveTokens(text: string, directive: "@if" | "@filter"): FilterTree | undefined {
  const ctx = {
    ts: new TokenStream(lexCondition(text)),
    vars: new VariableMap(undefined),
    input: text,
  };
  ctx.ts.next(); // @
  ctx.ts.next(); // if / filter
  const tree = parseFilter(ctx);
  ctx.ts.next();
  if (ctx.ts.item.kind !== "EOF")
    throw ctx.ts.errorAt(ctx.ts.item, `Unexpected item after ${directive}(...)`);
  return tree;
}

/**
 * Parses an upsert condition. Returns undefined for an empty condition (always true), and for `@if()`.
 * Throws `DqlSyntaxError` with Dgraph's texts.
 */
export function parseCondition(text: string): ConditionAST | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let directive: "@if" | "@filter";
  if (trimmed.startsWith("@if")) directive = "@if";
  else if (trimmed.startsWith("@filter")) directive = "@filter";
  else throw plainError(MUST_START);
  let open = directive.length;
  while (open < trimmed.length && isWhitespace(trimmed[open])) open++;
  if (trimmed[open] !== "(") throw plainError(MUST_START);
  const end = matchingParen(trimmed, open);
  if (end !== trimmed.length) throw plainError(UNBALANCED);
  return parseDirectiveText(trimmed, directive);
}

/** Parses a bare filter expression such as `eq(name, "x") and has(age)`. */
export function parseFilterExpression(text: string): FilterTree | undefined {
  return parseDirectiveText(`@filter(${text})`, "@filter");
}

/**
 * The query variables a condition reads (`len(v)`, `uid(v)`...), de-duplicated: pass them, with the
 * mutations' `uid(v)` / `val(x)` references, as `needVars` when parsing the upsert's query.
 */
export function conditionVariables(condition: ConditionAST | undefined): string[] {
  if (condition === undefined) return [];
  const out: string[] = [];
  filterNeeds(condition, out);
  return [...new Set(out)];
}
