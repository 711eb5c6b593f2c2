/**
 * Directive arguments: language lists (`@en:fr:.`), `@cascade(...)`, `@groupby(...)`,
 * `@recurse(...)` and `@facets(...)`. Each function starts with the stream on the directive name.
 */
import { goParseBool, goParseUint, numErrorText } from "../types/strconv.ts";
import type {
  FacetKey,
  FacetOrder,
  FacetsDirective,
  FilterTree,
  GroupByKey,
  RecurseDirective,
} from "./ast.ts";
import { type CommaListTexts, readCommaList } from "./comma-list.ts";
import { filterUsesVariables, parseFilter } from "./filter-parser.ts";
import type { Token } from "./lexer.ts";
import type { ParseContext } from "./parse-context.ts";
import { describeToken, locationOf, plainError, type TokenStream } from "./token-stream.ts";

/**
 * Reads `en:fr:.` starting at the current token (the first language); leaves the stream on the last one.
 */
export function parseLanguageList(ts: TokenStream): string[] {
  const langs: string[] = [];
  let token = ts.item;
  while (token.kind === "Name" || token.kind === "Period" || token.kind === "Star") {
    langs.push(token.value);
    ts.next();
    if (ts.item.kind !== "Colon") break;
    ts.next();
    token = ts.item;
  }
  if (ts.item.kind === "Period" && ts.peekIs("Period")) {
    throw ts.errorNext("Expected only one dot(.) while parsing language list.");
  }
  ts.prev();
  if (langs.length > 1 && langs.includes("*")) {
    throw plainError(
      `If * is used, no other languages are allowed in the language list. Found [${langs.join(" ")}]`,
    );
  }
  return langs;
}

const PREDICATE_LIST: CommaListTexts = {
  comma: "Expected a predicate but got comma",
  missingComma: (token) => `Expected a comma or right round but got: ${token.value}`,
  other: () => undefined,
};

/** `@cascade` → ["__all__"]; `@cascade(a, b)` → ["a", "b"]. */
export function parseCascade(ts: TokenStream): string[] {
  const directive = ts.item;
  const peek = ts.peek();
  if (peek === undefined) throw ts.errorAt(directive, "Unable to peek lexer after cascade");
  if (peek.kind === "LeftCurl" || peek.kind === "RightCurl" || peek.kind === "At" || peek.kind === "Name") {
    return ["__all__"];
  }
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") {
    throw ts.errorAt(open, `Expected a left round after cascade, got: ${describeToken(open)}`);
  }
  const fields: string[] = [];
  const texts = {
    ...PREDICATE_LIST,
    other: (token: Token) => `Unexpected item while parsing: ${token.value}`,
  };
  const trailing = readCommaList(ts, texts, (token) => fields.push(ts.collectName(token.value)) > 0);
  if (trailing) throw ts.errorAt(open, "Unnecessary comma in cascade()");
  return fields;
}

/** Keys allowed as edge arguments; they cannot be groupby aliases. */
export function isEdgeArgumentKey(key: string): boolean {
  return key === "orderasc" || key === "orderdesc" || key === "first" || key === "offset" || key === "after";
}

/** `@groupby(alias: pred, pred@en)`. */
export function parseGroupBy(ts: TokenStream): GroupByKey[] {
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") throw ts.errorAt(open, "Expected a left round after groupby");
  const keys: GroupByKey[] = [];
  let alias = "";
  const trailing = readCommaList(ts, PREDICATE_LIST, (token) => {
    const val = ts.collectName(token.value);
    if (ts.peekIs("Colon")) {
      if (alias !== "") throw ts.errorAt(token, `Expected predicate after ${alias}:`);
      if (isEdgeArgumentKey(val)) throw ts.errorAt(token, `Can't use keyword ${val} as alias in groupby`);
      alias = val;
      ts.next();
      return false;
    }
    let langs: string[] = [];
    if (ts.peekIs("At")) {
      ts.next();
      ts.next();
      langs = parseLanguageList(ts);
    }
    keys.push({ predicate: val, langs, ...(alias !== "" ? { alias } : {}), loc: locationOf(token) });
    alias = "";
    return true;
  });
  if (trailing) throw ts.errorAt(open, "Unnecessary comma in groupby()");
  return keys;
}

