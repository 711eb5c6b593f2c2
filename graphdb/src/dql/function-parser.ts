/**
 * Function calls: `eq(name@en, "x")`, `uid(0x1, v, $ids)`, `uid_in(friend, uid(v))`, `eq(count(p), 2)`,
 * `gt(len(v), 0)`, `regexp(name, /re/i)`, `near(loc, [1.5, 2], 10)`, `similar_to(vec, 3, $v, ef: 64)`.
 * Follows Dgraph's `parseFunction` (argument rules, error texts), producing typed `FunctionCall`s.
 */
import { goParseUint } from "../types/strconv.ts";
import type {
  FunctionArg,
  FunctionAttr,
  FunctionCall,
  FunctionName,
  GeoCoordinates,
  SourceLocation,
} from "./ast.ts";
import { syntaxErrorAt } from "./errors.ts";
import type { Token } from "./lexer.ts";
import { isQuoted, unquote } from "./lexer.ts";
import type { ParseContext } from "./parse-context.ts";
import { parseUidList } from "./query-variables.ts";
import { describeToken, locationOf, plainError } from "./token-stream.ts";

/** Functions accepted as the root `func:` (Dgraph's `validFuncName`). */
const ROOT_FUNCTIONS: ReadonlySet<string> = new Set<FunctionName>([
  "uid",
  "eq",
  "le",
  "lt",
  "ge",
  "gt",
  "between",
  "has",
  "type",
  "allofterms",
  "anyofterms",
  "alloftext",
  "anyoftext",
  "regexp",
  "match",
  "ngram",
  "uid_in",
  "near",
  "within",
  "contains",
  "intersects",
  "similar_to",
  "anyof",
  "allof",
]);

/** Functions accepted in `@filter`, `@facets(...)` filters and `@if` conditions. */
const FILTER_FUNCTIONS: ReadonlySet<string> = new Set<string>([...ROOT_FUNCTIONS, "checkpwd"]);

export function isInequalityFunction(name: string): boolean {
  return (
    name === "eq" || name === "le" || name === "ge" || name === "gt" || name === "lt" || name === "between"
  );
}

export function isGeoFunction(name: string): boolean {
  return name === "near" || name === "within" || name === "contains" || name === "intersects";
}

/** A function as parsed, before validation of its name (nested `val/len/count/uid` never get one). */
export interface RawFunction {
  name: string;
  loc: SourceLocation;
  attr: string;
  attrLoc: SourceLocation;
  lang: string;
  isCount: boolean;
  isValueVar: boolean;
  isLenVar: boolean;
  args: FunctionArg[];
  /** uid(): literal uids and uid variables. */
  uids: number[];
  uidVars: string[];
  /** Variables named by this call (val/len/uid/uid-var arguments), in order. */
  needs: string[];
  /** Root `uid($v)`: the query variable holding the uid list. */
  idVariable?: string;
  idVariableLoc?: SourceLocation;
}

/** A function call's state while its arguments are read. */
interface FunctionState {
  readonly fn: RawFunction;
  readonly atRoot: boolean;
  expectArg: boolean;
  seenFuncArg: boolean;
  expectLang: boolean;
  isDollar: boolean;
  /** Tokens read since the attribute (-1 before it): `@lang` must come right after it. */
  attrItemsAgo: number;
}

/**
 * Parses a function call; the stream is positioned before its name. `atRoot` selects Dgraph's root
 * behaviour for `uid($v)` (one variable, resolved with the root's rules).
 */
export function parseFunction(ctx: ParseContext, atRoot: boolean): RawFunction {
  const ts = ctx.ts;
  const state: FunctionState = {
    fn: parseFunctionName(ctx),
    atRoot,
    expectArg: true,
    seenFuncArg: false,
    expectLang: false,
    isDollar: false,
    attrItemsAgo: -1,
  };
  while (ts.next()) {
    if (state.attrItemsAgo >= 0) state.attrItemsAgo++;
    if (ts.item.kind === "RightRound") break;
    parseFunctionItem(ctx, state);
  }
  checkFunction(ctx, state.fn);
  return state.fn;
}

/** `name(`: the function's name, lower-cased, and an empty call. */
function parseFunctionName(ctx: ParseContext): RawFunction {
  const ts = ctx.ts;
  ts.next();
  const nameToken = ts.item;
  if (nameToken.kind !== "Name") {
    throw ts.errorAt(nameToken, `Expected a function but got ${JSON.stringify(nameToken.value)}`);
  }
  const name = ts.collectName(nameToken.value).toLowerCase();
  if (ts.tryConsume("LeftRound") === undefined) throw ts.errorNext(`Expected ( after func name [${name}]`);
  const loc = locationOf(nameToken);
  return {
    name,
    loc,
    attr: "",
    attrLoc: loc,
    lang: "",
    isCount: false,
    isValueVar: false,
    isLenVar: false,
    args: [],
    uids: [],
    uidVars: [],
    needs: [],
  };
}

