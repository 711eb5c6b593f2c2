import { DgraphError } from "../core/errors.ts";
import type { ScalarType } from "../core/scalar.ts";
import {
  blankPredicate,
  type ParsedSchema,
  type PredicateSchema,
  type TypeSchema,
} from "../core/schema-types.ts";
import { getTokenizer, INDEX_FACTORIES } from "../tokenizer/registry.ts";
import { isReservedName, predefinedPredicate, predefinedType } from "./predefined.ts";
import { type Item, ItemKind, itemError, itemString, lexSchema } from "./schema-lexer.ts";

/**
 * Parser of the DQL schema language (Dgraph `schema/parse.go`), with Dgraph's error texts and positions:
 *
 * ```
 * [0x1] name: string @index(term, exact) @lang .
 * <http://x/y>: [uid] @reverse @count .
 * vec: float32vector @index(hnsw(metric: "cosine")) .
 * type Person {
 *   name
 *   <~friend>
 * }
 * ```
 */

/** Options of one index factory in `@index(...)` (`hnsw(metric: "cosine")`). */
export interface IndexSpec {
  name: string;
  options: { key: string; value: string }[];
}

/** A parse result; `indexSpecs` keeps the options of vector indexes (their names are also in `tokenizers`). */
export interface SchemaParseResult extends ParsedSchema {
  indexSpecs: Map<string, IndexSpec[]>;
}

const TYPE_NAMES: ReadonlySet<string> = new Set<ScalarType>([
  "default",
  "binary",
  "int",
  "float",
  "bool",
  "datetime",
  "geo",
  "uid",
  "password",
  "string",
  "bigfloat",
  "float32vector",
]);

const HNSW_METRICS = new Set(["euclidean", "cosine", "dotproduct"]);

/** Go's `lex.ItemIterator`: starts before the first item; out-of-range reads give an EOF at -1:-1. */
class ItemIterator {
  private idx = -1;
  constructor(private readonly items: Item[]) {}

  next(): boolean {
    this.idx++;
    return this.idx < this.items.length;
  }
  item(): Item {
    if (this.idx < 0 || this.idx >= this.items.length) {
      return { kind: ItemKind.eof, val: "", line: -1, column: -1 };
    }
    return this.items[this.idx];
  }
  prev(): void {
    if (this.idx > 0) this.idx--;
  }
  peek(n: number): Item[] | undefined {
    if (this.idx + n + 1 > this.items.length) return undefined;
    return this.items.slice(this.idx + 1, this.idx + n + 1);
  }
  peekOne(): Item | undefined {
    return this.idx + 1 < this.items.length ? this.items[this.idx + 1] : undefined;
  }
}

interface PendingPredicate {
  schema: PredicateSchema;
  indexed: boolean;
  specs: IndexSpec[];
}

function parseTokenOptions(it: ItemIterator, factory: string): { key: string; value: string }[] {
  const next = it.peekOne();
  if (next === undefined) {
    throw itemError(it.item(), "unexpected end of stream when looking for IndexFactory options");
  }
  if (next.kind === ItemKind.comma || next.kind === ItemKind.rightRound) return [];
  if (next.kind !== ItemKind.leftRound)
    throw itemError(next, `unexpected '${next.val}' found when expecting '('`);
  it.next();
  const options: { key: string; value: string }[] = [];
  for (;;) {
    it.next();
    let item = it.item();
    if (item.kind !== ItemKind.text) {
      throw itemError(item, `unexpected '${item.val}' found when expecting option name`);
    }
    const key = item.val;
    it.next();
    item = it.item();
    if (item.kind !== ItemKind.colon)
      throw itemError(item, `unexpected '${item.val}' found when expecting ':'`);
    it.next();
    item = it.item();
    if (item.kind !== ItemKind.quotedText) {
      throw itemError(item, `unexpected '${item.val}' found when expecting quoted text`);
    }
    const value = item.val.slice(1, -1);
    const problem = checkFactoryOption(factory, key, value);
    if (problem) throw itemError(item, `IndexFactory: ${factory} issues this error: '${problem}'`);
    options.push({ key, value });
    it.next();
    item = it.item();
    if (item.kind === ItemKind.rightRound) return options;
    if (item.kind !== ItemKind.comma) {
      throw itemError(item, `unexpected '${item.val}' found when expecting ',' or ')'`);
    }
  }
}

function checkFactoryOption(factory: string, key: string, value: string): string | undefined {
  if (factory !== "hnsw") return undefined;
  switch (key) {
    case "metric":
      return HNSW_METRICS.has(value) ? undefined : `Invalid metric: ${value}`;
    case "exponent":
    case "maxLevels":
    case "efConstruction":
    case "efSearch":
      return /^[0-9]+$/.test(value) ? undefined : `${key} must be an integer, got ${value}`;
    default:
      return `Invalid option: ${key}`;
  }
}