/** `@recurse` / `@recurse(depth: 5, loop: true)` (values may be `$variables`). */
export function parseRecurse(ctx: ParseContext): RecurseDirective {
  const ts = ctx.ts;
  let depth: number | undefined;
  let loop = false;
  if (ts.tryConsume("LeftRound") === undefined) return { loop };
  while (ts.next()) {
    let token = ts.item;
    if (token.kind !== "Name") throw ts.errorAt(token, "Expected key inside @recurse()");
    const key = token.value.toLowerCase();
    if (ts.tryConsume("Colon") === undefined) throw ts.errorNext(`Expected colon(:) after ${key}`);
    if (!ts.next()) throw ts.errorNext("Expected argument");
    token = ts.item;
    const val = token.value;
    switch (key) {
      case "depth":
        if (token.kind === "Dollar") {
          const name = variableName(ts);
          const value = recurseVariable(ctx, name);
          const r = goParseUint(value);
          if (typeof r === "string") {
            throw plainError(
              `${name} should be type of integer: ${numErrorText("ParseUint", value, r, "json")}`,
            );
          }
          depth = Number(r);
        } else {
          if (token.kind !== "Name")
            throw ts.errorAt(token, `Expected value inside @recurse() for key: ${key}`);
          const r = goParseUint(val);
          if (typeof r === "string") throw plainError("Value inside depth should be type of integer");
          depth = Number(r);
        }
        break;
      case "loop":
        if (token.kind === "Dollar") {
          const name = variableName(ts);
          const value = recurseVariable(ctx, name);
          const r = goParseBool(value);
          if (typeof r === "string") {
            throw plainError(
              `${name} should be type of boolean: ${numErrorText("ParseBool", value, r, "json")}`,
            );
          }
          loop = r;
        } else {
          const r = goParseBool(val);
          if (typeof r === "string") throw plainError("Value inside loop should be type of boolean");
          loop = r;
        }
        break;
      default:
        throw ts.errorAt(token, `Unexpected key: [${key}] inside @recurse block`);
    }
    if (ts.tryConsume("RightRound") !== undefined) break;
    if (ts.tryConsume("Comma") === undefined) {
      throw ts.errorNext(`Expected comma after value: ${val} inside recurse block`);
    }
  }
  return depth === undefined ? { loop } : { depth, loop };
}

/** Dgraph's `parseVarName`: the names following `$`, joined. */
function variableName(ts: TokenStream): string {
  let name = "$";
  while (ts.peekIs("Name")) {
    ts.next();
    name += ts.item.value;
  }
  if (name === "$") throw ts.errorNext("Expected variable name after $");
  return name;
}

function recurseVariable(ctx: ParseContext, name: string): string {
  if (ctx.vars.typeOf(name) === undefined) throw plainError(`variable ${name} not defined`);
  return ctx.vars.rawValueOf(name);
}

/** The result of `@facets...`: either a facet selection or a facet filter. */
export type FacetsResult =
  | { readonly kind: "keys"; readonly facets: FacetsDirective }
  | { readonly kind: "filter"; readonly filter: FilterTree | undefined };

interface FacetItem {
  name: string;
  alias: string;
  varName: string;
  ordered: boolean;
  desc: boolean;
}

