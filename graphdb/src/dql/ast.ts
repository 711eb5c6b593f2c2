/**
 * The DQL abstract syntax tree produced by `parseDql` (see `parser.ts`).
 *
 * Conventions:
 * - Every node has a string-literal `kind`; unions are discriminated on it, switch exhaustively.
 * - Query variables (`$a`) are already substituted: the AST never contains a `$name`. Literals that came
 *   from one carry `fromVariable`.
 * - Fragments (`...f`) are already expanded in place.
 * - Names are kept as written (predicates, aliases, variables, types); function and directive names are
 *   lower-cased (DQL keywords are case-insensitive).
 * - Predicates are stored without `~` and without `@lang`; those live in `reverse` and `langs`.
 * - Uids are plain numbers (the engine's uid type).
 * - `loc` is the position of the node's first token, for "line L column C: ..." errors raised after
 *   parsing (index checks, type checks...), in Dgraph's convention (see `SourceLocation`).
 */

/**
 * Position of a token in the query text, numbered exactly as Dgraph's lexer does so that messages match:
 * `line` counts from 1 (every `\n` or `\r` starts a new line), `column` is the 0-based UTF-8 byte
 * offset within the line.
 */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

// ---------------------------------------------------------------------------------------------------
// Document

/** A whole `/query` request body (or the query part of an upsert). */
export interface DqlDocument {
  readonly kind: "Document";
  /** Name of the `query name(...) {` wrapper; undefined for a bare `{ ... }` or `query { ... }`. */
  readonly name?: string;
  /** Declared query variables with their resolved values (declaration order). */
  readonly variables: QueryVariableDefinition[];
  /**
   * Query blocks in source order, `var` blocks included. Empty when the document is a schema query.
   * The executor must order evaluation by variable dependencies (`defines`/`needs`), not by position.
   */
  readonly blocks: QueryBlock[];
  /** The `schema {...}` block, when the document is a schema query (never together with `blocks`). */
  readonly schema?: SchemaQuery;
}

/**
 * Types Dgraph checks query variable values against; `!` (required) is kept apart in `required`.
 * Other type names are accepted as long as no value is given (Dgraph only checks non-empty values).
 */
export type QueryVariableType = "int" | "float" | "bool" | "string" | "float32vector" | "vfloat";

/** `$name: type = default` in the `query name(...)` wrapper. */
export interface QueryVariableDefinition {
  readonly kind: "QueryVariableDefinition";
  /** With the leading `$`, as in the request's `variables` map. */
  readonly name: string;
  /** The declared type without `!` (usually a `QueryVariableType`). */
  readonly type: string;
  /** Declared with `!`: a value (supplied or default) is mandatory. */
  readonly required: boolean;
  /** The `= default` literal text (unquoted), if any. */
  readonly defaultValue?: string;
  /** The value in force: supplied, else default, else "" (Dgraph substitutes the empty string). */
  readonly value: string;
  readonly loc: SourceLocation;
}

// ---------------------------------------------------------------------------------------------------
// Blocks

/**
 * Arguments and directives shared by root blocks and edges (nested predicate / expand selections):
 * pagination, ordering, `@filter`, other directives and the nested selection set.
 */
export interface SelectionContainer {
  /**
   * `first: N`; negative means "last N". Pagination values given by a `$variable` that has no value
   * are left out (absent), as if not written.
   */
  readonly first?: number;
  readonly offset?: number;
  /** `after: 0x..` uid cursor: only uids strictly greater are returned. */
  readonly after?: number;
  /** Sort keys in priority order (`orderasc: name, orderdesc: age`). Empty = uid order. */
  readonly order: OrderKey[];
  /** `@filter(...)`, if any. */
  readonly filter?: FilterTree;
  readonly directives: Directives;
  /** Nested selection set; empty when there is none (`{ }` at root is also empty). */
  readonly selections: Selection[];
}

/**
 * One top-level block: `name(func: ..., first: 2) @filter(...) @cascade { ... }`,
 * `var(func: ...) { ... }`, `total() { ... }` (no root function: aggregations over value vars),
 * or `p as shortest(from: .., to: ..) { ... }`.
 */
