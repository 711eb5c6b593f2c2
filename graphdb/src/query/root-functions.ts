/**
 * Root functions (`q(func: ...)`): the block's starting uids, from index lookups where Dgraph uses the
 * index (eq, inequalities, term/fulltext, regexp and match through trigrams, count index), then the value
 * re-checks Dgraph does for lossy tokenizers and language-tagged strings.
 */
import { DgraphError } from "../core/errors.ts";
import type { UidList, ValuePosting } from "../core/graph-reader.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { FilterTree, FunctionCall } from "../dql/ast.ts";
import { EMPTY_UID_LIST, filterUids, intersectAll, unionAll } from "../posting/uid-algebra.ts";
import { convertFunctionArg } from "../types/convert.ts";
import { parseDateTime } from "../types/datetime.ts";
import type { GeoJsonGeometry } from "../types/geo.ts";
import { geoMatches, geoWeight } from "../types/geo-predicates.ts";
import {
  type ExecContext,
  FIRST_TEST_CHUNK,
  keepInSteps,
  readValues,
  readValuesInSteps,
  type Steps,
} from "./exec-context.ts";
import {
  type CompareOp,
  compareTokens,
  matchTokens,
  type PreparedFunction,
  prepareFunction,
  regexTokenGroups,
  storedAs,
} from "./function-context.ts";
import type { LazyCandidates } from "./index-order.ts";
import { valuesForFunction } from "./lang-select.ts";
import { compareVals } from "./value-compare.ts";
import { compareMatches, fuzzyMatches, regexMatches, textMatches } from "./value-match.ts";
import { EMPTY_SCOPE } from "./var-store.ts";

type Prepared<K extends PreparedFunction["kind"]> = Extract<PreparedFunction, { kind: K }>;

/** The uids a root function selects (sorted). */
export function evalRootFunction(ctx: ExecContext, fn: FunctionCall): UidList {
  return evalPreparedRoot(ctx, prepareRootFunction(ctx, fn));
}

/** A root function checked and prepared (Dgraph's root-only checks apply). */
export function prepareRootFunction(ctx: ExecContext, fn: FunctionCall): PreparedFunction {
  return prepareFunction(ctx, fn, true, EMPTY_SCOPE);
}

/** The uids a prepared root function selects (sorted). */
export function evalPreparedRoot(ctx: ExecContext, p: PreparedFunction): UidList {
  switch (p.kind) {
    case "none":
      return EMPTY_UID_LIST;
    case "uid":
      return p.uids;
    case "compare":
      return rootCompare(ctx, p);
    case "countCompare":
      return rootCount(ctx, p);
    case "valueVar":
      return valueVarMatches(p, undefined);
    case "has":
      return rootHas(ctx, p);
    case "text":
      return rootText(ctx, p);
    case "regexp":
      return rootRegexp(ctx, p);
    case "match":
      return rootMatch(ctx, p);
    case "uidIn":
      throw new DgraphError("uid_in function not allowed at root");
    case "geo":
      return recheck(ctx, p.attr, "", p.schema.list, geoCandidates(ctx, p), geoTest(ctx, p));
  }
}

/**
 * evalPreparedRoot, with the value re-checks of regexp and match — one test per index candidate, each
 * possibly costly — made in steps, so that a query over many candidates can pause between them.
 */
export function* evalRootInSteps(ctx: ExecContext, p: PreparedFunction): Steps<UidList> {
  const budget = ctx.budget;
  switch (p.kind) {
    case "regexp": {
      const re = p.regex;
      return yield* recheckInSteps(ctx, p.attr, langOf(p), p.schema.list, regexpCandidates(ctx, p), (v) =>
        regexMatches(re, v, budget),
      );
    }
    case "match": {
      const { text, max } = p;
      return yield* recheckInSteps(ctx, p.attr, langOf(p), p.schema.list, matchCandidates(ctx, p), (v) =>
        fuzzyMatches(text, v, max, budget),
      );
    }
    case "geo":
      return yield* recheckInSteps(ctx, p.attr, "", p.schema.list, geoCandidates(ctx, p), geoTest(ctx, p));
    case "has":
      return yield* rootHasInSteps(ctx, p);
    default:
      return evalPreparedRoot(ctx, p);
  }
}

