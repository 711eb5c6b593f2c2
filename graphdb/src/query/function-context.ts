/**
 * A query function checked against the schema with its arguments prepared (Dgraph's
 * `parseSrcFn` / `functionContext`): converted comparison values, index tokens, compiled regular
 * expression, count thresholds. Shared by root functions (index lookups) and `@filter` (checks over
 * candidate uids). Errors carry Dgraph's texts.
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList } from "../core/graph-reader.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { FunctionArg, FunctionCall } from "../dql/ast.ts";
import { sortedUids, unionAll } from "../posting/uid-algebra.ts";
import { fulltextStrings } from "../tokenizer/fulltext.ts";
import { geoCoverTokens } from "../tokenizer/geo.ts";
import { getTokenizer, queryTokens } from "../tokenizer/registry.ts";
import { termStrings } from "../tokenizer/term.ts";
import { stringToken } from "../tokenizer/token-bytes.ts";
import type { Tokenizer } from "../tokenizer/tokenizer.ts";
import { regexTrigrams, trigramStrings } from "../tokenizer/trigram.ts";
import { convertFunctionArg, convertValue } from "../types/convert.ts";
import { circleBoundingBox } from "../types/geo.ts";
import { type GeoOp, type GeoQuery, geoQueryShape, shapeBoundingBox } from "../types/geo-predicates.ts";
import type { ExecContext } from "./exec-context.ts";
import { compileDqlRegexp, type DqlRegexp } from "./regular-expression.ts";
import { uidsOfVars, type VarScope } from "./var-store.ts";

export type CompareOp = "eq" | "le" | "lt" | "ge" | "gt" | "between";

/** What a function tests, prepared. */
export type PreparedFunction =
  /** Matches nothing: unknown predicate, value variable without values... */
  | { kind: "none" }
  | { kind: "uid"; uids: UidList }
  | {
      kind: "compare";
      op: CompareOp;
      attr: string;
      schema: PredicateSchema;
      langs: readonly string[];
      lang: string;
      args: TypedValue[];
      /** Tokenizer picked for index lookups (indexed predicates only). */
      tokenizer: Tokenizer | undefined;
    }
  | {
      kind: "countCompare";
      op: CompareOp;
      attr: string;
      reverse: boolean;
      schema: PredicateSchema;
      thresholds: number[];
    }
  | { kind: "valueVar"; op: CompareOp; vals: Map<number, TypedValue>; args: string[] }
  | { kind: "has"; attr: string; reverse: boolean; schema: PredicateSchema; lang: string }
  | {
      kind: "text";
      all: boolean;
      tokenizer: "term" | "fulltext";
      attr: string;
      schema: PredicateSchema;
      lang: string;
      /** Query terms (strings) and their index tokens. */
      words: string[];
      tokens: Uint8Array[];
    }
  | {
      kind: "regexp";
      attr: string;
      schema: PredicateSchema;
      lang: string;
      regex: DqlRegexp;
      pattern: string;
      flags: string;
    }
  | { kind: "match"; attr: string; schema: PredicateSchema; lang: string; text: string; max: number }
  | { kind: "uidIn"; attr: string; reverse: boolean; schema: PredicateSchema; uids: UidList }
  /** near/within/contains/intersects: the query shape and the geo index cells to look up at root. */
  | { kind: "geo"; attr: string; schema: PredicateSchema; query: GeoQuery; tokens: Uint8Array[] };

/** Dgraph's `langForFunc`: functions take at most one language. */
function langForFunc(langs: readonly string[]): string {
  return langs.length === 0 ? "" : langs[0];
}

function literalTexts(fn: FunctionCall): string[] {
  const out: string[] = [];
  for (const a of fn.args) if (a.kind === "LiteralArg") out.push(a.value);
  return out;
}

function argsForError(args: readonly FunctionArg[]): string {
  return `[${args.map((a) => (a.kind === "LiteralArg" || a.kind === "NamedArg" ? a.value : a.kind)).join(" ")}]`;
}

function ensureArgs(fn: FunctionCall, n: number): void {
  if (fn.args.length !== n) {
    throw new DgraphError(
      `Function '${fn.name}' requires ${n} arguments, but got ${fn.args.length} (${argsForError(fn.args)})`,
    );
  }
}