/** One token inside the call's parentheses (the stream is on it). */
function parseFunctionItem(ctx: ParseContext, state: FunctionState): void {
  const ts = ctx.ts;
  const { fn } = state;
  const name = fn.name;
  let token = ts.item;
  let sign = "";
  switch (token.kind) {
    case "Comma":
      if (state.expectArg) throw ts.errorAt(token, "Invalid use of comma.");
      if (state.isDollar) throw ts.errorAt(token, "Invalid use of comma after dollar.");
      state.expectArg = true;
      return;
    case "LeftRound": {
      if (state.seenFuncArg) throw ts.errorAt(token, "Multiple functions as arguments not allowed");
      ts.prev();
      ts.prev();
      const nested = parseFunction(ctx, state.atRoot);
      state.seenFuncArg = true;
      applyNestedFunction(fn, nested, token);
      state.expectArg = false;
      return;
    }
    case "At":
      if (state.attrItemsAgo !== 1) {
        throw ts.errorAt(
          token,
          "Invalid usage of '@' in function argument, must only appear immediately after attr.",
        );
      }
      state.expectLang = true;
      return;
    case "MathOp":
      sign = token.value;
      ts.next();
      token = ts.item;
      if (token.kind !== "Name") {
        throw ts.errorAt(token, `Expected arg after func [${name}], but got item ${describeToken(token)}`);
      }
      break;
    case "Dollar":
      if (state.isDollar) throw ts.errorAt(token, "Invalid use of $ in func args");
      state.isDollar = true;
      return;
    case "Regex": {
      const { pattern, flags } = parseRegexLiteral(token.value);
      fn.args.push({ kind: "RegexArg", pattern, flags, loc: locationOf(token) });
      state.expectArg = false;
      return;
    }
    case "LeftSquare":
      if (isGeoFunction(name)) parseGeoArgument(ctx, fn, token);
      else if (isInequalityFunction(name) || name === "uid_in" || name === "similar_to") {
        parseListArguments(ctx, fn, token);
      } else throw ts.errorAt(token, "Unexpected character [ while parsing request.");
      state.expectArg = false;
      return;
    case "RightSquare":
      if (ts.peek() === undefined) throw ts.errorAt(token, "Unexpected EOF while parsing args");
      state.expectArg = false;
      return;
    case "Name":
      break;
    default:
      throw ts.errorAt(token, `Expected arg after func [${name}], but got item ${describeToken(token)}`);
  }
  parseFunctionValue(ctx, state, token, sign);
}

/** A name inside the call: the attribute, a language, a `$variable`, a named or a literal argument. */
function parseFunctionValue(ctx: ParseContext, state: FunctionState, token: Token, sign: string): void {
  const ts = ctx.ts;
  const { fn } = state;
  const name = fn.name;
  const next = ts.peek();
  if (next === undefined) throw ts.errorAt(token, `Unexpected item: ${describeToken(token)}`);
  // A nested function name: the "(" that follows is handled by the next item.
  if (next.kind === "LeftRound") return;
  if (!state.expectArg && !state.expectLang)
    throw ts.errorAt(token, `Expected comma or language but got: ${token.value}`);

  const raw = ts.collectName(token.value);
  const quoted = isQuoted(token);
  const val = sign + unquote(raw.trim());

  if (state.isDollar) {
    state.isDollar = false;
    state.expectArg = false;
    addVariableArgument(ctx, fn, `$${val}`, token, state.atRoot);
    return;
  }
  if (fn.attr === "" && name !== "uid" && name !== "type") {
    if (raw.includes('"')) throw ts.errorAt(token, `Attribute in function must not be quoted with ": ${raw}`);
    if (name === "uid_in" && next.kind === "RightRound") {
      throw ts.errorAt(token, "uid_in function expects an argument, got none");
    }
    fn.attr = val;
    fn.attrLoc = locationOf(token);
    state.attrItemsAgo = 0;
  } else if (state.expectLang) {
    if (val === "*") throw plainError("The * symbol cannot be used as a valid language inside functions");
    fn.lang = val;
    state.expectLang = false;
  } else if (name === "similar_to" && next.kind === "Colon") {
    fn.args.push(parseNamedArgument(ctx, val, token));
    state.expectArg = false;
    return;
  } else if (name !== "uid") {
    fn.args.push({ kind: "LiteralArg", value: val, quoted, loc: locationOf(token) });
  }
  if (name === "var") throw ts.errorAt(token, "Unexpected var(). Maybe you want to try using uid()");
  state.expectArg = false;
  recordVariableUse(ctx, fn, val, token);
}

