/**
 * Selection sets (`{ ... }`), following Dgraph's `godeep`: predicates, aliases, `x as` variables,
 * `count(...)`, `val(x)`, aggregates, `math(...)`, `expand(...)`, `checkpwd(...)`, fragment spreads,
 * edge arguments `(first: 2, orderasc: name)` and directives `@filter`, `@facets`, `@cascade`...
 */
import type { AggregateFunctionName, OrderKey, SourceLocation } from "./ast.ts";
import { type CommaListTexts, readCommaList } from "./comma-list.ts";
import {
  checkFacetFilter,
  isEdgeArgumentKey,
  parseCascade,
  parseFacets,
  parseGroupBy,
  parseLanguageList,
} from "./directive-parser.ts";
import { parseFilter } from "./filter-parser.ts";
import { parseFunction } from "./function-parser.ts";
import type { Token } from "./lexer.ts";
import { parseMath } from "./math-parser.ts";
import type { ParseContext } from "./parse-context.ts";
import { newRawNode, type RawArg, type RawNode } from "./raw-query.ts";
import { describeToken, locationOf, type TokenStream } from "./token-stream.ts";

const NOT_SEEN = 0;
const SEEN = 1;
const SEEN_WITH_PRED = 2;

export function isAggregator(name: string): name is AggregateFunctionName {
  return name === "min" || name === "max" || name === "sum" || name === "avg";
}

const VARIABLE_LIST: CommaListTexts = {
  comma: "Expected a variable but got comma",
  missingComma: (token) => `Expected a variable but got ${token.value}`,
  other: () => undefined,
};

/** `val(a, b)` after the `val` keyword: the variable names. */
export function parseVarList(ts: TokenStream): string[] {
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") throw ts.errorAt(open, "Expected a left round after var");
  const names: string[] = [];
  const trailing = readCommaList(ts, VARIABLE_LIST, (token) => names.push(token.value) > 0);
  if (trailing) throw ts.errorAt(open, "Unnecessary comma in val()");
  return names;
}

/** Dgraph's `attrAndLang`: `name@en:fr` → name and languages. */
export function splitLangs(value: string): { attr: string; langs: string[] } {
  const at = value.indexOf("@");
  if (at < 0) return { attr: value, langs: [] };
  return { attr: value.slice(0, at), langs: value.slice(at + 1).split(":") };
}

/** Fields allowed in an empty block (no root function) must be aggregations or math. */
function validateEmptyBlockItem(ts: TokenStream, name: string): void {
  const saved = ts.save();
  let fname = name;
  if (ts.tryConsume("Colon") !== undefined) {
    const t = ts.tryConsume("Name");
    if (t === undefined) {
      const next = ts.peek();
      ts.restore(saved);
      throw ts.errorNext(`Expected name. Got: ${next?.value ?? ""}`);
    }
    fname = t.value;
  }
  const ok = ts.tryConsume("LeftRound") !== undefined;
  if (!ok || (fname !== "math" && !isAggregator(fname))) {
    const error = ts.errorNext(`Only aggregation/math functions allowed inside empty blocks. Got: ${fname}`);
    ts.restore(saved);
    throw error;
  }
  ts.restore(saved);
}

const TYPE_LIST: CommaListTexts = {
  ...VARIABLE_LIST,
  other: (token) => `Unexpected token ${token.value} when reading a type list`,
};

/** The `expand(Type1, Type2)` list, starting at the first type name; leaves the stream before `)`. */
function parseTypeList(ts: TokenStream): string[] {
  const first = ts.item;
  if (first.kind !== "Name") throw ts.errorAt(first, "Invalid use of expand()");
  const types = [first.value];
  const trailing = readCommaList(ts, TYPE_LIST, (token) => types.push(token.value) > 0, false);
  if (ts.item.kind === "RightRound") ts.prev();
  if (trailing) throw ts.errorAt(ts.item, "Unnecessary comma in val()");
  return types;
}