/** Converts function arguments to the predicate type (Dgraph: `Got error: ... while running: ...`). */
function convertArgs(fn: FunctionCall, texts: string[], type: ScalarType, attr: string): TypedValue[] {
  return texts.map((t) => {
    try {
      return convertFunctionArg(t, type);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const shown = texts.map((x) => ` args:${JSON.stringify(x)}`).join("");
      throw new DgraphError(
        `Got error: ${msg} while running: name:${JSON.stringify(fn.name)}${shown} (attr ${attr})`,
      );
    }
  });
}

/** Converts a stored value to the predicate type for comparison; undefined when it cannot be. */
export function storedAs(v: TypedValue, type: ScalarType): TypedValue | undefined {
  if (v.type === type) return v;
  if ((v.type === "default" || v.type === "string") && (type === "default" || type === "string")) return v;
  try {
    return convertValue(v, type === "default" ? "string" : type);
  } catch {
    return undefined;
  }
}

/** Dgraph's pickTokenizer: eq prefers a non-lossy tokenizer, the others need a sortable one. */
export function pickTokenizer(schema: PredicateSchema, op: CompareOp): Tokenizer {
  const toks: Tokenizer[] = [];
  for (const name of schema.tokenizers) {
    const t = getTokenizer(name);
    if (t !== undefined) toks.push(t);
  }
  for (const t of toks) {
    if (op === "eq" ? !t.lossy : t.sortable) return t;
  }
  if (op !== "eq" || toks.length === 0) {
    throw new DgraphError(`Attribute:${schema.predicate} does not have proper index for comparison`);
  }
  if (schema.type === "string") for (const t of toks) if (t.name !== "trigram") return t;
  return toks[0];
}

function hasTokenizer(schema: PredicateSchema, name: string): boolean {
  return schema.tokenizers.includes(name);
}

/** Dgraph's verifyStringIndex error. */
function requireIndex(schema: PredicateSchema, name: string): void {
  if (!hasTokenizer(schema, name)) {
    throw new DgraphError(`Attribute ${schema.predicate} is not indexed with type ${name}`);
  }
}

function checkReverse(schema: PredicateSchema, reverse: boolean): void {
  if (reverse && !schema.reverse)
    throw new DgraphError(`Predicate ${schema.predicate} doesn't have reverse edge`);
}

function checkLangs(schema: PredicateSchema, langs: readonly string[]): void {
  if (langs.length > 0 && !schema.lang) {
    throw new DgraphError(
      "Language tags can only be used with predicates of string type having @lang directive in schema." +
        ` Got: [${schema.predicate}]`,
    );
  }
}

function parseThreshold(fn: FunctionCall, text: string): number {
  if (!/^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]*|[1-9][0-9]*)$/.test(text)) {
    throw new DgraphError(`Compare ${fn.name}(${text}) require digits, but got invalid num`);
  }
  return Number(text.startsWith("0") && /^0[0-7]+$/.test(text) ? Number.parseInt(text, 8) : Number(text));
}

/**
 * Prepares a function for evaluation. `atRoot` enables Dgraph's root-only checks (index required for
 * comparisons, `uid_in` refused).
 */
export function prepareFunction(
  ctx: ExecContext,
  fn: FunctionCall,
  atRoot: boolean,
  scope: VarScope,
): PreparedFunction {
  switch (fn.name) {
    case "uid": {
      const set = fn.uids ?? { uids: [], vars: [] };
      const literal = sortedUids(set.uids);
      if (set.vars.length === 0) return { kind: "uid", uids: literal };
      return { kind: "uid", uids: unionAll([literal, uidsOfVars(set.vars, scope, ctx.vars)]) };
    }
    case "type":
      return prepareCompare(ctx, fn, "eq", "dgraph.type", [], literalTexts(fn), atRoot);
    case "eq":
    case "le":
    case "lt":
    case "ge":
    case "gt":
    case "between":
      return prepareComparison(ctx, fn, fn.name, atRoot);
    case "has":
      return prepareHas(ctx, fn);
    case "allofterms":
    case "anyofterms":
    case "alloftext":
    case "anyoftext":
      return prepareText(ctx, fn);
    case "regexp":
      return prepareRegexp(ctx, fn, atRoot);
    case "match":
      return prepareMatch(ctx, fn);
    case "uid_in":
      return prepareUidIn(ctx, fn, atRoot, scope);
    case "near":
    case "within":
    case "contains":
    case "intersects":
      return prepareGeo(ctx, fn, fn.name);
    case "checkpwd":
      throw new DgraphError(`Invalid function name: ${fn.name}`);
    default:
      throw new DgraphError(`${fn.name}() is not supported yet`);
  }
}

