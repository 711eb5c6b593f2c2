/**
 * Root blocks: `[v as] name(func: ..., first: .., orderasc: ..) @filter(..) @cascade { ... }`, var blocks,
 * empty aggregation blocks and `shortest(from: .., to: ..)`. Follows Dgraph's `getRoot` / `getQuery`.
 */
import { goParseUint } from "../types/strconv.ts";
import type { OrderKey, UidSet } from "./ast.ts";
import { parseCascade, parseGroupBy, parseLanguageList, parseRecurse } from "./directive-parser.ts";
import { parseFilter } from "./filter-parser.ts";
import { parseFunction, type RawFunction, toFunctionCall } from "./function-parser.ts";
import type { Token } from "./lexer.ts";
import type { ParseContext } from "./parse-context.ts";
import { parseUidList } from "./query-variables.ts";
import { newRawNode, type RawNode } from "./raw-query.ts";
import { parseSelectionSet, parseVarList, splitLangs } from "./selection-parser.ts";
import { describeToken, locationOf } from "./token-stream.ts";

function isValidRootKey(key: string): boolean {
  switch (key) {
    case "func":
    case "orderasc":
    case "orderdesc":
    case "first":
    case "offset":
    case "after":
    case "from":
    case "to":
    case "numpaths":
    case "minweight":
    case "maxweight":
    case "maxfrontiersize":
    case "depth":
      return true;
    default:
      return false;
  }
}

function uidSetOf(ctx: ParseContext, fn: RawFunction): UidSet {
  const uids =
    fn.idVariable === undefined ? fn.uids : [...fn.uids, ...parseUidList(ctx.vars.valueOf(fn.idVariable))];
  return { uids, vars: fn.uidVars };
}

/** Parses the block head `name(args)` (Dgraph's `getRoot`); the stream is before the name. */
function parseRoot(ctx: ParseContext): RawNode {
  const ts = ctx.ts;
  const block = parseBlockName(ctx);
  const item = ts.item;
  if (!ts.next()) throw ts.errorAt(item, "Invalid query");
  if (ts.item.kind !== "LeftRound")
    throw ts.errorAt(ts.item, `Expected Left round brackets. Got: ${describeToken(ts.item)}`);
  parseRootArguments(ctx, block);
  return block;
}

/** `name` or `v as name`; leaves the stream on the name. */
function parseBlockName(ctx: ParseContext): RawNode {
  const ts = ctx.ts;
  if (!ts.next()) throw ts.errorNext("Invalid query");
  let item = ts.item;
  if (item.kind !== "Name") throw ts.errorAt(item, `Expected some name. Got: ${describeToken(item)}`);
  const peek = ts.peek();
  if (peek === undefined) throw ts.errorNext("Invalid Query");
  let asVar: string | undefined;
  if (peek.kind === "Name" && peek.value.toLowerCase() === "as") {
    asVar = item.value;
    ts.next();
    ts.next();
    item = ts.item;
  }
  const block = newRawNode("block", item.value, locationOf(item));
  if (asVar !== undefined) block.asVar = asVar;
  return block;
}

/** The block's own state while its arguments are read. */
interface RootArguments {
  readonly block: RawNode;
  usesValueVar: boolean;
  sortedBy: Set<string> | undefined;
}

/** `(func: ..., first: 2, orderasc: name)`; the `(` has been consumed. */
function parseRootArguments(ctx: ParseContext, block: RawNode): void {
  const ts = ctx.ts;
  const state: RootArguments = { block, usesValueVar: false, sortedBy: undefined };
  let expectArg = true;
  while (ts.next()) {
    const item = ts.item;
    switch (item.kind) {
      case "Name":
        if (!expectArg) throw ts.errorAt(item, `Not expecting argument. Got: ${describeToken(item)}`);
        expectArg = false;
        parseRootArgument(ctx, state, item.value);
        break;
      case "RightRound":
        if (
          block.func === undefined &&
          !state.usesValueVar &&
          block.args === undefined &&
          !block.from &&
          !block.to
        ) {
          block.isEmpty = true;
        }
        return;
      case "Comma":
        if (expectArg) throw ts.errorAt(item, "Expected Argument but got comma.");
        expectArg = true;
        break;
      default:
        throw ts.errorAt(item, `Expecting argument name. Got: ${describeToken(item)}`);
    }
  }
}