/** One `key: value` read from an edge's arguments, checked once all are read. */
interface EdgeArgument {
  key: string;
  value: string;
  fromVariable: boolean;
  valueVar?: string;
  token: Token;
}

/** `(first: 10, offset: 2, after: 0x1, orderasc: name, orderdesc: val(x))` on an edge. */
function parseEdgeArguments(ctx: ParseContext, curp: RawNode): void {
  const ts = ctx.ts;
  const pairs: EdgeArgument[] = [];
  let expectArg = true;
  let orderCount = 0;
  loop: while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "Name": {
        if (!expectArg) throw ts.errorAt(token, `Expecting a comma. But got: ${token.value}`);
        const key = ts.collectName(token.value);
        if (key === "orderasc" || key === "orderdesc") orderCount++;
        expectArg = false;
        pairs.push(parseEdgeArgumentValue(ctx, curp, key, orderCount));
        break;
      }
      case "RightRound":
        if (expectArg) throw ts.errorAt(token, "Expected argument but got ')'.");
        break loop;
      case "Comma":
        if (expectArg) throw ts.errorAt(token, "Expected Argument but got comma.");
        expectArg = true;
        break;
      default:
        throw ts.errorAt(token, `Expecting argument name. Got: ${describeToken(token)}`);
    }
  }
  const sorted = new Set<string>();
  for (const pair of pairs) applyEdgeArgument(ts, curp, pair, sorted);
}

/** `: value` after an edge argument's key: `val(x)`, `$var`, or a (signed, language-tagged) name. */
function parseEdgeArgumentValue(
  ctx: ParseContext,
  curp: RawNode,
  key: string,
  orderCount: number,
): EdgeArgument {
  const ts = ctx.ts;
  ts.next();
  let token = ts.item;
  if (token.kind !== "Colon")
    throw ts.errorAt(token, `Expecting a colon. Got: ${describeToken(token)} in ${curp.attr}`);
  ts.next();
  token = ts.item;
  if (token.value === "val" && token.kind === "Name") {
    const names = parseVarList(ts);
    if (names.length !== 1) throw ts.errorAt(token, `Only one variable expected. Got ${names.length}`);
    if ((key === "orderasc" || key === "orderdesc") && orderCount > 1) {
      throw ts.errorAt(token, `Multiple sorting only allowed by predicates. Got: ${names[0]}`);
    }
    return { key, value: names[0], fromVariable: false, valueVar: names[0], token };
  }
  if (token.kind === "Dollar") {
    ts.next();
    const nameToken = ts.item;
    if (nameToken.kind !== "Name") {
      throw ts.errorAt(nameToken, `Expecting argument value. Got: ${describeToken(nameToken)}`);
    }
    return { key, value: ctx.vars.valueOf(`$${nameToken.value}`), fromVariable: true, token: nameToken };
  }
  let sign = "";
  if (token.kind === "MathOp") {
    if (token.value !== "+" && token.value !== "-") {
      throw ts.errorAt(token, `Only Plus and minus are allowed unary ops. Got: ${token.value}`);
    }
    sign = token.value;
    ts.next();
    token = ts.item;
  }
  if (token.kind !== "Name")
    throw ts.errorAt(token, `Expecting argument value. Got: ${describeToken(token)}`);
  let value = ts.collectName(sign + token.value);
  if (ts.peekIs("At")) {
    ts.next();
    ts.next();
    value = `${value}@${parseLanguageList(ts).join(":")}`;
  }
  return { key, value, fromVariable: false, token };
}