function predicateAttr(fn: FunctionCall): { attr: string; reverse: boolean; langs: readonly string[] } {
  const a = fn.attr;
  if (a === undefined || a.kind !== "PredicateAttr") {
    throw new DgraphError(`Function ${fn.name} needs a predicate as its first argument`);
  }
  return { attr: a.predicate, reverse: a.reverse, langs: a.langs };
}

function prepareComparison(
  ctx: ExecContext,
  fn: FunctionCall,
  op: CompareOp,
  atRoot: boolean,
): PreparedFunction {
  const a = fn.attr;
  if (a?.kind === "ValueVarAttr") {
    const vals = ctx.vars.get(a.varName)?.vals;
    if (vals === undefined || vals.size === 0) return { kind: "none" };
    return { kind: "valueVar", op, vals, args: literalTexts(fn) };
  }
  if (a?.kind === "CountAttr") {
    const schema = ctx.reader.schema.predicate(a.predicate);
    const texts = literalTexts(fn);
    const want = op === "between" ? 2 : 1;
    if (texts.length !== want) ensureArgs(fn, want);
    const thresholds = texts.map((t) => parseThreshold(fn, t));
    if (schema === undefined) return { kind: "none" };
    checkReverse(schema, a.reverse);
    return { kind: "countCompare", op, attr: a.predicate, reverse: a.reverse, schema, thresholds };
  }
  if (a?.kind === "LenVarAttr") throw new DgraphError("len() can only be used in upsert conditions");
  const { attr, langs } = predicateAttr(fn);
  // eq(pred, val(x)): the variable's values become the arguments.
  const texts: string[] = [];
  const extra: TypedValue[] = [];
  for (const arg of fn.args) {
    if (arg.kind === "LiteralArg") texts.push(arg.value);
    else if (arg.kind === "ValueVarArg") {
      const vals = ctx.vars.get(arg.varName)?.vals;
      if (vals !== undefined) for (const v of vals.values()) extra.push(v);
    }
  }
  return prepareCompare(ctx, fn, op, attr, langs, texts, atRoot, extra);
}

function prepareCompare(
  ctx: ExecContext,
  fn: FunctionCall,
  op: CompareOp,
  attr: string,
  langs: readonly string[],
  texts: string[],
  atRoot: boolean,
  fromVars: TypedValue[] = [],
): PreparedFunction {
  const usesVar = fn.args.some((x) => x.kind === "ValueVarArg");
  if (!usesVar) {
    if (op === "eq" && texts.length < 1) throw new DgraphError("eq expects atleast 1 argument.");
    if (op === "between" && texts.length !== 2) throw new DgraphError("between expects exactly 2 argument.");
    if (op !== "eq" && op !== "between" && texts.length !== 1) {
      throw new DgraphError(`${op} expects only 1 argument. Got: ${argsForError(fn.args)}`);
    }
  }
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  const args = convertArgs(fn, texts, schema.type, attr);
  for (const v of fromVars) {
    const c = storedAs(v, schema.type);
    if (c !== undefined) args.push(c);
  }
  if (args.length === 0) return { kind: "none" };
  const indexed = schema.tokenizers.length > 0;
  const tokenizer = indexed ? pickTokenizer(schema, op) : undefined;
  if (atRoot && !indexed) throw new DgraphError(`Predicate ${attr} is not indexed`);
  checkLangs(schema, langs);
  return { kind: "compare", op, attr, schema, langs, lang: langForFunc(langs), args, tokenizer };
}