/** One `key: value` at the root; the stream is on the key. */
function parseRootArgument(ctx: ParseContext, state: RootArguments, key: string): void {
  const ts = ctx.ts;
  const { block } = state;
  const keyToken = ts.item;
  if (!isValidRootKey(key)) throw ts.errorAt(keyToken, `Got invalid keyword: ${key} at root`);
  if (!ts.next()) throw ts.errorAt(keyToken, "Invalid query");
  const colon = ts.item;
  if (colon.kind !== "Colon") throw ts.errorAt(colon, `Expecting a colon. Got: ${describeToken(colon)}`);
  if (key === "func") {
    if (block.func !== undefined) throw ts.errorAt(colon, "Only one function allowed at root");
    const fn = parseFunction(ctx, true);
    block.func = toFunctionCall(ctx, fn, "root", locationOf(colon));
    return;
  }
  if (key === "from" || key === "to") {
    if (block.attr !== "shortest") throw ts.errorAt(colon, "from/to only allowed for shortest path queries");
    const set = parseShortestEndpoint(ctx, colon);
    if (key === "from") block.from = set;
    else block.to = set;
    return;
  }
  const value = parseRootValue(ctx, state, key);
  if (key === "orderasc" || key === "orderdesc") {
    addRootOrder(ctx, state, key === "orderdesc", value);
    return;
  }
  const args = block.args ?? {};
  if (Object.hasOwn(args, key)) throw ts.errorNext(`Repeated key ${JSON.stringify(key)} at root`);
  args[key] = { value: value.valueVar ?? value.val, fromVariable: value.fromVariable };
  block.args = args;
}

/** `from:`/`to:` of a shortest path: `uid(...)` or one uid. */
function parseShortestEndpoint(ctx: ParseContext, colon: Token): UidSet {
  const ts = ctx.ts;
  const next = ts.peek();
  if (next === undefined) throw ts.errorAt(colon, "Invalid query");
  if (next.value === "uid") return uidSetOf(ctx, parseFunction(ctx, true));
  ts.next();
  const valueToken = ts.item;
  const val = ts.collectName(valueToken.value);
  const uid = goParseUint(val);
  if (typeof uid === "string") {
    if (uid === "range") throw ts.errorAt(valueToken, `The uid value ${JSON.stringify(val)} is too large.`);
    throw ts.errorAt(
      valueToken,
      `from/to in shortest path can only accept uid function or an uid. Got: ${val}`,
    );
  }
  return { uids: [Number(uid)], vars: [] };
}

/** A root argument's value: `$var`, `val(x)`, or a (signed, language-tagged) name. */
interface RootValue {
  val: string;
  fromVariable: boolean;
  valueVar: string | undefined;
  /** The value's last token, where an order's location points. */
  token: Token;
}

function parseRootValue(ctx: ParseContext, state: RootArguments, key: string): RootValue {
  const ts = ctx.ts;
  if (!ts.next()) throw ts.errorNext("Invalid query");
  let item = ts.item;
  if (item.kind === "Dollar") {
    ts.next();
    item = ts.item;
    if (item.kind !== "Name")
      throw ts.errorAt(item, `Expecting a variable name. Got: ${describeToken(item)}`);
    return { val: ctx.vars.valueOf(`$${item.value}`), fromVariable: true, valueVar: undefined, token: item };
  }
  const ordering = key === "orderasc" || key === "orderdesc";
  let val = "";
  if (item.kind === "MathOp") {
    if (item.value !== "+" && item.value !== "-") {
      throw ts.errorAt(item, `Only Plus and minus are allowed unary ops. Got: ${item.value}`);
    }
    val = item.value;
    ts.next();
    item = ts.item;
  }
  if (val === "" && item.value === "val" && item.kind === "Name") {
    const names = parseVarList(ts);
    if (names.length !== 1) throw ts.errorAt(item, `Expected only one variable but got: ${names.length}`);
    state.usesValueVar = true;
    if (state.block.order.length > 0 && ordering) {
      throw ts.errorNext(`Multiple sorting only allowed by predicates. Got: ${names[0]}`);
    }
    return { val, fromVariable: false, valueVar: names[0], token: item };
  }
  val = ts.collectName(val + item.value);
  const next = ts.peek();
  if (next !== undefined && next.kind === "LeftRound" && ordering && val !== "val") {
    throw ts.errorNext(`Expected val(). Got ${val}() with order.`);
  }
  if (next !== undefined && next.kind === "At") {
    ts.next();
    ts.next();
    val = `${val}@${parseLanguageList(ts).join(":")}`;
  }
  return { val, fromVariable: false, valueVar: undefined, token: item };
}