/** Checks one edge argument and stores it: an order key in `curp.order`, the others in `curp.args`. */
function applyEdgeArgument(ts: TokenStream, curp: RawNode, p: EdgeArgument, sorted: Set<string>): void {
  if (!isEdgeArgumentKey(p.key)) throw ts.errorNext(`Got invalid keyword: ${p.key}`);
  const args = curp.args ?? {};
  if (Object.hasOwn(args, p.key)) {
    throw ts.errorNext(`Got repeated key ${JSON.stringify(p.key)} at level ${JSON.stringify(curp.attr)}`);
  }
  if (p.value === "" && !p.fromVariable) throw ts.errorNext("Got empty argument");
  if (p.key === "orderasc" || p.key === "orderdesc") {
    if (sorted.has(p.value))
      throw ts.errorNext(`Sorting by an attribute: [${p.value}] can only be done once`);
    const desc = p.key === "orderdesc";
    const loc = locationOf(p.token);
    let order: OrderKey;
    if (p.valueVar !== undefined) {
      order = { kind: "OrderByValueVar", desc, varName: p.valueVar, loc };
    } else {
      const { attr, langs } = splitLangs(p.value);
      if (langs.length > 1) {
        throw ts.errorNext(`Sorting by an attribute: [${p.value}] can only be done on one language`);
      }
      order = { kind: "OrderByPredicate", desc, predicate: attr, langs, loc };
    }
    curp.order.push(order);
    sorted.add(p.value);
    return;
  }
  const arg: RawArg = { value: p.value, fromVariable: p.fromVariable };
  args[p.key] = arg;
  curp.args = args;
}

/** `@directive` or `@lang` after a field (the stream is on `@`). */
function parseFieldDirective(ctx: ParseContext, curp: RawNode | null): void {
  const ts = ctx.ts;
  const at = ts.item;
  const before = ts.peek(-1);
  const isExpand = curp !== null && curp.kind === "expand";
  if (before?.kind === "LeftCurl" || curp === null || (curp.internal && !isExpand)) {
    // Dgraph reports the token before the "@".
    throw ts.errorAt(before ?? at, "Invalid use of directive.");
  }
  ts.next();
  const item = ts.item;
  const peek = ts.peek();
  if (peek === undefined || item.kind !== "Name")
    throw ts.errorAt(item, "Expected directive or language list");
  if (isExpand && item.value !== "filter")
    throw ts.errorAt(item, "expand is only compatible with type filters");

  switch (item.value) {
    case "facets": {
      const res = parseFacets(ctx);
      if (res.kind === "keys") {
        if (curp.facets !== undefined) throw ts.errorAt(item, "Only one facets allowed");
        curp.facets = res.facets;
      } else {
        if (res.filter === undefined) throw ts.errorAt(item, "Facets parsing failed.");
        if (curp.facetsFilter !== undefined) throw ts.errorAt(item, "Only one facets filter allowed");
        checkFacetFilter(ts, item, res.filter);
        curp.facetsFilter = res.filter;
      }
      return;
    }
    case "cascade":
      curp.cascade = [...(curp.cascade ?? []), ...parseCascade(ts)];
      return;
    case "normalize":
      curp.normalize = true;
      return;
    case "ignorereflex":
      curp.ignoreReflex = true;
      return;
  }
  if (peek.kind === "LeftRound") {
    switch (item.value) {
      case "filter": {
        if (curp.filter !== undefined) {
          throw ts.errorAt(item, "Use AND, OR and round brackets instead of multiple filter directives.");
        }
        const filter = parseFilter(ctx);
        if (
          isExpand &&
          filter !== undefined &&
          filter.kind === "FilterFunction" &&
          filter.func.name !== "type"
        ) {
          throw ts.errorAt(item, "expand is only compatible with type filters");
        }
        if (filter !== undefined) curp.filter = filter;
        return;
      }
      case "groupby":
        if (curp.isGroupby) throw ts.errorAt(item, "Only one group by directive allowed.");
        curp.isGroupby = true;
        curp.groupBy = parseGroupBy(ts);
        return;
      default:
        throw ts.errorAt(item, `Unknown directive [${item.value}]`);
    }
  }
  if (curp.attr !== "" && (curp.langs === undefined || curp.langs.length === 0)) {
    const langs = parseLanguageList(ts);
    if (langs.length === 0) throw ts.errorAt(item, `Expected at least 1 language in list for ${curp.attr}`);
    curp.langs = langs;
    return;
  }
  throw ts.errorAt(item, `Expected directive or language list, got @${item.value}`);
}

