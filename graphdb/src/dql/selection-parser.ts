/**
 * Selection sets (`{ ... }`), following Dgraph's `godeep`: predicates, aliases, `x as` variables,
 * `count(...)`, `val(x)`, aggregates, `math(...)`, `expand(...)`, `checkpwd(...)`, fragment spreads,
 * edge arguments `(first: 2, orderasc: name)` and directives `@filter`, `@facets`, `@cascade`...
 */
import type { AggregateFunctionName, OrderKey } from "./ast.ts";
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

/** `val(a, b)` after the `val` keyword: the variable names. */
export function parseVarList(ts: TokenStream): string[] {
  ts.next();
  const open = ts.item;
  if (open.kind !== "LeftRound") throw ts.errorAt(open, "Expected a left round after var");
  const names: string[] = [];
  let expectArg = true;
  loop: while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "RightRound":
        break loop;
      case "Comma":
        if (expectArg) throw ts.errorAt(token, "Expected a variable but got comma");
        expectArg = true;
        break;
      case "Name":
        if (!expectArg) throw ts.errorAt(token, `Expected a variable but got ${token.value}`);
        names.push(token.value);
        expectArg = false;
        break;
      default:
        break;
    }
  }
  if (expectArg) throw ts.errorAt(open, "Unnecessary comma in val()");
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

/** The `expand(Type1, Type2)` list, starting at the first type name. */
function parseTypeList(ts: TokenStream): string[] {
  const first = ts.item;
  if (first.kind !== "Name") throw ts.errorAt(first, "Invalid use of expand()");
  const types = [first.value];
  let expectArg = false;
  loop: while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "RightRound":
        ts.prev();
        break loop;
      case "Comma":
        if (expectArg) throw ts.errorAt(token, "Expected a variable but got comma");
        expectArg = true;
        break;
      case "Name":
        if (!expectArg) throw ts.errorAt(token, `Expected a variable but got ${token.value}`);
        types.push(token.value);
        expectArg = false;
        break;
      default:
        throw ts.errorAt(token, `Unexpected token ${token.value} when reading a type list`);
    }
  }
  if (expectArg) throw ts.errorAt(ts.item, "Unnecessary comma in val()");
  return types;
}

/** `(first: 10, offset: 2, after: 0x1, orderasc: name, orderdesc: val(x))` on an edge. */
function parseEdgeArguments(ctx: ParseContext, curp: RawNode): void {
  const ts = ctx.ts;
  interface Pair {
    key: string;
    value: string;
    fromVariable: boolean;
    valueVar?: string;
    token: Token;
  }
  const pairs: Pair[] = [];
  let expectArg = true;
  let orderCount = 0;
  loop: while (ts.next()) {
    let token = ts.item;
    let key: string;
    switch (token.kind) {
      case "Name":
        if (!expectArg) throw ts.errorAt(token, `Expecting a comma. But got: ${token.value}`);
        key = ts.collectName(token.value);
        if (key === "orderasc" || key === "orderdesc") orderCount++;
        expectArg = false;
        break;
      case "RightRound":
        if (expectArg) throw ts.errorAt(token, "Expected argument but got ')'.");
        break loop;
      case "Comma":
        if (expectArg) throw ts.errorAt(token, "Expected Argument but got comma.");
        expectArg = true;
        continue;
      default:
        throw ts.errorAt(token, `Expecting argument name. Got: ${describeToken(token)}`);
    }
    ts.next();
    token = ts.item;
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
      pairs.push({ key, value: names[0], fromVariable: false, valueVar: names[0], token });
      continue;
    }
    let sign = "";
    if (token.kind === "Dollar") {
      ts.next();
      const nameToken = ts.item;
      if (nameToken.kind !== "Name") {
        throw ts.errorAt(nameToken, `Expecting argument value. Got: ${describeToken(nameToken)}`);
      }
      pairs.push({
        key,
        value: ctx.vars.valueOf(`$${nameToken.value}`),
        fromVariable: true,
        token: nameToken,
      });
      continue;
    }
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
    pairs.push({ key, value, fromVariable: false, token });
  }

  let sorted: Set<string> | undefined;
  for (const p of pairs) {
    if (!isEdgeArgumentKey(p.key)) throw ts.errorNext(`Got invalid keyword: ${p.key}`);
    const args = curp.args ?? {};
    if (Object.hasOwn(args, p.key)) {
      throw ts.errorNext(`Got repeated key ${JSON.stringify(p.key)} at level ${JSON.stringify(curp.attr)}`);
    }
    if (p.value === "" && !p.fromVariable) throw ts.errorNext("Got empty argument");
    if (p.key === "orderasc" || p.key === "orderdesc") {
      sorted ??= new Set<string>();
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
      continue;
    }
    const arg: RawArg = { value: p.value, fromVariable: p.fromVariable };
    args[p.key] = arg;
    curp.args = args;
  }
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