export interface QueryBlock extends SelectionContainer {
  readonly kind: "QueryBlock";
  /** Output key: the block name as written (`q`, `me`); `"var"` for var blocks. */
  readonly name: string;
  /** `var(...)`: evaluated for its variables, never output. */
  readonly isVar: boolean;
  /** `v as q(func: ...)`: a uid variable holding the block's (filtered, paginated) result uids. */
  readonly asVar?: string;
  /**
   * The root function (`func: ...`). Undefined for empty blocks (`total() {...}`: the block has one
   * virtual node holding aggregations) and for shortest path blocks.
   */
  readonly func?: FunctionCall;
  /** Present for `shortest(...)` blocks; the selection set lists the edges to follow. */
  readonly shortest?: ShortestPathArgs;
  /**
   * Variables defined anywhere in this block (its own `asVar`, `x as ...` fields, `@facets(v as k)`),
   * in order of appearance. Every defined variable is used somewhere and vice versa (checked at parse).
   */
  readonly defines: string[];
  /**
   * Variables this block reads, de-duplicated, in order of appearance: `uid(v)`, `val(v)`,
   * `orderasc: val(v)`, math operands, aggregations, `len(v)`, `uid_in(p, uid(v))`, `expand(val(v))`,
   * shortest `from/to: uid(v)`. Blocks must be evaluated after the blocks defining these.
   */
  readonly needs: string[];
  readonly loc: SourceLocation;
}

/** `shortest(from: 0x2, to: 0x5, numpaths: 2, depth: 4, minweight: 0, maxweight: 10)`. */
export interface ShortestPathArgs {
  readonly from: UidSet;
  readonly to: UidSet;
  readonly numPaths?: number;
  readonly depth?: number;
  readonly minWeight?: number;
  readonly maxWeight?: number;
}

/** Literal uids plus uid variables whose uids are added (`uid(0x1, v)`, `from: uid(v)`). */
export interface UidSet {
  readonly uids: number[];
  readonly vars: string[];
}

/** One sort key. Multiple keys are only allowed when all are predicates. */
export type OrderKey = OrderByPredicate | OrderByValueVar;

/** `orderasc: name` / `orderdesc: name@en`. */
export interface OrderByPredicate {
  readonly kind: "OrderByPredicate";
  readonly desc: boolean;
  readonly predicate: string;
  /** Language preference list (`name@en:fr`); empty = untagged value. */
  readonly langs: string[];
  readonly loc: SourceLocation;
}

/** `orderasc: val(x)`. */
export interface OrderByValueVar {
  readonly kind: "OrderByValueVar";
  readonly desc: boolean;
  readonly varName: string;
  readonly loc: SourceLocation;
}

// ---------------------------------------------------------------------------------------------------
// Directives

/** Directives of a block or edge. Absent/false means "not given". `@filter` is `SelectionContainer.filter`. */
export interface Directives {
  /** `@cascade` (fields = [] : all children) or `@cascade(p1, p2)`. */
  readonly cascade?: CascadeDirective;
  /** `@normalize`. */
  readonly normalize: boolean;
  /** `@recurse(depth: 5, loop: true)` (root only). */
  readonly recurse?: RecurseDirective;
  /** `@groupby(p1, p2)`: the grouping keys. */
  readonly groupBy?: GroupByKey[];
  /** `@facets` / `@facets(k1, alias: k2, v as k3, orderasc: k4)`: which facets to fetch. */
  readonly facets?: FacetsDirective;
  /** `@facets(eq(k, v) and ...)`: keep only edges whose facets match. Same tree as `@filter`. */
  readonly facetsFilter?: FilterTree;
  /** `@ignorereflex`. */
  readonly ignoreReflex: boolean;
}

export interface CascadeDirective {
  /** Predicates that must be present; empty = every selected child (plain `@cascade`). */
  readonly fields: string[];
}

export interface RecurseDirective {
  /** Undefined = unlimited (loop must then be false). */
  readonly depth?: number;
  readonly loop: boolean;
}

/** A `@groupby` key: `pred`, `pred@lang`, or `alias: pred`. */
export interface GroupByKey {
  readonly predicate: string;
  readonly langs: string[];
  readonly alias?: string;
  readonly loc: SourceLocation;
}

export interface FacetsDirective {
  /** Bare `@facets`: every facet, keys as stored. (`@facets()` gives all=false and no keys: no facets.) */
  readonly all: boolean;
  /** Facets listed explicitly (when `all` is false), sorted by key and de-duplicated (as Dgraph does). */
  readonly keys: FacetKey[];
  /** The first of `orders` (kept for convenience). */
  readonly order?: FacetOrder;
  /** `@facets(orderasc: k1, orderdesc: k2)`: order the edges by these facets, in priority order. */
  readonly orders: FacetOrder[];
}