/** `val(x)`/`len(x)` need variable x; `uid(...)` takes a literal uid or a uid variable. */
function recordVariableUse(ctx: ParseContext, fn: RawFunction, val: string, token: Token): void {
  switch (fn.name) {
    case "val":
    case "len":
      fn.needs.push(val);
      return;
    case "uid": {
      const uid = goParseUint(val);
      if (typeof uid === "bigint") {
        fn.uids.push(Number(uid));
        return;
      }
      if (uid === "range") throw ctx.ts.errorAt(token, `The uid value ${JSON.stringify(val)} is too large.`);
      fn.uidVars.push(val);
      fn.needs.push(val);
      return;
    }
  }
}

/** What a complete call must have: an attribute (but `uid`/`type`), one argument for `type`. */
function checkFunction(ctx: ParseContext, fn: RawFunction): void {
  const ts = ctx.ts;
  if (fn.name !== "uid" && fn.name !== "type" && fn.attr === "") {
    throw ts.errorNext(`Got empty attr for function: [${fn.name}]`);
  }
  if (fn.name === "type" && fn.args.length !== 1) {
    throw ts.errorNext(`type function only supports one argument. Got: ${formatArgs(fn.args)}`);
  }
}

/** Go's `%v` of one Dgraph `Arg` (`{value isValueVar isDQLVar}`). */
function formatArg(a: FunctionArg): string {
  switch (a.kind) {
    case "LiteralArg":
      return `{${a.value} false ${a.fromVariable !== undefined}}`;
    case "ValueVarArg":
      return `{${a.varName} true false}`;
    case "UidVarArg":
      return `{${a.varName} false false}`;
    case "RegexArg":
      return `{${a.pattern} false false} {${a.flags} false false}`;
    case "GeoArg":
      return `{${a.text} false false}`;
    case "NamedArg":
      return `{${a.value} false false}`;
  }
}

/** Go's `%v` of Dgraph's `[]Arg`, e.g. `[{Person false false}]`. */
function formatArgs(args: FunctionArg[]): string {
  return `[${args.map(formatArg).join(" ")}]`;
}

function applyNestedFunction(fn: RawFunction, nested: RawFunction, at: Token): void {
  const loc = locationOf(at);
  switch (nested.name) {
    case "val":
      if (nested.needs.length > 1) throw syntaxErrorAt(loc, "Multiple variables not allowed in a function");
      if (fn.attr === "") {
        fn.attr = nested.needs[0];
        fn.attrLoc = nested.loc;
        fn.isValueVar = true;
      } else {
        fn.args.push({ kind: "ValueVarArg", varName: nested.needs[0], loc: nested.loc });
      }
      fn.needs.push(...nested.needs);
      return;
    case "len":
      if (nested.needs.length > 1) throw syntaxErrorAt(loc, "Multiple variables not allowed in len function");
      if (!isInequalityFunction(fn.name)) {
        throw syntaxErrorAt(loc, "len function only allowed inside inequality function");
      }
      if (fn.attr !== "")
        throw syntaxErrorAt(loc, "incorrect order, the first argument should be len function");
      fn.attr = nested.needs[0];
      fn.attrLoc = nested.loc;
      fn.isLenVar = true;
      fn.needs.push(...nested.needs);
      return;
    case "count":
      fn.attr = nested.attr;
      fn.attrLoc = nested.attrLoc;
      fn.isCount = true;
      return;
    case "uid":
      if (nested.needs.length !== 1) {
        throw syntaxErrorAt(loc, `Nested uid fn expects 1 uid variable, got ${nested.needs.length}`);
      }
      if (nested.uids.length !== 0)
        throw syntaxErrorAt(loc, "Nested uid fn expects only uid variable, got UID");
      fn.needs.push(nested.needs[0]);
      fn.args.push({ kind: "UidVarArg", varName: nested.needs[0], loc: nested.loc });
      return;
    default:
      throw syntaxErrorAt(
        loc,
        `Only val/count/len/uid allowed as function within another. Got: ${nested.name}`,
      );
  }
}