/** Subjects read a page at a time between slices: `has()` over a million subjects is a long key scan. */
function* rootHasInSteps(ctx: ExecContext, p: Prepared<"has">): Steps<UidList> {
  if (p.reverse || needsStringFiltering(p)) return evalPreparedRoot(ctx, p);
  const pages: UidList[] = [];
  let total = 0;
  for (let after = 0; ; ) {
    const page = ctx.reader.subjectsWithPage(p.attr, after, HAS_PAGE);
    if (page === undefined) return evalPreparedRoot(ctx, p);
    pages.push(page);
    total += page.length;
    ctx.budget.tick(page.length);
    if (page.length < HAS_PAGE) break;
    after = page[page.length - 1];
    if (ctx.budget.sliceUsed()) yield;
  }
  if (pages.length === 1) return pages[0];
  const out = new Float64Array(total);
  let at = 0;
  for (const page of pages) {
    out.set(page, at);
    at += page.length;
  }
  return out;
}

/** Subjects per page of a sliced `has()`. */
const HAS_PAGE = 16_384;

/** `recheck` a chunk at a time (keepInSteps), the values read in steps beforehand. */
function* recheckInSteps(
  ctx: ExecContext,
  attr: string,
  lang: string,
  list: boolean,
  uids: UidList,
  test: (v: TypedValue) => boolean,
): Steps<UidList> {
  if (uids.length > FIRST_TEST_CHUNK) yield* readValuesInSteps(ctx, attr, uids);
  return yield* keepInSteps(ctx, uids, (chunk) => recheck(ctx, attr, lang, list, chunk, test));
}

/** The language regexp and match test values in (`.` means any: untagged first). */
function langOf(p: Prepared<"regexp"> | Prepared<"match">): string {
  return p.lang === "." ? "" : p.lang;
}

/** Keeps the uids whose values (as the function's language sees them) pass `test`. */
function recheck(
  ctx: ExecContext,
  attr: string,
  lang: string,
  list: boolean,
  uids: UidList,
  test: (v: TypedValue) => boolean,
  /** Rows whose index hit is known exact: kept without the test. */
  exact?: (row: ValuePosting[]) => boolean,
): UidList {
  if (uids.length === 0) return uids;
  const rows = readValues(ctx, attr, uids);
  const budget = ctx.budget;
  return filterUids(uids, (_uid, i) => {
    budget.tick();
    if (exact?.(rows[i])) return true;
    const vals = valuesForFunction(rows[i], lang, list);
    for (const v of vals) if (test(v.value)) return true;
    return false;
  });
}

/** Dgraph's needsStringFiltering: tagged strings are re-checked against the function's language. */
function needsStringFiltering(p: { schema: { type: string; lang: boolean }; lang: string }): boolean {
  return p.schema.type === "string" && p.schema.lang && p.lang !== ".";
}

function rootCompare(ctx: ExecContext, p: Prepared<"compare">): UidList {
  const reader = ctx.reader;
  const tok = p.tokenizer!;
  const rows: UidList[] = [];
  if (p.op === "eq") {
    for (const arg of p.args) {
      const token = compareTokens(p, arg);
      if (token === null) return EMPTY_UID_LIST;
      let row = reader.index(p.attr, token);
      if (tok.lossy) {
        row = recheck(ctx, p.attr, p.lang, p.schema.list, row, (v) =>
          compareMatches("eq", [{ value: v, lang: "" }], p.schema.type, [arg], compareVals),
        );
      }
      rows.push(row);
    }
  } else {
    const bounds = rangeBoundsOf(p);
    if (bounds === null) return EMPTY_UID_LIST;
    rows.push(scanRange(ctx, p, bounds, bounds).uids);
  }
  let out = unionAll(rows);
  if (needsStringFiltering(p)) {
    out = recheck(ctx, p.attr, p.lang, p.schema.list, out, (v) =>
      compareMatches(p.op, [{ value: v, lang: "" }], p.schema.type, p.args, compareVals),
    );
  }
  return out;
}