/** `alias :` and `x as` seen before a field, waiting for it. */
interface Pending {
  alias: string | undefined;
  varName: string | undefined;
}

function take(pending: Pending, child: RawNode): RawNode {
  if (pending.alias !== undefined) child.alias = pending.alias;
  if (pending.varName !== undefined) child.asVar = pending.varName;
  pending.alias = undefined;
  pending.varName = undefined;
  return child;
}

/** Where a selection set is while fields are read: the pending alias/variable and `count(...)` state. */
interface SelectionState {
  readonly gq: RawNode;
  count: number;
  readonly pending: Pending;
  /** The field that `{`, `(` and `@` after it apply to; null after a field that takes none. */
  curp: RawNode | null;
}

/** Parses the fields of a selection set into `gq.children`; the `{` has been consumed. */
export function parseSelectionSet(ctx: ParseContext, gq: RawNode): void {
  const ts = ctx.ts;
  const state: SelectionState = {
    gq,
    count: NOT_SEEN,
    pending: { alias: undefined, varName: undefined },
    curp: gq,
  };
  while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "EOF":
      case "RightCurl":
        return;
      case "Period":
        parseFragmentSpread(ts, gq, token);
        break;
      case "Name":
        parseNamedSelection(ctx, state, token);
        break;
      case "LeftCurl":
        parseChildSelectionSet(ctx, state.curp);
        break;
      case "LeftRound":
        if (state.curp === null) throw ts.errorNext("Query syntax invalid.");
        if (state.curp.attr === "") throw ts.errorNext("Predicate name cannot be empty.");
        parseEdgeArguments(ctx, state.curp);
        break;
      case "At":
        parseFieldDirective(ctx, state.curp);
        break;
      case "RightRound":
        if (state.count !== SEEN_WITH_PRED) throw ts.errorNext("Invalid mention of brackets");
        state.count = NOT_SEEN;
        break;
      default:
        break;
    }
  }
}

/** `...Name`: a fragment spread (the stream is on the first period). */
function parseFragmentSpread(ts: TokenStream, gq: RawNode, first: Token): void {
  let dots = 1;
  for (let i = 0; i < 2; i++) if (ts.next() && ts.item.kind === "Period") dots++;
  if (dots !== 3) throw ts.errorAt(first, `Expected 3 periods ("..."), got ${dots}.`);
  ts.next();
  const name = ts.item;
  if (name.kind === "Name") gq.children.push(newRawNode("fragment", name.value, locationOf(name)));
}

/** `{ ... }` after a field: its own selection set. */
function parseChildSelectionSet(ctx: ParseContext, curp: RawNode | null): void {
  const ts = ctx.ts;
  if (curp === null) throw ts.errorNext("Query syntax invalid.");
  if (curp.langs !== undefined && curp.langs.length > 0) {
    throw ts.errorNext(
      `Cannot have children for attr: ${curp.attr} with lang tags: [${curp.langs.join(" ")}]`,
    );
  }
  parseSelectionSet(ctx, curp);
}

/**
 * A name in a selection set: `x as`, `alias:`, or a field. Keyword fields (`checkpwd`, aggregates, `math`,
 * `expand`, `count`, `val`) are parsed by their own function, which answers false when the name is used
 * as a plain predicate after all (`count` without `(`, say).
 */