/** `$v` as an argument: substituted now (uid lists, regexes and geo values are re-parsed from it). */
function addVariableArgument(
  ctx: ParseContext,
  fn: RawFunction,
  varName: string,
  token: Token,
  atRoot: boolean,
) {
  const loc = locationOf(token);
  if (fn.name === "uid") {
    if (atRoot) {
      if (fn.idVariable !== undefined) {
        throw syntaxErrorAt(loc, "Only one DQL variable allowed inside uid function.");
      }
      fn.idVariable = varName;
      fn.idVariableLoc = loc;
    } else {
      fn.uids.push(...parseUidList(ctx.vars.rawValueOf(varName)));
    }
    return;
  }
  const value = ctx.vars.valueOf(varName);
  if (fn.name === "regexp" && fn.attr !== "") {
    const { pattern, flags } = parseRegexLiteral(value);
    fn.args.push({ kind: "RegexArg", pattern, flags, loc });
    return;
  }
  if (isGeoFunction(fn.name) && fn.args.length === 0 && value.trimStart().startsWith("[")) {
    fn.args.push({ kind: "GeoArg", text: value, coordinates: parseGeoCoordinates(value, loc), loc });
    return;
  }
  fn.args.push({ kind: "LiteralArg", value, quoted: false, fromVariable: varName, loc });
}

/** `ef: 64` inside similar_to (the key is consumed; the stream is before the colon). */
function parseNamedArgument(ctx: ParseContext, name: string, keyToken: Token): FunctionArg {
  const ts = ctx.ts;
  ts.next(); // ':'
  ts.next();
  let token = ts.item;
  let value: string;
  if (token.kind === "Dollar") {
    ts.next();
    token = ts.item;
    if (token.kind !== "Name")
      throw ts.errorAt(token, `Expecting a variable name. Got: ${describeToken(token)}`);
    value = ctx.vars.valueOf(`$${token.value}`);
  } else {
    let sign = "";
    if (token.kind === "MathOp" && (token.value === "-" || token.value === "+")) {
      sign = token.value;
      ts.next();
      token = ts.item;
    }
    if (token.kind !== "Name")
      throw ts.errorAt(token, `Expecting argument value. Got: ${describeToken(token)}`);
    value = sign + unquote(token.value);
  }
  return { kind: "NamedArg", name, value, loc: locationOf(keyToken) };
}

/** Dgraph's `parseRegexArgs`: `/expr/flags` with `\/` unescaped. Errors carry no position. */
export function parseRegexLiteral(val: string): { pattern: string; flags: string } {
  if (val.length === 0) throw plainError(`Found empty regex: [${val}]`);
  const end = val.lastIndexOf("/");
  if (end < 1 || val[0] !== "/") throw plainError(`Found invalid regex: [${val}]`);
  return { pattern: val.slice(1, end).split("\\/").join("/"), flags: val.slice(end + 1) };
}

/** `[...]` geo literal (the `[` is current): the raw text and its parsed coordinates. */
function parseGeoArgument(ctx: ParseContext, fn: RawFunction, open: Token): void {
  const ts = ctx.ts;
  let text = "[";
  let depth = 1;
  for (;;) {
    if (!ts.next()) throw ts.errorNext("Got EOF while parsing Geo tokens");
    const token = ts.item;
    switch (token.kind) {
      case "LeftSquare":
        depth++;
        break;
      case "RightSquare":
        depth--;
        break;
      case "MathOp":
      case "Comma":
      case "Name":
        break;
      default:
        throw ts.errorAt(token, `Found invalid item: ${token.value} while parsing geo arguments.`);
    }
    text += token.value;
    if (depth > 4 || depth < 0) throw ts.errorAt(token, "Invalid bracket sequence");
    if (depth === 0) break;
  }
  const next = ts.peek();
  if (next === undefined) throw ts.errorNext("Unexpected EOF while parsing args");
  if (next.kind !== "RightRound" && next.kind !== "Comma") {
    throw ts.errorAt(next, `Expected right round or comma. Got: ${describeToken(next)}`);
  }
  const loc = locationOf(open);
  fn.args.push({ kind: "GeoArg", text, coordinates: parseGeoCoordinates(text, loc), loc });
}

/** Parses nested JSON-style arrays of numbers (at most 4 levels deep). */
export function parseGeoCoordinates(text: string, loc: SourceLocation): GeoCoordinates {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw syntaxErrorAt(loc, `Invalid geo coordinates: ${text}`);
  }
  const check = (v: unknown, depth: number): v is GeoCoordinates => {
    if (typeof v === "number") return Number.isFinite(v);
    return Array.isArray(v) && depth < 5 && v.every((x) => check(x, depth + 1));
  };
  if (!Array.isArray(parsed) || !check(parsed, 0))
    throw syntaxErrorAt(loc, `Invalid geo coordinates: ${text}`);
  return parsed;
}