/** One side of an index range: `op` against `arg`, whose token is `token`. */
interface RangeBound {
  op: "ge" | "gt" | "le" | "lt";
  arg: TypedValue;
  token: Uint8Array;
  /** Lossy calendar tokens: `arg` is the first instant of its bucket. */
  bucketStart: boolean;
}

/** What a bucket holds for a range: no uid passes, every uid passes, or values must be re-checked. */
const NONE = 0;
const ALL = 1;
const CHECK = 2;

/**
 * The bounds of an inequality (`between` = ge and le), with Dgraph's token checks on every argument;
 * null when an argument has no token (nothing matches). Undefined when `between` has other than two
 * arguments (values of a variable): the caller keeps the general path.
 */
function rangeBoundsOf(p: Prepared<"compare">): RangeBound[] | null {
  const tokens: Uint8Array[] = [];
  for (const arg of p.args) {
    const token = compareTokens(p, arg);
    if (token === null) return null;
    tokens.push(token);
  }
  const tok = p.tokenizer!;
  const bound = (op: RangeBound["op"], i: number): RangeBound => ({
    op,
    arg: p.args[i],
    token: tokens[i],
    bucketStart: tok.lossy && isBucketStart(tok.name, p.args[i]),
  });
  if (p.op === "between") {
    return tokens.length >= 2 ? [bound("ge", 0), bound("le", 1)] : [bound("ge", 0)];
  }
  return [bound(p.op as RangeBound["op"], 0)];
}

/** True when a datetime is the first instant of its year/month/day/hour token (UTC, as the tokenizers). */
function isBucketStart(tokenizer: string, arg: TypedValue): boolean {
  const fields = CALENDAR_FIELDS[tokenizer];
  if (fields === undefined || arg.type !== "datetime") return false;
  const parsed = parseDateTime(arg.value as string);
  if (parsed === null || parsed.nanos !== 0) return false;
  const d = new Date(parsed.epochMs);
  const start = new Date(0);
  start.setUTCFullYear(
    d.getUTCFullYear(),
    fields >= 2 ? d.getUTCMonth() : 0,
    fields >= 3 ? d.getUTCDate() : 1,
  );
  start.setUTCHours(fields >= 4 ? d.getUTCHours() : 0, 0, 0, 0);
  return start.getTime() === parsed.epochMs;
}

const CALENDAR_FIELDS: Record<string, number | undefined> = { year: 1, month: 2, day: 3, hour: 4 };

/** How the bucket of `token` stands against one bound. */
function classify(b: RangeBound, token: Uint8Array, lossy: boolean): number {
  const c = compareTokenBytes(token, b.token);
  if (b.op === "ge" || b.op === "gt") {
    if (c < 0) return NONE;
    if (c > 0) return ALL;
    if (!lossy) return b.op === "ge" ? ALL : NONE;
    return b.op === "ge" && b.bucketStart ? ALL : CHECK;
  }
  if (c > 0) return NONE;
  if (c < 0) return ALL;
  if (!lossy) return b.op === "le" ? ALL : NONE;
  return b.op === "lt" && b.bucketStart ? NONE : CHECK;
}

function classifyAll(bounds: readonly RangeBound[], token: Uint8Array, lossy: boolean): number {
  let out = ALL;
  for (const b of bounds) {
    const c = classify(b, token, lossy);
    if (c === NONE) return NONE;
    if (c === CHECK) out = CHECK;
  }
  return out;
}

/** Some value (as the function's language sees it) passes every bound. */
function valuesPass(p: Prepared<"compare">, row: ValuePosting[], bounds: readonly RangeBound[]): boolean {
  for (const posting of valuesForFunction(row, p.lang, p.schema.list)) {
    const v = storedAs(posting.value, p.schema.type);
    if (v === undefined) continue;
    let pass = true;
    for (const b of bounds) {
      if (!compareVals(b.op, v, b.arg)) {
        pass = false;
        break;
      }
    }
    if (pass) return true;
  }
  return false;
}

function compareTokenBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i] - b[i];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function maxToken(bounds: readonly RangeBound[], lower: boolean): Uint8Array | undefined {
  let out: Uint8Array | undefined;
  for (const b of bounds) {
    if ((b.op === "ge" || b.op === "gt") !== lower) continue;
    if (
      out === undefined ||
      (lower ? compareTokenBytes(b.token, out) > 0 : compareTokenBytes(b.token, out) < 0)
    )
      out = b.token;
  }
  return out;
}

/**
 * Walks the index range of `rootBounds` once. Buckets strictly inside a range match whole; only a
 * lossy tokenizer's boundary buckets have their values re-checked. Returns the uids passing every bound
 * of `bounds` (the root's, plus filter bounds folded in) and how many pass the root's alone.
 */
function scanRange(
  ctx: ExecContext,
  p: Prepared<"compare">,
  rootBounds: readonly RangeBound[],
  bounds: readonly RangeBound[],
): { uids: UidList; rootCount: number } {
  const reader = ctx.reader;
  const tok = p.tokenizer!;
  const lossy = tok.lossy;
  const folded = bounds !== rootBounds;
  const parts: UidList[] = [];
  let rootCount = 0;
  reader.indexRange(p.attr, tok.id, maxToken(rootBounds, true), maxToken(rootBounds, false), (entry) => {
    const uids = entry.uids;
    ctx.budget.tick(1 + uids.length);
    const rootClass = classifyAll(rootBounds, entry.token, lossy);
    const allClass = folded ? classifyAll(bounds, entry.token, lossy) : rootClass;
    if (rootClass === ALL) rootCount += uids.length;
    if (rootClass !== CHECK && allClass !== CHECK) {
      if (allClass === ALL) parts.push(uids);
      return true;
    }
    const rows = readValues(ctx, p.attr, uids);
    if (rootClass === CHECK && folded) {
      for (let i = 0; i < rows.length; i++) if (valuesPass(p, rows[i], rootBounds)) rootCount++;
    }
    if (allClass === ALL) parts.push(uids);
    else if (allClass === CHECK) {
      const kept = filterUids(uids, (_u, i) => valuesPass(p, rows[i], bounds));
      if (!folded) rootCount += kept.length;
      parts.push(kept);
    }
    return true;
  });
  return { uids: unionAll(parts), rootCount };
}

const FOLDABLE = new Set(["ge", "gt", "le", "lt", "between"]);

/**
 * `q(func: ge(p, a)) @filter(lt(p, b) and ...)`: the leading range functions of the filter on the
 * root's predicate are folded into the root's index scan (one bounded range, no re-read of values).
 * Only for non-list, non-@lang predicates, where "the value passes both" is what the filter means.
 * Returns the filtered uids, the root's own count (for the filter metrics) and the filter left to
 * evaluate; undefined when nothing folds (errors are then left to the usual path).
 */
export function foldRootRange(
  ctx: ExecContext,
  p: PreparedFunction,
  filter: FilterTree,
): { uids: UidList; rootCount: number; rest: FilterTree | undefined } | undefined {
  if (p.kind !== "compare" || p.op === "eq" || p.schema.list || p.schema.lang) return undefined;
  if (p.op === "between" && p.args.length !== 2) return undefined;
  const operands =
    filter.kind === "FilterFunction" ? [filter] : filter.kind === "FilterAnd" ? filter.operands : [];
  let rootBounds: RangeBound[] | null;
  const extra: RangeBound[] = [];
  let n = 0;
  try {
    rootBounds = rangeBoundsOf(p);
    if (rootBounds === null) return undefined;
    for (; n < operands.length; n++) {
      const bounds = foldableBounds(ctx, p, operands[n]);
      if (bounds === undefined) break;
      extra.push(...bounds);
    }
  } catch {
    return undefined;
  }
  if (n === 0) return undefined;
  const { uids, rootCount } = scanRange(ctx, p, rootBounds, [...rootBounds, ...extra]);
  const rest = operands.slice(n);
  return {
    uids,
    rootCount,
    rest: rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : { kind: "FilterAnd", operands: rest },
  };
}