function prepareHas(ctx: ExecContext, fn: FunctionCall): PreparedFunction {
  const { attr, reverse, langs } = predicateAttr(fn);
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  checkReverse(schema, reverse);
  checkLangs(schema, langs);
  return { kind: "has", attr, reverse, schema, lang: langForFunc(langs) };
}

function prepareText(ctx: ExecContext, fn: FunctionCall): PreparedFunction {
  const { attr, langs } = predicateAttr(fn);
  const fulltext = fn.name === "alloftext" || fn.name === "anyoftext";
  ensureArgs(fn, 1);
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  const tokName = fulltext ? "fulltext" : "term";
  requireIndex(schema, tokName);
  checkLangs(schema, langs);
  const lang = langForFunc(langs);
  const text = literalTexts(fn)[0] ?? "";
  const fnLang = lang === "." ? "en" : lang === "" ? undefined : lang;
  const words = fulltext ? fulltextStrings(text, fnLang) : termStrings(text, fnLang);
  const tokens = queryTokens(tokName, { type: "string", value: text }, fnLang);
  return {
    kind: "text",
    all: fn.name.startsWith("allof"),
    tokenizer: tokName,
    attr,
    schema,
    lang,
    words,
    tokens,
  };
}

function prepareRegexp(ctx: ExecContext, fn: FunctionCall, atRoot: boolean): PreparedFunction {
  const { attr, langs } = predicateAttr(fn);
  const re = fn.args[0];
  if (fn.args.length !== 1 || re.kind !== "RegexArg") ensureArgs(fn, 2);
  const { pattern, flags } = re as { pattern: string; flags: string };
  const regex = compileDqlRegexp(pattern, flags);
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  checkLangs(schema, langs);
  if (schema.type !== "string") {
    if (schema.type === "uid") throw new DgraphError(`Attribute not scalar: ${attr} uid`);
    throw new DgraphError("Got non-string type. Regex match is allowed only on string type.");
  }
  if (atRoot && !hasTokenizer(schema, "trigram")) {
    throw new DgraphError(
      `Attribute ${attr} does not have trigram index for regex matching. ` +
        "Please add a trigram index or use has/uid function with regexp() as filter.",
    );
  }
  return { kind: "regexp", attr, schema, lang: langForFunc(langs), regex, pattern, flags };
}

function prepareMatch(ctx: ExecContext, fn: FunctionCall): PreparedFunction {
  const { attr, langs } = predicateAttr(fn);
  ensureArgs(fn, 2);
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  requireIndex(schema, "trigram");
  const [text, dist] = literalTexts(fn);
  if (!/^[+-]?[0-9]+$/.test(dist ?? "")) {
    throw new DgraphError(`Levenshtein distance value must be an int, got ${dist}`);
  }
  const max = Number(dist);
  if (max < 0) throw new DgraphError(`Levenshtein distance value must be greater than 0, got ${dist}`);
  if (schema.type !== "string") {
    throw new DgraphError("Got non-string type. Fuzzy match is allowed only on string type.");
  }
  checkLangs(schema, langs);
  return { kind: "match", attr, schema, lang: langForFunc(langs), text, max };
}

function prepareUidIn(
  ctx: ExecContext,
  fn: FunctionCall,
  atRoot: boolean,
  scope: VarScope,
): PreparedFunction {
  const { attr, reverse } = predicateAttr(fn);
  const lists: UidList[] = [];
  const literal: number[] = [];
  for (const arg of fn.args) {
    if (arg.kind === "UidVarArg") lists.push(uidsOfVars([arg.varName], scope, ctx.vars));
    else if (arg.kind === "LiteralArg") {
      const n = Number(arg.value);
      if (!Number.isSafeInteger(n) || n < 0) {
        throw new DgraphError(`Value ${JSON.stringify(arg.value)} in uid_in is not a number`);
      }
      literal.push(n);
    }
  }
  if (fn.uids !== undefined) {
    literal.push(...fn.uids.uids);
    if (fn.uids.vars.length > 0) lists.push(uidsOfVars(fn.uids.vars, scope, ctx.vars));
  }
  if (atRoot) throw new DgraphError("uid_in function not allowed at root");
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  checkReverse(schema, reverse);
  lists.push(sortedUids(literal));
  return { kind: "uidIn", attr, reverse, schema, uids: unionAll(lists) };
}