export interface FacetOrder {
  readonly key: string;
  readonly desc: boolean;
}

/** One listed facet: `k`, `alias: k`, `v as k`, `orderasc: k` (the key is output in every form). */
export interface FacetKey {
  readonly key: string;
  readonly alias?: string;
  /** `v as k`: value variable keyed by the edge's target uid. */
  readonly asVar?: string;
}

// ---------------------------------------------------------------------------------------------------
// Functions and filters

/** Function names valid at the root or in `@filter` / `@if` / `@facets(...)`. */
export type FunctionName =
  | "uid"
  | "eq"
  | "le"
  | "lt"
  | "ge"
  | "gt"
  | "between"
  | "has"
  | "type"
  | "allofterms"
  | "anyofterms"
  | "alloftext"
  | "anyoftext"
  | "regexp"
  | "match"
  | "ngram"
  | "uid_in"
  | "near"
  | "within"
  | "contains"
  | "intersects"
  | "checkpwd"
  | "similar_to"
  | "anyof"
  | "allof";

/**
 * A function call: `eq(name@en, "x")`, `uid(0x1, v)`, `has(~friend)`, `type(Person)`...
 *
 * Shapes by function (after parsing):
 * - `uid(...)`: no `attr`; `uids` holds literal uids (including those from `$variables`) and uid
 *   variables; `args` empty.
 * - `type(T)`: no `attr`; one Literal arg = the type name.
 * - `has(p)`: `attr` only.
 * - `eq(p, a, b)` / `eq(p, [a, b])`: one arg per value (lists are flattened); `eq(p, val(x))`: a
 *   ValueVar arg.
 * - `between(p, a, b)`: two args. `match(p, "s", 3)`: two args (the distance as a Literal).
 * - `regexp(p, /re/i)` (or `$re` holding `/re/i`): one Regex arg.
 * - `uid_in(p, 0x1 | [0x1, 0x2] | uid(v))`: Literal args (uid text, parse with base auto-detection)
 *   and/or one UidVar arg.
 * - geo functions: a Geo arg (also when the value comes from a `$variable` holding `[...]`), then for
 *   `near` a Literal distance.
 * - `similar_to(p, 3, "[..]" | [..] | $v, ef: 64)`: Literal args (a bare `[..]` list is kept as one
 *   Literal `"[a,b]"`), then Named args.
 * - `checkpwd(p, "pw")` (filters only): one Literal arg.
 * Literal values are never unquoted twice: `quoted` tells whether the source was a string literal.
 * Root functions never are `uid_in` or `checkpwd` (rejected at parse time).
 */
export interface FunctionCall {
  readonly kind: "FunctionCall";
  readonly name: FunctionName;
  /** What the function tests (the first argument of attribute functions). */
  readonly attr?: FunctionAttr;
  readonly args: FunctionArg[];
  /** For `uid(...)` only. */
  readonly uids?: UidSet;
  readonly loc: SourceLocation;
}

/** The first argument of attribute functions. */
export type FunctionAttr = PredicateAttr | ValueVarAttr | CountAttr | LenVarAttr;

/** `name`, `name@en`, `~friend`, `<iri>`. */
export interface PredicateAttr {
  readonly kind: "PredicateAttr";
  readonly predicate: string;
  readonly reverse: boolean;
  /** `name@en:fr` → ["en", "fr"]; `name@.` → ["."]; empty when untagged. */
  readonly langs: string[];
  readonly loc: SourceLocation;
}

/** `eq(val(x), 3)`: compare the value variable x of each candidate uid. */
export interface ValueVarAttr {
  readonly kind: "ValueVarAttr";
  readonly varName: string;
  readonly loc: SourceLocation;
}

/** `eq(count(friend), 3)` / `gt(count(~friend), 1)`: compare edge counts. */
export interface CountAttr {
  readonly kind: "CountAttr";
  readonly predicate: string;
  readonly reverse: boolean;
  readonly loc: SourceLocation;
}

/** `eq(len(v), 0)`: number of uids in variable v (upsert `@if` conditions only). */
export interface LenVarAttr {
  readonly kind: "LenVarAttr";
  readonly varName: string;
  readonly loc: SourceLocation;
}