/** The bounds of a filter operand that is a literal range function on the root's predicate. */
function foldableBounds(
  ctx: ExecContext,
  root: Prepared<"compare">,
  op: FilterTree,
): RangeBound[] | undefined {
  if (op.kind !== "FilterFunction") return undefined;
  const fn = op.func;
  const a = fn.attr;
  if (!FOLDABLE.has(fn.name) || a?.kind !== "PredicateAttr") return undefined;
  if (a.predicate !== root.attr || a.reverse || a.langs.length > 0) return undefined;
  if (fn.args.length !== (fn.name === "between" ? 2 : 1)) return undefined;
  if (fn.args.some((x) => x.kind !== "LiteralArg")) return undefined;
  const f = prepareFunction(ctx, fn, false, EMPTY_SCOPE);
  if (f.kind !== "compare" || f.attr !== root.attr || f.tokenizer !== root.tokenizer) return undefined;
  const bounds = rangeBoundsOf(f);
  return bounds === null ? undefined : bounds;
}

/** `eq(count(p), n)` and friends through the count index (Dgraph's evaluate). */
function rootCount(ctx: ExecContext, p: Prepared<"countCompare">): UidList {
  if (!p.schema.count) {
    throw new DgraphError(`Need @count directive in schema for attr: ${p.attr} for fn: ${p.op} at root`);
  }
  const lo = p.thresholds[0];
  const hi = p.op === "between" ? p.thresholds[1] : 0;
  const illegal: Record<CompareOp, boolean> = {
    eq: lo <= 0,
    lt: lo <= 1,
    le: lo <= 0,
    gt: lo < 0,
    ge: lo <= 0,
    between: lo <= 0 || hi <= 0,
  };
  if (illegal[p.op]) {
    throw new DgraphError(
      "count(predicate) cannot be used to search for negative counts (nonsensical) or zero counts (not tracked).",
    );
  }
  if (p.op === "eq") return ctx.reader.countIndex(p.attr, lo, p.reverse);
  let min = 1;
  let max = Number.MAX_SAFE_INTEGER;
  switch (p.op) {
    case "lt":
      max = lo - 1;
      break;
    case "le":
      max = lo;
      break;
    case "gt":
      min = lo + 1;
      break;
    case "ge":
      min = lo;
      break;
    default:
      min = lo;
      max = hi;
  }
  const rows: UidList[] = [];
  if (min <= max) ctx.reader.countRange(p.attr, p.reverse, min, max, (_c, uids) => rows.push(uids));
  return unionAll(rows);
}

/** `eq(val(x), v)`: uids whose value passes (all of the variable at root, the candidates in filters). */
export function valueVarMatches(p: Prepared<"valueVar">, candidates: UidList | undefined): UidList {
  let type: TypedValue["type"] | undefined;
  for (const v of p.vals.values()) {
    type = v.type;
    break;
  }
  const args = p.args.map((a) => {
    try {
      return convertFunctionArg(a, type!);
    } catch {
      throw new DgraphError(`Invalid argment ${a}. Comparing with different type`);
    }
  });
  const pass = (v: TypedValue | undefined) =>
    v !== undefined && compareMatches(p.op, [{ value: v, lang: "" }], v.type, args, compareVals);
  if (candidates !== undefined) return filterUids(candidates, (uid) => pass(p.vals.get(uid)));
  const out: number[] = [];
  for (const [uid, v] of p.vals) if (pass(v)) out.push(uid);
  return Float64Array.from(out).sort();
}

/**
 * `has(p)` at root as a membership test (a subject is in when its data key holds a uid or a value),
 * for walks that only need the first few candidates in some index order; its size comes from the
 * count index. Undefined without a count index, where has() also re-checks values (tagged strings) or
 * reads reverse edges.
 */