/**
 * `[a, b, $v]` (the `[` is current): Dgraph's `parseFuncArgs`, which flattens the list into arguments.
 * For similar_to the list is a vector, kept as one `[...]` literal.
 */
function parseListArguments(ctx: ParseContext, fn: RawFunction, open: Token): void {
  const ts = ctx.ts;
  let expectArg = true;
  let isDollar = false;
  const items: FunctionArg[] = [];
  for (;;) {
    if (!ts.next()) throw ts.errorNext(`Expecting ] to end list but got ${ts.item.value} instead`);
    const token = ts.item;
    switch (token.kind) {
      case "RightSquare":
        if (fn.name === "similar_to") {
          const text = `[${items.map((a) => (a.kind === "LiteralArg" ? a.value : "")).join(",")}]`;
          fn.args.push({ kind: "LiteralArg", value: text, quoted: false, loc: locationOf(open) });
        } else {
          fn.args.push(...items);
        }
        return;
      case "Dollar": {
        if (!expectArg) throw ts.errorAt(token, "Missing comma in argument list declaration");
        const next = ts.peek();
        if (next === undefined || next.kind !== "Name") {
          throw ts.errorAt(
            next ?? token,
            `Expecting a variable name. Got: ${next ? describeToken(next) : "EOF"}`,
          );
        }
        isDollar = true;
        continue;
      }
      case "Name": {
        const loc = locationOf(token);
        if (isDollar) {
          const varName = `$${token.value}`;
          items.push({
            kind: "LiteralArg",
            value: ctx.vars.valueOf(varName),
            quoted: false,
            fromVariable: varName,
            loc,
          });
        } else {
          items.push({
            kind: "LiteralArg",
            value: unquote(token.value.trim()),
            quoted: isQuoted(token),
            loc,
          });
        }
        break;
      }
      case "Comma":
        if (expectArg) throw ts.errorAt(token, "Invalid comma in argument list");
        expectArg = true;
        continue;
      default:
        throw ts.errorAt(token, "Invalid arg list");
    }
    expectArg = false;
    isDollar = false;
  }
}

/**
 * Validates the name and builds the AST node. `where` picks the set of valid names: root `func:` or
 * filters. Root `uid($v)` is resolved here from the query variables.
 */
export function toFunctionCall(
  ctx: ParseContext,
  fn: RawFunction,
  where: "root" | "filter",
  /** Where an invalid name is reported (Dgraph: the `func:` colon at the root). */
  nameErrorAt: SourceLocation = fn.loc,
): FunctionCall {
  const valid = where === "root" ? ROOT_FUNCTIONS : FILTER_FUNCTIONS;
  if (!valid.has(fn.name)) throw syntaxErrorAt(nameErrorAt, `Function name: ${fn.name} is not valid.`);
  const name = fn.name as FunctionName;
  let attr: FunctionAttr | undefined;
  if (fn.isValueVar) attr = { kind: "ValueVarAttr", varName: fn.attr, loc: fn.attrLoc };
  else if (fn.isLenVar) attr = { kind: "LenVarAttr", varName: fn.attr, loc: fn.attrLoc };
  else if (fn.isCount) {
    const reverse = fn.attr.startsWith("~");
    attr = { kind: "CountAttr", predicate: reverse ? fn.attr.slice(1) : fn.attr, reverse, loc: fn.attrLoc };
  } else if (fn.attr !== "") {
    const reverse = fn.attr.startsWith("~");
    attr = {
      kind: "PredicateAttr",
      predicate: reverse ? fn.attr.slice(1) : fn.attr,
      reverse,
      langs: fn.lang === "" ? [] : [fn.lang],
      loc: fn.attrLoc,
    };
  }
  if (name !== "uid") {
    return attr === undefined
      ? { kind: "FunctionCall", name, args: fn.args, loc: fn.loc }
      : { kind: "FunctionCall", name, attr, args: fn.args, loc: fn.loc };
  }
  let uids = fn.uids;
  if (fn.idVariable !== undefined) {
    uids = [...uids, ...parseUidList(ctx.vars.valueOf(fn.idVariable))];
  }
  return { kind: "FunctionCall", name, args: fn.args, uids: { uids, vars: fn.uidVars }, loc: fn.loc };
}