export type FunctionArg = LiteralArg | ValueVarArg | UidVarArg | RegexArg | GeoArg | NamedArg;

/**
 * A scalar value: quoted string (escapes resolved), number or bare word, kept as text; the executor
 * converts it to the predicate's schema type.
 */
export interface LiteralArg {
  readonly kind: "LiteralArg";
  readonly value: string;
  /** Written as a quoted string. */
  readonly quoted: boolean;
  /** The query variable it was substituted from (`$a`), if any. */
  readonly fromVariable?: string;
  readonly loc: SourceLocation;
}

/** `eq(pred, val(x))`: the value of variable x (per uid, or its single aggregated value). */
export interface ValueVarArg {
  readonly kind: "ValueVarArg";
  readonly varName: string;
  readonly loc: SourceLocation;
}

/** `uid_in(pred, uid(v))`: the uids of variable v. */
export interface UidVarArg {
  readonly kind: "UidVarArg";
  readonly varName: string;
  readonly loc: SourceLocation;
}

/** `/pattern/flags` (flags: only `i` is meaningful). */
export interface RegexArg {
  readonly kind: "RegexArg";
  readonly pattern: string;
  readonly flags: string;
  readonly loc: SourceLocation;
}

/** A geo literal: `[lng, lat]`, `[[lng, lat], ...]`, `[[[lng, lat], ...]]` (JSON arrays of numbers). */
export interface GeoArg {
  readonly kind: "GeoArg";
  /** The bracketed text as written (a JSON array). */
  readonly text: string;
  /** The parsed coordinates (nested arrays of numbers). */
  readonly coordinates: GeoCoordinates;
  readonly loc: SourceLocation;
}

export type GeoCoordinates = number | GeoCoordinates[];

/** `name: value` options of `similar_to` (`ef: 64`, `distance_threshold: 0.5`). */
export interface NamedArg {
  readonly kind: "NamedArg";
  readonly name: string;
  readonly value: string;
  readonly loc: SourceLocation;
}

/** A boolean combination of functions: `@filter`, `@facets(...)` filters and upsert `@if` conditions. */
export type FilterTree = FilterFunction | FilterAnd | FilterOr | FilterNot;

export interface FilterFunction {
  readonly kind: "FilterFunction";
  readonly func: FunctionCall;
}

/** `a and b and c` (two or more operands, flattened). */
export interface FilterAnd {
  readonly kind: "FilterAnd";
  readonly operands: FilterTree[];
}

/** `a or b or c` (two or more operands, flattened). */
export interface FilterOr {
  readonly kind: "FilterOr";
  readonly operands: FilterTree[];
}

export interface FilterNot {
  readonly kind: "FilterNot";
  readonly operand: FilterTree;
}

/** An upsert `@if(...)` (or `@filter(...)`) condition, as returned by `parseCondition`. */
export type ConditionAST = FilterTree;

// ---------------------------------------------------------------------------------------------------
// Selections

/** One entry of a selection set. */
export type Selection =
  | PredicateField
  | UidField
  | CountField
  | ValueVarField
  | AggregateField
  | MathField
  | ExpandField
  | CheckPwdField;

/** Parts common to every selection. */
export interface FieldBase {
  /** `alias : field`: the output key replaces the default one. */
  readonly alias?: string;
  /** `x as field`: defines variable x (uid var for uid edges/`uid`, value var for values/counts/math). */
  readonly asVar?: string;
  readonly loc: SourceLocation;
}

/**
 * A predicate: scalar (`name`, `name@en`, `name@*`) or edge (`friend (first: 2) @filter(..) { ... }`),
 * forward or reverse (`~friend`). Output key (without alias): `~`? + predicate + (`@` + langs.join(":"))?.
 */
export interface PredicateField extends FieldBase, SelectionContainer {
  readonly kind: "PredicateField";
  readonly predicate: string;
  readonly reverse: boolean;
  /** `name@en:fr:.` → ["en", "fr", "."]; `name@*` → ["*"]; empty when untagged. */
  readonly langs: string[];
}

/** `uid` (output `"uid": "0x.."`), `n as uid`. */
export interface UidField extends FieldBase {
  readonly kind: "UidField";
}

/**
 * `count(pred)`, `count(~pred)` (key `count(pred)` / `count(~pred)` on each node) or `count(uid)`
 * (key `count`, a separate list element holding the number of nodes at that level).
 */