export function lazyHasCandidates(ctx: ExecContext, p: PreparedFunction): LazyCandidates | undefined {
  if (p.kind !== "has" || p.reverse || needsStringFiltering(p)) return undefined;
  // The count index (uid or list predicates with @count) tells how many subjects have the predicate.
  if (!p.schema.count || !(p.schema.type === "uid" || p.schema.list)) return undefined;
  const reader = ctx.reader;
  const attr = p.attr;
  const uidFirst = p.schema.type === "uid";
  let size: number | undefined;
  return {
    get size() {
      if (size === undefined) {
        let n = 0;
        reader.countRange(attr, false, 1, Number.MAX_SAFE_INTEGER, (_count, uids) => {
          n += uids.length;
        });
        size = n;
      }
      return size;
    },
    members(uids) {
      const a = uidFirst ? reader.uidsMany(attr, uids) : reader.valuesMany(attr, uids);
      let b: (UidList | ValuePosting[])[] | undefined;
      return filterUids(uids, (_u, i) => {
        if (a[i].length > 0) return true;
        b ??= uidFirst ? reader.valuesMany(attr, uids) : reader.uidsMany(attr, uids);
        return b[i].length > 0;
      });
    },
    materialize: () => rootHas(ctx, p),
  };
}

function rootHas(ctx: ExecContext, p: Prepared<"has">): UidList {
  const uids = p.reverse ? ctx.reader.objectsWith(p.attr) : ctx.reader.subjectsWith(p.attr);
  if (p.reverse || !needsStringFiltering(p)) return uids;
  return recheck(ctx, p.attr, p.lang, p.schema.list, uids, () => true);
}

function rootText(ctx: ExecContext, p: Prepared<"text">): UidList {
  const rows = p.tokens.map((t) => ctx.reader.index(p.attr, t));
  let out = p.all ? intersectAll(rows) : unionAll(rows);
  if (needsStringFiltering(p)) {
    // A node whose only value is tagged with the function's language matched the index through that value,
    // which was tokenized as the function's words were (same tokenizer, same language): no need to test it.
    out = recheck(
      ctx,
      p.attr,
      p.lang,
      p.schema.list,
      out,
      (v) => textMatches(p, v),
      p.lang === "" ? undefined : (row) => row.length === 1 && row[0].lang === p.lang,
    );
  }
  return out;
}

/** The uids the trigram index offers for a regexp (a superset of its matches). */
function regexpCandidates(ctx: ExecContext, p: Prepared<"regexp">): UidList {
  const alternatives = regexTokenGroups(p.pattern, p.flags);
  if (alternatives === null) {
    throw new DgraphError("regular expression is too wide-ranging and can't be executed efficiently");
  }
  return unionAll(
    alternatives.map((groups) =>
      intersectAll(groups.map((g) => unionAll(g.map((t) => ctx.reader.index(p.attr, t))))),
    ),
  );
}

/** The uids the trigram index offers for a fuzzy match (a superset of its matches). */
function matchCandidates(ctx: ExecContext, p: Prepared<"match">): UidList {
  return unionAll(matchTokens(p.text).map((t) => ctx.reader.index(p.attr, t)));
}

function rootRegexp(ctx: ExecContext, p: Prepared<"regexp">): UidList {
  const budget = ctx.budget;
  return recheck(ctx, p.attr, langOf(p), p.schema.list, regexpCandidates(ctx, p), (v) =>
    regexMatches(p.regex, v, budget),
  );
}

function rootMatch(ctx: ExecContext, p: Prepared<"match">): UidList {
  const budget = ctx.budget;
  return recheck(ctx, p.attr, langOf(p), p.schema.list, matchCandidates(ctx, p), (v) =>
    fuzzyMatches(p.text, v, p.max, budget),
  );
}

/** The uids the geo index offers for a geo function: those sharing a cell with the query's cover. */
function geoCandidates(ctx: ExecContext, p: Prepared<"geo">): UidList {
  ctx.budget.tick(p.tokens.length);
  return unionAll(p.tokens.map((t) => ctx.reader.index(p.attr, t)));
}

/** The exact geometric test of a geo function on one value, charged by the value's size. */
export function geoTest(ctx: ExecContext, p: Prepared<"geo">): (v: TypedValue) => boolean {
  const budget = ctx.budget;
  return (v) => {
    if (v.type !== "geo") return false;
    const g = v.value as GeoJsonGeometry;
    budget.tick(geoWeight(g));
    return geoMatches(p.query, g);
  };
}