function parseNamedSelection(ctx: ParseContext, state: SelectionState, token: Token): void {
  const ts = ctx.ts;
  const { gq, pending } = state;
  const peek = ts.peek();
  if (peek === undefined) throw ts.errorAt(token, "Invalid query");
  if (peek.kind === "Name" && peek.value.toLowerCase() === "as") {
    pending.varName = token.value;
    ts.next();
    return;
  }
  const val = ts.collectName(token.value);
  const lower = val.toLowerCase();
  if (ts.peekIs("Colon")) {
    if (pending.alias !== undefined) throw ts.errorAt(token, "Invalid colon after alias declaration");
    pending.alias = val;
    ts.next();
    return;
  }
  if (gq.isGroupby && !isAggregator(val) && val !== "count" && state.count !== SEEN) {
    throw ts.errorNext(`Only aggregator/count functions allowed inside @groupby. Got: ${val}`);
  }
  if (gq.isEmpty) validateEmptyBlockItem(ts, lower);
  const loc = locationOf(token);
  if (parseKeywordField(ctx, state, lower, val, loc)) return;
  parsePredicateField(ts, state, val === "" ? token.value : val, loc);
}

/** A keyword field, if `lower` names one used as such; false when it is a plain predicate. */
function parseKeywordField(
  ctx: ParseContext,
  state: SelectionState,
  lower: string,
  val: string,
  loc: SourceLocation,
): boolean {
  const ts = ctx.ts;
  if (lower === "checkpwd") return parseCheckPassword(ctx, state, loc);
  if (isAggregator(lower)) return ts.peekIs("LeftRound") && parseAggregate(ts, state, lower, loc);
  if (lower === "math") return parseMathField(ctx, state, val, loc);
  if (lower === "expand") return parseExpand(ts, state, val, loc);
  if (lower === "count") return parseCount(ts, state, loc);
  if (lower === "val") return parseValueVariable(ts, state, val, loc);
  if (lower === "uid") {
    if (state.count === SEEN) throw ts.errorNext("Count of a variable is not allowed");
    if (ts.peekIs("LeftRound")) throw ts.errorNext("Cannot do uid() of a variable");
  }
  return false;
}

/** `checkpwd(pred, "password")`. */
function parseCheckPassword(ctx: ParseContext, state: SelectionState, loc: SourceLocation): boolean {
  const ts = ctx.ts;
  const child = take(state.pending, newRawNode("checkpwd", "", loc));
  ts.prev();
  const fn = parseFunction(ctx, false);
  child.attr = fn.attr;
  const pw = fn.args[0];
  child.password = pw !== undefined && pw.kind === "LiteralArg" ? pw.value : "";
  state.gq.children.push(child);
  state.curp = null;
  return true;
}

/** `min(val(x))` (or `min(pred)` inside `@groupby`); the stream is on the aggregate's name. */
function parseAggregate(
  ts: TokenStream,
  state: SelectionState,
  name: AggregateFunctionName,
  loc: SourceLocation,
): boolean {
  const { gq } = state;
  const child = take(state.pending, newRawNode("aggregate", "val", loc));
  child.internal = true;
  child.aggregate = name;
  ts.next(); // (
  ts.next();
  const inner = ts.item;
  if (gq.isGroupby && !(inner.value === "val" && ts.peekIs("LeftRound"))) {
    child.attr = ts.collectName(inner.value);
    if (ts.peekIs("At")) {
      ts.next();
      ts.next();
      child.langs = parseLanguageList(ts);
    }
    child.internal = false;
  } else {
    if (inner.value !== "val") {
      throw ts.errorNext(`Only variables allowed in aggregate functions. Got: ${inner.value}`);
    }
    const names = parseVarList(ts);
    if (names.length !== 1) {
      throw ts.errorNext(`Expected one variable inside val() of aggregator but got ${names.length}`);
    }
    child.varName = names[0];
  }
  ts.next(); // the closing ")"
  gq.children.push(child);
  state.curp = null;
  return true;
}

/** `alias: math(expression)` or `x as math(expression)`. */
function parseMathField(ctx: ParseContext, state: SelectionState, val: string, loc: SourceLocation): boolean {
  const { pending } = state;
  if (pending.varName === undefined && pending.alias === undefined) {
    throw ctx.ts.errorNext("Function math should be used with a variable or have an alias");
  }
  const math = parseMath(ctx);
  const child = take(pending, newRawNode("math", val, loc));
  child.internal = true;
  child.math = math;
  state.gq.children.push(child);
  state.curp = null;
  return true;
}