export interface CountField extends FieldBase {
  readonly kind: "CountField";
  /** True for `count(uid)`; predicate is then "uid". */
  readonly isUid: boolean;
  readonly predicate: string;
  readonly reverse: boolean;
  readonly langs: string[];
  /** `count(friend @filter(...))`: count only matching edges. */
  readonly filter?: FilterTree;
}

/** `val(x)` (key `val(x)`), `alias : val(x)`. */
export interface ValueVarField extends FieldBase {
  readonly kind: "ValueVarField";
  readonly varName: string;
}

export type AggregateFunctionName = "min" | "max" | "sum" | "avg";

/**
 * `min(val(x))` (key `min(val(x))`), or, directly inside a `@groupby` block only, `min(pred)`
 * (aggregate a predicate over each group's nodes; key `min(pred)`).
 */
export interface AggregateField extends FieldBase {
  readonly kind: "AggregateField";
  readonly fn: AggregateFunctionName;
  readonly target:
    | { readonly kind: "ValueVar"; readonly varName: string }
    | { readonly kind: "Predicate"; readonly predicate: string };
}

/** `r as math(a / b)` (output only through `val(r)` unless aliased: `x : math(...)`). */
export interface MathField extends FieldBase {
  readonly kind: "MathField";
  readonly expr: MathExpr;
  /** The expression text as written (for output keys such as `math(a / b)`). */
  readonly text: string;
}

/** `expand(_all_)`, `expand(Person, Film)`, `expand(val(x))`, each with an optional nested selection. */
export interface ExpandField extends FieldBase, SelectionContainer {
  readonly kind: "ExpandField";
  readonly target: ExpandTarget;
}

export type ExpandTarget =
  | { readonly kind: "ExpandAll" }
  | { readonly kind: "ExpandTypes"; readonly types: string[] }
  | { readonly kind: "ExpandValueVar"; readonly varName: string };

/** `checkpwd(password, "secret")` → key `checkpwd(password)`, value true/false. */
export interface CheckPwdField extends FieldBase {
  readonly kind: "CheckPwdField";
  readonly predicate: string;
  readonly password: string;
}

// ---------------------------------------------------------------------------------------------------
// math(...)

export type MathExpr = MathNumber | MathVarRef | MathUnary | MathBinary | MathCall;

export interface MathNumber {
  readonly kind: "MathNumber";
  readonly value: number;
  /** As written (`3`, `2.5`, `1e3`), to tell ints from floats. */
  readonly text: string;
  readonly isInt: boolean;
}

/** A value variable by name: `a` in `math(a + 1)`. */
export interface MathVarRef {
  readonly kind: "MathVarRef";
  readonly varName: string;
}

/** Unary minus (the parser never produces `!`; it is kept for type stability). */
export type MathUnaryOp = "-" | "!";

export interface MathUnary {
  readonly kind: "MathUnary";
  readonly op: MathUnaryOp;
  readonly operand: MathExpr;
}

export type MathBinaryOp = "+" | "-" | "*" | "/" | "%" | "<" | ">" | "<=" | ">=" | "==" | "!=";

export interface MathBinary {
  readonly kind: "MathBinary";
  readonly op: MathBinaryOp;
  readonly left: MathExpr;
  readonly right: MathExpr;
}

export type MathFunctionName =
  | "min"
  | "max"
  | "logbase"
  | "pow"
  | "ln"
  | "exp"
  | "sqrt"
  | "floor"
  | "ceil"
  | "since"
  | "cond"
  | "dot";

/** `pow(a, 2)`, `cond(a > 1, x, y)`, `since(d)`... */
export interface MathCall {
  readonly kind: "MathCall";
  readonly fn: MathFunctionName;
  readonly args: MathExpr[];
}

// ---------------------------------------------------------------------------------------------------
// Schema queries

/**
 * `schema {}`, `schema(pred: [name, age]) { type index }`, `schema(type: Person) {}`.
 * Undefined `predicates`/`types` mean "not restricted by that argument".
 */
export interface SchemaQuery {
  readonly kind: "SchemaQuery";
  /** `pred: name` / `pred: [a, b]`. */
  readonly predicates?: string[];
  /** `type: T` / `type: [A, B]`: output types only. */
  readonly types?: string[];
  /** Requested fields (`type index tokenizer reverse count list upsert unique lang noconflict`); empty = all. */
  readonly fields: string[];
  readonly loc: SourceLocation;
}