/** Parses the fields of a selection set into `gq.children`; the `{` has been consumed. */
export function parseSelectionSet(ctx: ParseContext, gq: RawNode): void {
  const ts = ctx.ts;
  let count = NOT_SEEN;
  const pending: Pending = { alias: undefined, varName: undefined };
  let curp: RawNode | null = gq;

  while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "EOF":
      case "RightCurl":
        return;
      case "Period": {
        let dots = 1;
        for (let i = 0; i < 2; i++) if (ts.next() && ts.item.kind === "Period") dots++;
        if (dots !== 3) throw ts.errorAt(token, `Expected 3 periods ("..."), got ${dots}.`);
        ts.next();
        const name = ts.item;
        if (name.kind === "Name") gq.children.push(newRawNode("fragment", name.value, locationOf(name)));
        break;
      }
      case "Name": {
        const peek = ts.peek();
        if (peek === undefined) throw ts.errorAt(token, "Invalid query");
        if (peek.kind === "Name" && peek.value.toLowerCase() === "as") {
          pending.varName = token.value;
          ts.next();
          break;
        }
        let val = ts.collectName(token.value);
        const lower = val.toLowerCase();
        if (ts.peekIs("Colon")) {
          if (pending.alias !== undefined) throw ts.errorAt(token, "Invalid colon after alias declaration");
          pending.alias = val;
          ts.next();
          break;
        }
        if (gq.isGroupby && !isAggregator(val) && val !== "count" && count !== SEEN) {
          throw ts.errorNext(`Only aggregator/count functions allowed inside @groupby. Got: ${val}`);
        }
        if (gq.isEmpty) validateEmptyBlockItem(ts, lower);
        const loc = locationOf(token);

        let fallThrough = false;
        if (lower === "checkpwd") {
          const child = take(pending, newRawNode("checkpwd", "", loc));
          ts.prev();
          const fn = parseFunction(ctx, false);
          child.attr = fn.attr;
          const pw = fn.args[0];
          child.password = pw !== undefined && pw.kind === "LiteralArg" ? pw.value : "";
          gq.children.push(child);
          curp = null;
          continue;
        } else if (isAggregator(lower)) {
          if (!ts.peekIs("LeftRound")) {
            fallThrough = true;
          } else {
            const child = take(pending, newRawNode("aggregate", "val", loc));
            child.internal = true;
            child.aggregate = lower;
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
                throw ts.errorNext(
                  `Expected one variable inside val() of aggregator but got ${names.length}`,
                );
              }
              child.varName = names[0];
            }
            ts.next(); // the closing ")"
            gq.children.push(child);
            curp = null;
            continue;
          }
        } else if (lower === "math") {
          if (pending.varName === undefined && pending.alias === undefined) {
            throw ts.errorNext("Function math should be used with a variable or have an alias");
          }
          const math = parseMath(ctx);
          const child = take(pending, newRawNode("math", val, loc));
          child.internal = true;
          child.math = math;
          gq.children.push(child);
          curp = null;
          continue;
        } else if (lower === "expand") {
          if (pending.varName !== undefined)
            throw ts.errorNext(`expand() cannot be used with a variable: ${val}`);
          if (pending.alias !== undefined) throw ts.errorNext("expand() cannot have an alias");
          ts.next();
          if (ts.item.kind !== "LeftRound") throw ts.errorNext("Invalid use of expand()");
          ts.next();
          const arg = ts.item;
          const child = newRawNode("expand", val, loc);
          child.internal = true;
          switch (arg.value) {
            case "val": {
              const names = parseVarList(ts);
              if (names.length !== 1) {
                throw ts.errorAt(arg, "Invalid use of expand(). Exactly one variable expected.");
              }
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
          gq.children.push(child);
          curp = child;
          continue;
        } else if (lower === "count") {
          if (count !== NOT_SEEN) throw ts.errorNext("Invalid mention of function count");
          count = SEEN;
          ts.next();
          if (ts.item.kind !== "LeftRound") {
            ts.prev();
            count = NOT_SEEN;
            fallThrough = true;
          } else {
            const p0 = ts.peek(1);
            const p1 = ts.peek(2);
            if (p0 !== undefined && p0.kind === "RightRound") {
              throw ts.errorNext("Cannot use count(), please use count(uid)");
            }
            if (p0 !== undefined && p1 !== undefined && p0.value === "uid" && p1.kind === "RightRound") {
              const child = take(pending, newRawNode("countUid", "uid", loc));
              child.internal = !gq.isGroupby;
              gq.children.push(child);
              count = NOT_SEEN;
              ts.next();
              ts.next();
            }
            continue;
          }
        } else if (lower === "val") {
          if (pending.varName !== undefined) throw ts.errorNext("Cannot assign a variable to val()");
          if (count === SEEN) throw ts.errorNext("Count of a variable is not allowed");
          if (!ts.peekIs("LeftRound")) {
            fallThrough = true;
          } else {
            const child = take(pending, newRawNode("valueVar", val, loc));
            child.internal = true;
            const names = parseVarList(ts);
            if (names.length !== 1)
              throw ts.errorNext("Invalid use of val(). Exactly one variable expected.");
            child.varName = names[0];
            gq.children.push(child);
            curp = null;
            continue;
          }
        } else if (lower === "uid") {
          if (count === SEEN) throw ts.errorNext("Count of a variable is not allowed");
          if (ts.peekIs("LeftRound")) throw ts.errorNext("Cannot do uid() of a variable");
          fallThrough = true;
        } else {
          fallThrough = true;
        }
        if (!fallThrough) break;

        if (count === SEEN_WITH_PRED) throw ts.errorNext("Multiple predicates not allowed in single count.");
        if (gq.isCount) throw ts.errorNext("Cannot have children attributes when asking for count.");
        if (val === "") val = token.value;
        const child = take(pending, newRawNode(count === SEEN ? "count" : "predicate", val, loc));
        child.isCount = count === SEEN;
        gq.children.push(child);
        curp = child;
        if (count === SEEN) count = SEEN_WITH_PRED;
        break;
      }
      case "LeftCurl":
        if (curp === null) throw ts.errorNext("Query syntax invalid.");
        if (curp.langs !== undefined && curp.langs.length > 0) {
          throw ts.errorNext(
            `Cannot have children for attr: ${curp.attr} with lang tags: [${curp.langs.join(" ")}]`,
          );
        }
        parseSelectionSet(ctx, curp);
        break;
      case "LeftRound":
        if (curp === null) throw ts.errorNext("Query syntax invalid.");
        if (curp.attr === "") throw ts.errorNext("Predicate name cannot be empty.");
        parseEdgeArguments(ctx, curp);
        break;
      case "At":
        parseFieldDirective(ctx, curp);
        break;
      case "RightRound":
        if (count !== SEEN_WITH_PRED) throw ts.errorNext("Invalid mention of brackets");
        count = NOT_SEEN;
        break;
      default:
        break;
    }
  }
}