/** One `Token ::= TokenName [TokenOptions]` of `@index(...)`. */
function parseTokenOrSpec(
  it: ItemIterator,
  predicate: string,
  typ: ScalarType,
): { name: string; spec?: IndexSpec; sortable: boolean } {
  it.next();
  const item = it.item();
  if (item.kind !== ItemKind.text) {
    throw itemError(item, `Expected token or VectorFactory name, but found '${item.val}'`);
  }
  const name = item.val.toLowerCase();
  if (INDEX_FACTORIES.has(name)) {
    if (typ !== "float32vector") {
      throw itemError(item, `IndexFactory: ${name} isn't valid for predicate: ${predicate} of type: ${typ}`);
    }
    return { name, spec: { name, options: parseTokenOptions(it, name) }, sortable: false };
  }
  const tokenizer = getTokenizer(name);
  if (!tokenizer) throw itemError(item, `Invalid tokenizer ${item.val}`);
  if (!tokenizer.allowedTypes.includes(typ)) {
    throw itemError(
      item,
      `Tokenizer: ${tokenizer.name} isn't valid for predicate: ${predicate} of type: ${typ}`,
    );
  }
  return { name, sortable: tokenizer.sortable };
}

function parseIndexDirective(it: ItemIterator, p: PendingPredicate): void {
  const { predicate, type } = p.schema;
  if (type === "uid" || type === "default" || type === "password") {
    throw itemError(it.item(), `Indexing not allowed on predicate ${predicate} of type ${type}`);
  }
  if (!it.next()) throw itemError(it.item(), "Invalid ending.");
  let next = it.item();
  if (next.kind !== ItemKind.leftRound) {
    it.prev();
    throw itemError(it.item(), `Require type of tokenizer for pred: ${predicate} for indexing.`);
  }
  const tokenizers: string[] = [];
  const specs: IndexSpec[] = [];
  const seen = new Set<string>();
  let seenSortable = false;
  for (;;) {
    const { name, spec, sortable } = parseTokenOrSpec(it, predicate, type);
    if (sortable && seenSortable)
      throw itemError(next, `Only one index tokenizer can be sortable for ${predicate}`);
    seenSortable = sortable;
    if (seen.has(name)) throw itemError(next, `Duplicate tokenizers defined for predicate ${predicate}`);
    seen.add(name);
    tokenizers.push(name);
    if (spec) specs.push(spec);
    it.next();
    next = it.item();
    if (next.kind === ItemKind.rightRound) break;
    if (next.kind !== ItemKind.comma) {
      throw itemError(next, `Expected ',' or ')' but found '${next.val}' for predicate '${predicate}'`);
    }
  }
  p.indexed = true;
  p.schema.tokenizers = tokenizers;
  p.specs = specs;
}

function parseDirective(it: ItemIterator, p: PendingPredicate): void {
  it.next();
  const item = it.item();
  if (item.kind !== ItemKind.text) throw itemError(item, "Missing directive name");
  const s = p.schema;
  switch (item.val) {
    case "reverse":
      if (s.type !== "uid") throw itemError(item, "Cannot reverse for non-UID type");
      s.reverse = true;
      break;
    case "index":
      parseIndexDirective(it, p);
      break;
    case "count":
      s.count = true;
      break;
    case "upsert":
      s.upsert = true;
      break;
    case "unique":
      s.unique = true;
      break;
    case "noconflict":
      s.noconflict = true;
      break;
    case "lang":
      if (s.type !== "string" || s.list) {
        throw itemError(
          item,
          `@lang directive can only be specified for string type. Got: [${s.type}] for attr: [${s.predicate}]`,
        );
      }
      s.lang = true;
      break;
    default:
      throw itemError(item, "Invalid index specification");
  }
  it.next();
}

/** `name: type @directives .` with `name` already consumed. */
function parseScalarPair(it: ItemIterator, predicate: string): PendingPredicate {
  it.next();
  let next = it.item();
  if (next.kind === ItemKind.at || predicate.includes("@")) throw itemError(next, "Invalid '@' in name");
  if (next.kind !== ItemKind.colon) throw itemError(next, "Missing colon");
  if (!it.next()) throw itemError(next, "Invalid ending while trying to parse schema.");
  next = it.item();
  const p: PendingPredicate = {
    schema: blankPredicate(predicate, "default", false),
    indexed: false,
    specs: [],
  };
  if (next.kind === ItemKind.leftSquare) {
    p.schema.list = true;
    if (!it.next()) throw itemError(next, "Invalid ending while trying to parse schema.");
    next = it.item();
  }
  if (next.kind !== ItemKind.text) throw itemError(next, "Missing Type");
  const typ = next.val.toLowerCase();
  if (!TYPE_NAMES.has(typ)) throw itemError(next, "Undefined Type");
  p.schema.type = typ as ScalarType;
  if (p.schema.list && (typ === "password" || typ === "bool")) {
    throw itemError(next, `Unsupported type for list: [${typ}].`);
  }
  it.next();
  next = it.item();
  if (p.schema.list) {
    if (next.kind !== ItemKind.rightSquare)
      throw itemError(next, `Unclosed [ while parsing schema for: ${predicate}`);
    if (!it.next()) throw itemError(next, "Invalid ending");
    next = it.item();
  }
  while (next.kind === ItemKind.at) {
    parseDirective(it, p);
    next = it.item();
  }
  if (next.kind !== ItemKind.dot) throw itemError(next, "Invalid ending");
  it.next();
  next = it.item();
  if (next.kind === ItemKind.eof) {
    it.prev();
    return p;
  }
  if (next.kind !== ItemKind.newLine) throw itemError(next, "Invalid ending");
  return p;
}