/** `orderasc:`/`orderdesc:` at the root: by a predicate (with one language) or by a value variable. */
function addRootOrder(ctx: ParseContext, state: RootArguments, desc: boolean, value: RootValue): void {
  const ts = ctx.ts;
  const { block } = state;
  const { val, valueVar } = value;
  const loc = locationOf(value.token);
  if (value.fromVariable) {
    if (val !== "") {
      const { attr, langs } = splitLangs(val);
      block.order.push({ kind: "OrderByPredicate", desc, predicate: attr, langs, loc });
    }
    return;
  }
  for (const existing of block.order) {
    if (existing.kind === "OrderByValueVar") {
      throw ts.errorNext(`Val() is not allowed in multiple sorting. Got: [${existing.varName}]`);
    }
  }
  const sortKey = valueVar ?? val;
  state.sortedBy ??= new Set<string>();
  if (state.sortedBy.has(sortKey))
    throw ts.errorNext(`Sorting by an attribute: [${sortKey}] can only be done once`);
  let order: OrderKey;
  if (valueVar !== undefined) {
    order = { kind: "OrderByValueVar", desc, varName: valueVar, loc };
  } else {
    const { attr, langs } = splitLangs(val);
    if (langs.length > 1)
      throw ts.errorNext(`Sorting by an attribute: [${val}] can only be done on one language`);
    order = { kind: "OrderByPredicate", desc, predicate: attr, langs, loc };
  }
  block.order.push(order);
  state.sortedBy.add(sortKey);
}

/** Parses one query block (Dgraph's `getQuery`); the stream is before the block name. */
export function parseQueryBlock(ctx: ParseContext): RawNode {
  const ts = ctx.ts;
  const block = parseRoot(ctx);
  let seenFilter = false;
  for (;;) {
    if (!ts.next()) throw ts.errorNext("Expecting more lexer items while parsing query");
    const item = ts.item;
    switch (item.kind) {
      case "LeftCurl":
        parseSelectionSet(ctx, block);
        return block;
      case "At": {
        ts.next();
        const directive = ts.item;
        if (directive.kind !== "Name") return block;
        switch (directive.value.toLowerCase()) {
          case "filter": {
            if (seenFilter) throw ts.errorAt(directive, "Repeated filter at root");
            seenFilter = true;
            const filter = parseFilter(ctx);
            if (filter !== undefined) block.filter = filter;
            break;
          }
          case "normalize":
            block.normalize = true;
            break;
          case "cascade":
            block.cascade = [...(block.cascade ?? []), ...parseCascade(ts)];
            break;
          case "groupby":
            block.isGroupby = true;
            block.groupBy = parseGroupBy(ts);
            break;
          case "ignorereflex":
            block.ignoreReflex = true;
            break;
          case "recurse":
            block.recurse = parseRecurse(ctx);
            break;
          default:
            throw ts.errorAt(directive, `Unknown directive [${directive.value}]`);
        }
        continue;
      }
      case "RightCurl":
        return block;
      case "Name":
        ts.prev();
        return block;
      default:
        throw ts.errorAt(item, `Malformed Query. Missing {. Got ${item.value}`);
    }
  }
}