/** `expand(_all_)`, `expand(val(x))` or `expand(Type1, Type2)`. */
function parseExpand(ts: TokenStream, state: SelectionState, val: string, loc: SourceLocation): boolean {
  if (state.pending.varName !== undefined)
    throw ts.errorNext(`expand() cannot be used with a variable: ${val}`);
  if (state.pending.alias !== undefined) throw ts.errorNext("expand() cannot have an alias");
  ts.next();
  if (ts.item.kind !== "LeftRound") throw ts.errorNext("Invalid use of expand()");
  ts.next();
  const arg = ts.item;
  const child = newRawNode("expand", val, loc);
  child.internal = true;
  switch (arg.value) {
    case "val": {
      const names = parseVarList(ts);
      if (names.length !== 1)
        throw ts.errorAt(arg, "Invalid use of expand(). Exactly one variable expected.");
      child.expand = { kind: "ExpandValueVar", varName: names[0] };
      break;
    }
    case "_all_":
      child.expand = { kind: "ExpandAll" };
      break;
    case "_forward_":
      throw ts.errorAt(arg, "Argument _forward_ has been deprecated");
    case "_reverse_":
      throw ts.errorAt(arg, "Argument _reverse_ has been deprecated");
    default:
      child.expand = { kind: "ExpandTypes", types: parseTypeList(ts) };
  }
  ts.next(); // ")"
  state.gq.children.push(child);
  state.curp = child;
  return true;
}

/**
 * `count(uid)`, or the start of `count(pred)` (the predicate comes next); false for a predicate named
 * `count`.
 */
function parseCount(ts: TokenStream, state: SelectionState, loc: SourceLocation): boolean {
  if (state.count !== NOT_SEEN) throw ts.errorNext("Invalid mention of function count");
  ts.next();
  if (ts.item.kind !== "LeftRound") {
    ts.prev();
    return false;
  }
  state.count = SEEN;
  const p0 = ts.peek(1);
  const p1 = ts.peek(2);
  if (p0 !== undefined && p0.kind === "RightRound")
    throw ts.errorNext("Cannot use count(), please use count(uid)");
  if (p0 !== undefined && p1 !== undefined && p0.value === "uid" && p1.kind === "RightRound") {
    const child = take(state.pending, newRawNode("countUid", "uid", loc));
    child.internal = !state.gq.isGroupby;
    state.gq.children.push(child);
    state.count = NOT_SEEN;
    ts.next();
    ts.next();
  }
  return true;
}

/** `val(x)` as a field; false for a predicate named `val`. */
function parseValueVariable(
  ts: TokenStream,
  state: SelectionState,
  val: string,
  loc: SourceLocation,
): boolean {
  if (state.pending.varName !== undefined) throw ts.errorNext("Cannot assign a variable to val()");
  if (state.count === SEEN) throw ts.errorNext("Count of a variable is not allowed");
  if (!ts.peekIs("LeftRound")) return false;
  const child = take(state.pending, newRawNode("valueVar", val, loc));
  child.internal = true;
  const names = parseVarList(ts);
  if (names.length !== 1) throw ts.errorNext("Invalid use of val(). Exactly one variable expected.");
  child.varName = names[0];
  state.gq.children.push(child);
  state.curp = null;
  return true;
}

/** A plain predicate, or the predicate inside `count(...)`. */
function parsePredicateField(
  ts: TokenStream,
  state: SelectionState,
  attr: string,
  loc: SourceLocation,
): void {
  if (state.count === SEEN_WITH_PRED) throw ts.errorNext("Multiple predicates not allowed in single count.");
  if (state.gq.isCount) throw ts.errorNext("Cannot have children attributes when asking for count.");
  const counted = state.count === SEEN;
  const child = take(state.pending, newRawNode(counted ? "count" : "predicate", attr, loc));
  child.isCount = counted;
  state.gq.children.push(child);
  state.curp = child;
  if (counted) state.count = SEEN_WITH_PRED;
}