/** A type field: `name`, `<~friend>`, or the old `name: type` form (type ignored); ends at a new line. */
function parseTypeField(it: ItemIterator): string {
  const field = it.item().val;
  it.next();
  if (it.item().kind === ItemKind.newLine) return field;
  if (it.item().kind !== ItemKind.colon) {
    throw itemError(it.item(), `Missing colon in type declaration. Got ${it.item().val}`);
  }
  it.next();
  let list = false;
  if (it.item().kind === ItemKind.leftSquare) {
    list = true;
    it.next();
  }
  if (it.item().kind !== ItemKind.text) {
    throw itemError(it.item(), `Missing field type in type declaration. Got ${it.item().val}`);
  }
  it.next();
  if (it.item().kind === ItemKind.exclamation) it.next();
  if (list) {
    if (it.item().kind !== ItemKind.rightSquare) {
      throw itemError(it.item(), `Expected matching square bracket. Got ${it.item().val}`);
    }
    it.next();
    if (it.item().kind === ItemKind.exclamation) it.next();
  }
  if (it.item().kind !== ItemKind.newLine) {
    throw itemError(it.item(), `Expected new line after field declaration. Got ${it.item().val}`);
  }
  return field;
}

/** `type Name { fields }`, the iterator on the `type` keyword. */
function parseTypeDeclaration(it: ItemIterator): TypeSchema {
  it.next();
  const name = it.item().val;
  it.next(); // the `{` checked by isTypeDeclaration
  const fields: string[] = [];
  while (it.next()) {
    const item = it.item();
    switch (item.kind) {
      case ItemKind.rightCurl: {
        it.next();
        const after = it.item();
        if (after.kind !== ItemKind.newLine && after.kind !== ItemKind.eof) {
          throw itemError(after, `Expected new line or EOF after type declaration. Got ${itemString(after)}`);
        }
        it.prev();
        const seen = new Set<string>();
        for (const f of fields) {
          if (seen.has(f)) throw itemError(it.item(), `Duplicate fields with name: ${f}`);
          seen.add(f);
        }
        return { name, fields };
      }
      case ItemKind.text:
        fields.push(parseTypeField(it));
        break;
      case ItemKind.newLine:
        break;
      default:
        throw itemError(item, `Unexpected token. Got ${item.val}`);
    }
  }
  throw new DgraphError("Shouldn't reach here.", "Error");
}

function isTypeDeclaration(item: Item, it: ItemIterator): boolean {
  if (item.val !== "type") return false;
  const ahead = it.peek(2);
  return ahead !== undefined && ahead[0].kind === ItemKind.text && ahead[1].kind === ItemKind.leftCurl;
}

/** `[0x1]` before a declaration (galaxy namespaces): checked and skipped. */
function skipNamespace(it: ItemIterator): void {
  const ahead = it.peek(2);
  if (ahead === undefined)
    throw new DgraphError("While parsing namespace:: Unable to peek: Out of range for peek", "Error");
  if (ahead[0].kind !== ItemKind.number || ahead[1].kind !== ItemKind.rightSquare) {
    throw new DgraphError("While parsing namespace:: Typed oes not match the expected", "Error");
  }
  const text = ahead[0].val;
  const valid = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(text) && BigInt(text) < 2n ** 64n;
  if (!valid) {
    throw new DgraphError(
      `While parsing namespace:: strconv.ParseUint: parsing "${text}": invalid syntax`,
      "Error",
    );
  }
  it.next();
  it.next();
  if (!it.next())
    throw new DgraphError(
      `While parsing namespace:: No schema found after namespace. Got: ${itemString(ahead[0])}`,
      "Error",
    );
}

function err(message: string): DgraphError {
  return new DgraphError(message, "Error");
}