/** Go's strconv.ParseFloat syntax (decimal, exponent, inf, nan). */
const GO_FLOAT = /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)$/i;

/** `near`'s distance in metres (Dgraph's GetGeoTokens checks). */
function nearDistance(text: string): number {
  if (!GO_FLOAT.test(text)) {
    throw new DgraphError(
      `Error while converting distance to float: strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  const lower = text.toLowerCase().replace(/^\+/, "");
  const meters =
    lower.endsWith("inf") || lower.endsWith("infinity")
      ? (lower.startsWith("-") ? -1 : 1) * Infinity
      : Number(text);
  if (meters < 0) throw new DgraphError("Distance cannot be negative");
  if (!(meters > 0)) throw new DgraphError("Invalid max distance specified for a near query");
  return meters;
}

/** The geo function's query (Dgraph's GetGeoTokens and queryTokensGeo checks, in their order). */
function geoQueryOf(fn: FunctionCall, op: GeoOp): GeoQuery {
  const want = op === "near" ? 2 : 1;
  if (fn.args.length !== want) {
    throw new DgraphError(`${op} function requires ${want} arguments, but got ${fn.args.length}`);
  }
  const arg = fn.args[0];
  const meters = op === "near" ? nearDistance(literalTexts(fn)[0] ?? "") : 0;
  const shape = geoQueryShape(
    arg.kind === "GeoArg" ? arg.coordinates : arg.kind === "LiteralArg" ? arg.value : "",
  );
  if (op === "near" && shape.kind !== "point") throw new DgraphError("Require a point for a within query.");
  if ((op === "within" || op === "intersects") && shape.kind !== "polygons") {
    throw new DgraphError(`Require a polygon for ${op} query`);
  }
  return { op, shape, meters };
}

/**
 * near/within/contains/intersects. The geo index is needed at root and in filters alike (Dgraph's
 * needsIndex); its tokens are the cells covering the query's bounding box (the circle's for near).
 */
function prepareGeo(ctx: ExecContext, fn: FunctionCall, op: GeoOp): PreparedFunction {
  const { attr } = predicateAttr(fn);
  const query = geoQueryOf(fn, op);
  const schema = ctx.reader.schema.predicate(attr);
  if (schema === undefined) return { kind: "none" };
  if (schema.tokenizers.length === 0) throw new DgraphError(`Predicate ${attr} is not indexed`);
  if (!hasTokenizer(schema, "geo")) return { kind: "none" };
  const shape = query.shape;
  const box =
    op === "near" && shape.kind === "point"
      ? circleBoundingBox(shape.point[0], shape.point[1], query.meters)
      : shapeBoundingBox(shape);
  return { kind: "geo", attr, schema, query, tokens: geoCoverTokens(box) };
}

/** Index tokens of a comparison argument (Dgraph's getInequalityTokens, first step). */
export function compareTokens(
  p: Extract<PreparedFunction, { kind: "compare" }>,
  arg: TypedValue,
): Uint8Array | null {
  const t = p.tokenizer!;
  const lang = p.lang === "" || p.lang === "." ? undefined : p.lang;
  const toks = t.tokens(arg, lang);
  if (toks.length === 0) return null;
  if (toks.length > 1 && !(p.op === "eq" && (t.name === "term" || t.name === "fulltext"))) {
    throw new DgraphError(`Attribute ${p.attr} does not have a valid tokenizer.`);
  }
  return toks[0];
}

/** Trigram index tokens a regexp needs: an OR of alternatives, each an AND of OR groups; null = too wide. */
export function regexTokenGroups(pattern: string, flags: string): Uint8Array[][][] | null {
  const alternatives = regexTrigrams(pattern, flags);
  if (alternatives === null || alternatives.length === 0) return null;
  const id = getTokenizer("trigram")!.id;
  return alternatives.map((groups) => groups.map((g) => g.map((t) => stringToken(id, t))));
}

/** Trigram index tokens of a fuzzy-match string. */
export function matchTokens(text: string): Uint8Array[] {
  return trigramStrings(text).map((t) => stringToken(getTokenizer("trigram")!.id, t));
}