/** Parses `[orderasc:|orderdesc:|alias:] [v as] key`; undefined (nothing consumed) when it is not one. */
function tryParseFacetItem(ts: TokenStream): FacetItem | undefined {
  const saved = ts.save();
  let token: Token | undefined = ts.tryConsume("Name");
  if (token === undefined) return undefined;
  const item: FacetItem = { name: "", alias: "", varName: "", ordered: false, desc: false };
  if (ts.tryConsume("Colon") !== undefined) {
    if (token.value === "orderasc" || token.value === "orderdesc") {
      item.ordered = true;
      item.desc = token.value === "orderdesc";
    } else {
      item.alias = token.value;
    }
    token = ts.tryConsume("Name");
    if (token === undefined) {
      const next = ts.peek();
      ts.restore(saved);
      throw next === undefined
        ? ts.errorNext("Expected name after colon")
        : ts.errorAt(next, "Expected name after colon");
    }
  }
  const first = token.value;
  const as = ts.peek();
  if (as === undefined || as.value !== "as") {
    item.name = ts.collectName(first);
    return item;
  }
  ts.next();
  const keyToken = ts.tryConsume("Name");
  if (keyToken === undefined) throw ts.errorNext("Expected name in facet list");
  item.name = ts.collectName(keyToken.value);
  item.varName = first;
  return item;
}

/** `@facets`, `@facets()`, `@facets(a, alias: b, v as c, orderdesc: d)` or `@facets(<filter>)`. */
export function parseFacets(ctx: ParseContext): FacetsResult {
  const ts = ctx.ts;
  const saved = ts.save();
  if (ts.tryConsume("LeftRound") === undefined) {
    return { kind: "keys", facets: { all: true, keys: [], orders: [] } };
  }
  if (ts.tryConsume("RightRound") !== undefined) {
    return { kind: "keys", facets: { all: false, keys: [], orders: [] } };
  }
  const keys: FacetKey[] = [];
  const orders: FacetOrder[] = [];
  const varKeys = new Set<string>();
  for (;;) {
    const itemStart = ts.peek();
    const item = tryParseFacetItem(ts);
    if (item === undefined) {
      ts.restore(saved);
      return parseFacetFilter(ctx);
    }
    if (item.varName !== "") {
      if (varKeys.has(item.name)) {
        throw ts.errorAt(itemStart ?? ts.item, `Duplicate variable mappings for facet ${item.name}`);
      }
      varKeys.add(item.name);
    }
    keys.push({
      key: item.name,
      ...(item.alias !== "" ? { alias: item.alias } : {}),
      ...(item.varName !== "" ? { asVar: item.varName } : {}),
    });
    if (item.ordered) {
      if (orders.some((o) => o.key === item.name)) {
        throw ts.errorNext(`Sorting by facet: [${item.name}] can only be done once`);
      }
      orders.push({ key: item.name, desc: item.desc });
    }
    if (ts.tryConsume("RightRound") !== undefined) break;
    if (ts.tryConsume("Comma") === undefined) {
      if (keys.length < 2) {
        ts.restore(saved);
        return parseFacetFilter(ctx);
      }
      const next = ts.peek();
      if (next === undefined) throw ts.errorNext("Expected ',' or ')' in facet list: ");
      throw ts.errorAt(next, `Expected ',' or ')' in facet list: ${next.value}`);
    }
  }
  // Dgraph sorts the keys and keeps one entry per key.
  const sorted = keys
    .map((k, i) => ({ k, i }))
    .sort((a, b) => (a.k.key < b.k.key ? -1 : a.k.key > b.k.key ? 1 : a.i - b.i));
  const unique: FacetKey[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i + 1 < sorted.length && sorted[i + 1].k.key === sorted[i].k.key) continue;
    unique.push(sorted[i].k);
  }
  const facets: FacetsDirective =
    orders.length > 0
      ? { all: false, keys: unique, order: orders[0], orders }
      : { all: false, keys: unique, orders };
  return { kind: "keys", facets };
}

function parseFacetFilter(ctx: ParseContext): FacetsResult {
  const filter = parseFilter(ctx);
  return { kind: "filter", filter };
}

/** Throws Dgraph's error when a facet filter reads variables. */
export function checkFacetFilter(ts: TokenStream, at: Token, filter: FilterTree | undefined): void {
  if (filter !== undefined && filterUsesVariables(filter)) {
    throw ts.errorAt(at, "variables are not allowed in facets filter.");
  }
}