/** Alter-time rules that Dgraph checks after parsing (worker `checkSchema`). */
function checkPredicate(p: PendingPredicate): void {
  const s = p.schema;
  if (s.upsert && s.tokenizers.length === 0) {
    throw err(`Index tokenizer is mandatory for: [${s.predicate}] when specifying @upsert directive`);
  }
  if (s.unique) {
    if (s.type === "int" && !s.tokenizers.includes("int")) {
      throw err(`index for predicate [${s.predicate}] is missing, add int index with @unique`);
    }
    if (s.type === "string" && !s.tokenizers.includes("exact") && !s.tokenizers.includes("hash")) {
      throw err(
        `index for predicate [${s.predicate}] is missing, add either hash or exact index with @unique`,
      );
    }
  }
}

function parseItems(text: string): SchemaParseResult {
  const it = new ItemIterator(lexSchema(text));
  const pending: PendingPredicate[] = [];
  const types: TypeSchema[] = [];
  const declare = (item: Item) => {
    if (isTypeDeclaration(item, it)) types.push(parseTypeDeclaration(it));
    else pending.push(parseScalarPair(it, item.val));
  };
  while (it.next()) {
    const item = it.item();
    switch (item.kind) {
      case ItemKind.eof:
        return finish(pending, types);
      case ItemKind.text:
        declare(item);
        break;
      case ItemKind.leftSquare:
        skipNamespace(it);
        declare(it.item());
        break;
      case ItemKind.newLine:
        break;
      default:
        throw itemError(item, `Unexpected token: ${itemString(item)} while parsing schema`);
    }
  }
  throw err("Shouldn't reach here");
}

function finish(pending: PendingPredicate[], types: TypeSchema[]): SchemaParseResult {
  const predicates: PredicateSchema[] = [];
  const indexSpecs = new Map<string, IndexSpec[]>();
  const seenPredicates = new Set<string>();
  for (const p of pending) {
    if (seenPredicates.has(p.schema.predicate))
      throw err(`predicate ${p.schema.predicate} defined multiple times`);
    seenPredicates.add(p.schema.predicate);
    checkPredicate(p);
    predicates.push(p.schema);
    if (p.specs.length > 0) indexSpecs.set(p.schema.predicate, p.specs);
  }
  const seenTypes = new Set<string>();
  for (const t of types) {
    if (seenTypes.has(t.name)) throw err(`type ${t.name} defined multiple times`);
    seenTypes.add(t.name);
  }
  return { predicates, types, indexSpecs };
}

/**
 * Parses schema text (an `/alter` body). Errors are DgraphErrors with code "Error" and Dgraph's texts:
 * `line L column C: …` for syntax and directive errors, `while lexing … at line L column C: …` for
 * lexical ones, unprefixed for `predicate x defined multiple times`, `type X defined multiple times` and
 * the @upsert/@unique index requirements. Never throws anything but a DgraphError.
 */
export function parseSchema(text: string): SchemaParseResult {
  try {
    return parseItems(text);
  } catch (e) {
    if (e instanceof DgraphError) throw e;
    throw err(`Invalid schema: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function samePredicate(a: PredicateSchema, b: PredicateSchema): boolean {
  return (
    a.type === b.type &&
    a.list === b.list &&
    a.reverse === b.reverse &&
    a.count === b.count &&
    a.upsert === b.upsert &&
    a.lang === b.lang &&
    a.noconflict === b.noconflict &&
    a.unique === b.unique &&
    a.tokenizers.length === b.tokenizers.length &&
    a.tokenizers.every((t, i) => t === b.tokenizers[i])
  );
}

/**
 * The reserved-namespace rules of an alter (Dgraph edgraph `parseSchemaFromAlterOperation`): a
 * pre-defined predicate or type (ACL ones included) may be restated only exactly as defined; any other
 * name starting with `dgraph.` (any case) is refused.
 */
export function validateAlterAgainstPredefined(parsed: ParsedSchema): void {
  for (const p of parsed.predicates) {
    const original = predefinedPredicate(p.predicate);
    if (original) {
      if (!samePredicate(original, p)) {
        throw err(`predicate ${p.predicate} is pre-defined and is not allowed to be modified`);
      }
    } else if (isReservedName(p.predicate)) {
      throw err(
        `Can't alter predicate \`${p.predicate}\` as it is prefixed with \`dgraph.\` which is reserved as the namespace for dgraph's internal types/predicates.`,
      );
    }
  }
  for (const t of parsed.types) {
    const original = predefinedType(t.name);
    if (original) {
      const same =
        original.fields.length === t.fields.length && original.fields.every((f, i) => f === t.fields[i]);
      if (!same) throw err(`type ${t.name} is pre-defined and is not allowed to be modified`);
    } else if (isReservedName(t.name)) {
      throw err(
        `Can't alter type \`${t.name}\` as it is prefixed with \`dgraph.\` which is reserved as the namespace for dgraph's internal types/predicates.`,
      );
    }
  }
}
