/**
 * RDF N-Quads (`set`/`delete` block bodies, gRPC `set_nquads`/`del_nquads`, bulk files) → normalised edges.
 *
 * One statement per line: `<subject> <predicate> <object> [<label>] [(facets)] .` with `#` comments. The
 * scanner follows Dgraph's `chunker` lexer (`rdf_state.go`) and parser (`rdf_parser.go`) and the checks
 * `edgraph.validateNQuads` runs before a mutation is applied, with their error texts. It is a hand-written
 * char-code scanner over the whole input: lines are located with `indexOf`, terms are sliced, and only
 * escaped literals are rebuilt.
 *
 * The character codes and the grammar's character classes (`PN_CHARS…`, `ECHAR`) stay in this file, beside
 * the loops that test them per character: imported, they measurably slow the scanner. Its neighbours:
 * rdf-literal.ts (`^^<type>` conversion), uid-text.ts (`<0x1a>`), edge-checks.ts, nquad-format.ts (statements
 * in error messages) and nquad-chunk-parser.ts (input that arrives in pieces).
 */
import { DgraphError } from "../core/errors.ts";
import type { Facet } from "../core/facet.ts";
import { goParseUint, goUnquoteBody, quickUint } from "../types/strconv.ts";
import type { Edge, EdgeObject, EdgeOp, NodeRef } from "./edge.ts";
import { checkFacetKeys, checkPredicate, checkStars } from "./edge-checks.ts";
import { rdfFacet, sortFacets } from "./facet-parser.ts";
import { isGoSpace, trimGoSpace } from "./go-space.ts";
import { formatNQuad } from "./nquad-format.ts";
import { numError } from "./num-error.ts";
import { typedLiteral } from "./rdf-literal.ts";
import { uidRef } from "./uid-text.ts";

export interface NQuadOptions {
  /** Default "set". */
  op?: EdgeOp;
  /**
   * Bulk loading of Freebase-style data: an `<iri>` subject or object that is not a uid becomes the blank
   * node labelled by the IRI text (`</en/larry_fine>` → `{ kind: "blank", label: "/en/larry_fine" }`).
   * Without it such an IRI is an error, as in Dgraph.
   */
  iriAsBlank?: boolean;
}

/** Parses N-Quad text (any number of lines) into edges; throws a DgraphError on the first bad statement. */
export function parseNQuads(text: string, options: NQuadOptions = {}): Edge[] {
  const out: Edge[] = [];
  parseLines(new LineParser(options.op ?? "set", options.iriAsBlank === true), text, 0, text.length, out);
  return out;
}

/** Parses the lines of `text[from, to)` (Go-space trimmed, blank lines skipped) into `out`. */
export function parseLines(parser: LineParser, text: string, from: number, to: number, out: Edge[]): void {
  let pos = from;
  while (pos <= to) {
    let end = text.indexOf("\n", pos);
    if (end < 0 || end > to) end = to;
    let s = pos;
    let e = end;
    while (s < e && isGoSpace(text.charCodeAt(s))) s++;
    while (e > s && isGoSpace(text.charCodeAt(e - 1))) e--;
    if (s < e) parser.parse(text, s, e, out);
    pos = end + 1;
  }
}

// Character codes.
const TAB = 9;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const LPAREN = 40;
const RPAREN = 41;
const STAR = 42;
const COMMA = 44;
const DASH = 45;
const DOT = 46;
const COLON = 58;
const LT = 60;
const EQUAL = 61;
const GT = 62;
const AT = 64;
const BACKSLASH = 92;
const CARET = 94;
const UNDERSCORE = 95;
const LOWER_U = 117;
const LOWER_V = 118;

/** Dgraph's lexer item types, printed with `%v` in some of its messages. */
const ITEM_SUBJECT = 6;
const ITEM_OBJECT = 8;
const ITEM_LABEL = 9;

/** Where the scanner is in a statement (Dgraph's lexer depth). */
const AT_SUBJECT = 0;
const AT_PREDICATE = 1;
const AT_OBJECT = 2;
const AT_LABEL = 3;
const AFTER_LABEL = 4;

const NO_FACETS: Facet[] = Object.freeze([]) as unknown as Facet[];

const STAR_OBJECT: EdgeObject = Object.freeze({ kind: "star" }) as EdgeObject;

/** Scans one trimmed, non-empty line at a time; holds the per-input predicate check cache. */
export class LineParser {
  private text = "";
  private pos = 0;
  private end = 0;
  private lineStart = 0;
  /** Predicates already checked for this op (inputs repeat a few predicates many times). */
  private readonly checkedPredicates = new Set<string>();

  constructor(
    private readonly op: EdgeOp,
    private readonly iriAsBlank: boolean,
  ) {}

  parse(text: string, start: number, end: number, out: Edge[]): void {
    this.text = text;
    this.pos = start;
    this.end = end;
    this.lineStart = start;
    const first = text.charCodeAt(start);
    if (first === HASH) return;

    // Subject.
    let subject: NodeRef | null = null; // null: `*`
    switch (first) {
      case LT: {
        const iri = this.readIri();
        if (iri === "*") break;
        if (iri.length === 0) throw this.inputError("empty required fields in NQuad.");
        subject = this.iriNode(iri);
        break;
      }
      case UNDERSCORE:
        subject = { kind: "blank", label: this.readBlank(ITEM_SUBJECT) };
        break;
      case LOWER_U:
      case LOWER_V: {
        const fn = this.readFunction();
        if (fn.isVal) throw numError("ParseUint", `val(${fn.name})`, "syntax");
        subject = { kind: "var", name: fn.name };
        break;
      }
      case STAR:
        this.pos++;
        break;
      default:
        throw this.unexpected(AT_SUBJECT);
    }

    // Predicate.
    this.skipSpaces();
    let predicate: string;
    let predicateLang: string | undefined;
    const pc = this.peek();
    if (pc === LT) {
      predicate = this.readIri();
      const at = predicate.lastIndexOf("@");
      if (at > 0) {
        const lang = predicate.slice(at + 1);
        if (lang.length > 0) predicateLang = lang;
        predicate = predicate.slice(0, at);
      }
      if (predicate.length === 0) throw this.inputError("empty required fields in NQuad.");
    } else if (pc === STAR) {
      this.pos++;
      predicate = "*";
    } else {
      throw this.unexpected(AT_PREDICATE);
    }

    // Object.
    this.skipSpaces();
    let object: EdgeObject;
    switch (this.peek()) {
      case LT: {
        const iri = this.readIri();
        if (iri.length === 0) throw this.inputError("no Object in NQuad.");
        object = { kind: "node", ref: this.iriNode(iri) };
        break;
      }
      case UNDERSCORE:
        object = { kind: "node", ref: { kind: "blank", label: this.readBlank(ITEM_OBJECT) } };
        break;
      case QUOTE:
        object = this.readLiteral(subject === null || predicate === "*", predicateLang);
        break;
      case LOWER_U:
      case LOWER_V: {
        const fn = this.readFunction();
        object = fn.isVal
          ? { kind: "valVar", name: fn.name }
          : { kind: "node", ref: { kind: "var", name: fn.name } };
        break;
      }
      case STAR:
        this.pos++;
        object = STAR_OBJECT;
        break;
      default:
        throw this.unexpected(AT_OBJECT);
    }

    // Optional label (namespace), facets, then the final dot.
    // Most statements have no facets: they share one frozen empty list.
    let facets: Facet[] = NO_FACETS;
    let depth = AT_LABEL;
    for (;;) {
      this.skipSpaces();
      const c = this.peek();
      if (c === DOT) {
        this.pos++;
        this.skipSpaces();
        if (this.pos < this.end && this.text.charCodeAt(this.pos) !== HASH) {
          throw this.inputError("invalid end of input. Expected newline or # after .");
        }
        break;
      }
      if (depth === AT_LABEL && (c === LT || c === UNDERSCORE)) {
        this.readLabel();
        depth = AFTER_LABEL;
      } else if (c === LPAREN) {
        if (facets === NO_FACETS) facets = [];
        this.readFacets(facets);
        depth = AFTER_LABEL + 1;
      } else if (c < 0) {
        throw this.inputError("invalid end of input.");
      } else {
        throw this.unexpected(depth);
      }
    }

    this.check(subject, predicate, object, facets);
    out.push({
      subject: subject as NodeRef,
      predicate,
      object,
      facets,
      list: object.kind === "node",
    });
  }

  /** `edgraph.validateNQuads` and the parser's sanity checks, with a cache for predicates. */
  private check(subject: NodeRef | null, predicate: string, object: EdgeObject, facets: Facet[]): void {
    const known = this.checkedPredicates.has(predicate);
    const needsStarCheck = subject === null || predicate === "*" || object.kind === "star";
    if (
      known &&
      !needsStarCheck &&
      facets.length === 0 &&
      (subject === null || subject.kind !== "blank" || hasAlnum(subject.label)) &&
      (object.kind !== "node" || object.ref.kind !== "blank" || hasAlnum(object.ref.label))
    ) {
      return; // the common case, decided without building anything
    }
    const describe = () => formatNQuad(subject, predicate, object, facets);
    if (
      (subject !== null && subject.kind === "blank" && !hasAlnum(subject.label)) ||
      (object.kind === "node" && object.ref.kind === "blank" && !hasAlnum(object.ref.label)) ||
      (predicate !== "*" && !known && !hasAlnum(predicate))
    ) {
      throw new DgraphError(`NQuad failed sanity check:${describe()}`);
    }
    if (!known) {
      checkPredicate(predicate, this.op, describe);
      this.checkedPredicates.add(predicate);
    }
    if (needsStarCheck) checkStars(subject === null, predicate, object, this.op, describe);
    if (facets.length > 0) {
      const isSet = this.op === "set";
      if (isSet) checkFacetKeys(facets, describe);
      sortFacets(facets, isSet);
    }
  }

  private peek(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  private skipSpaces(): void {
    const text = this.text;
    let c = text.charCodeAt(this.pos);
    while (this.pos < this.end && (c === SPACE || c === TAB)) c = text.charCodeAt(++this.pos);
  }

  private line(): string {
    return this.text.slice(this.lineStart, this.end);
  }

  /** A lexer failure, in Dgraph's `while lexing <input> at line 1 column N: ...` form. */
  private lexError(message: string): DgraphError {
    return new DgraphError(
      `while lexing ${this.line()} at line 1 column ${this.pos - this.lineStart}: ${message}`,
    );
  }

  /** A parser failure that quotes the statement: `<message> Input: [<line>]`. */
  private inputError(message: string): DgraphError {
    return new DgraphError(`${message} Input: [${this.line()}]`);
  }

  private charAt(at: number): string {
    if (at >= this.end) return "";
    return String.fromCodePoint(this.text.codePointAt(at) ?? 0);
  }

  /** Dgraph's `lexText` complaint about the character at `pos` for the current depth. */
  private unexpected(depth: number): DgraphError {
    const c = this.peek();
    if (c < 0) return this.inputError("invalid end of input.");
    const ch = this.charAt(this.pos);
    if (c === QUOTE) return this.lexError("Invalid quote for non-object.");
    if (c === LPAREN) return this.lexError("Invalid input: ( at Facet");
    if (depth === AT_PREDICATE && c === UNDERSCORE)
      return this.lexError("Invalid character in lexPredicate: '_'");
    if ((c === LOWER_U || c === LOWER_V) && depth !== AT_SUBJECT && depth !== AT_OBJECT) {
      return this.lexError(`Unexpected char '${ch}'`);
    }
    return this.lexError(`Invalid input: ${ch} at lexText`);
  }

  /** `<...>` at `pos`: returns the IRI text (escapes kept as written) and moves past `>`. */
  private readIri(): string {
    const text = this.text;
    const start = ++this.pos;
    for (;;) {
      if (this.pos >= this.end) throw this.lexError("Unexpected end of IRI");
      const c = text.charCodeAt(this.pos);
      if (c === GT) break;
      if (
        c <= SPACE ||
        c === LT ||
        c === QUOTE ||
        c === 123 ||
        c === 125 ||
        c === 124 ||
        c === CARET ||
        c === 96
      ) {
        throw this.lexError(`Unexpected character ${goRune(this.charAt(this.pos))} while parsing IRI`);
      }
      if (c === BACKSLASH) {
        const u = text.charCodeAt(this.pos + 1);
        const n = u === LOWER_U ? 4 : u === 85 ? 8 : 0;
        if (n === 0 || !isHexRun(text, this.pos + 2, n, this.end)) {
          throw this.lexError(`Unexpected character '\\\\' while parsing IRI`);
        }
        this.pos += 2 + n;
        continue;
      }
      this.pos++;
    }
    const iri = text.slice(start, this.pos);
    this.pos++;
    return iri;
  }

  /** A subject or object IRI: a uid (`<0x1a>`, `<26>`), `<_:label>`, or with `iriAsBlank` a labelled node. */
  private iriNode(iri: string): NodeRef {
    const c0 = iri.charCodeAt(0);
    if (c0 >= 48 && c0 <= 57) {
      const quick = quickUint(iri);
      if (quick !== undefined) return uidRef(quick, iri);
      const parsed = goParseUint(iri);
      if (typeof parsed === "bigint") return uidRef(Number(parsed), iri);
      if (parsed === "range") throw numError("ParseUint", iri, "range");
    }
    if (c0 === UNDERSCORE && iri.charCodeAt(1) === COLON) return { kind: "blank", label: iri.slice(2) };
    if (this.iriAsBlank) return { kind: "blank", label: iri };
    throw numError("ParseUint", iri, "syntax");
  }

  /** `_:label` at `pos` (N-Quads BLANK_NODE_LABEL): returns the label without `_:`. */
  private readBlank(item: number): string {
    const text = this.text;
    const start = this.pos;
    if (text.charCodeAt(start + 1) !== COLON || start + 1 >= this.end) {
      this.pos = start + 1;
      throw this.lexError(`Invalid character after _. Expected :, found '${this.charAt(start + 1)}'`);
    }
    this.pos = start + 2;
    if (this.pos >= this.end) throw this.lexError("Unexpected end of subject");
    let cp = text.codePointAt(this.pos) ?? 0;
    if (!(isPnCharsU(cp) || (cp >= 48 && cp <= 57))) {
      throw this.lexError(`Invalid character in ${item} after _: , Got '${this.charAt(this.pos)}'`);
    }
    let last = cp;
    this.pos += cp > 0xffff ? 2 : 1;
    while (this.pos < this.end) {
      cp = text.codePointAt(this.pos) ?? 0;
      if (cp !== DOT && !isPnChar(cp)) break;
      last = cp;
      this.pos += cp > 0xffff ? 2 : 1;
    }
    if (last === DOT) throw this.lexError(`Can not end ${item} with '.'`);
    if (this.pos >= this.end) throw this.lexError(`Unexpected end of ${item}`);
    if (cp !== SPACE && cp !== TAB) {
      throw this.lexError(`Invalid character '${this.charAt(this.pos)}' found for itemType: ${item}`);
    }
    return text.slice(start + 2, this.pos);
  }

  /** `uid(name)` or `val(name)` at `pos`, spaces allowed inside as Dgraph's lexer allows them. */
  private readFunction(): { isVal: boolean; name: string } {
    const text = this.text;
    const isVal = text.charCodeAt(this.pos) === LOWER_V;
    const keyword = isVal ? "val" : "uid";
    for (let k = 0; k < 3; k++) {
      if (text.charCodeAt(this.pos) !== keyword.charCodeAt(k) || this.pos >= this.end) {
        throw this.lexError(`Unexpected char '${this.charAt(this.pos)}' when parsing uid keyword`);
      }
      this.pos++;
    }
    this.skipSpaces();
    if (this.peek() !== LPAREN)
      throw this.lexError(`Expected '(' after uid keyword, found: '${this.charAt(this.pos)}'`);
    this.pos++;
    this.skipSpaces();
    const start = this.pos;
    let c = this.peek();
    while (c >= 0 && c !== SPACE && c !== TAB && c !== RPAREN) {
      this.pos++;
      c = this.peek();
    }
    if (this.pos === start) throw this.lexError("Unexpected end of input while reading variable name");
    const name = text.slice(start, this.pos);
    this.skipSpaces();
    if (this.peek() !== RPAREN) {
      throw this.lexError(`Expected ')' while reading function found: '${this.charAt(this.pos)}'`);
    }
    this.pos++;
    return { isVal, name };
  }

  /** `"..."` with an optional `@lang` or `^^<type>` at `pos`. */
  private readLiteral(starTerm: boolean, predicateLang: string | undefined): EdgeObject {
    const text = this.text;
    const start = ++this.pos;
    let escaped = false;
    let closed = false;
    while (this.pos < this.end) {
      const c = text.charCodeAt(this.pos);
      if (c === QUOTE) {
        closed = true;
        break;
      }
      if (c === BACKSLASH) {
        escaped = true;
        this.pos = this.escapeEnd(this.pos);
        continue;
      }
      if (c === 13) throw this.lexError(`Invalid character '\r' in literal.`);
      this.pos++;
    }
    if (!closed) throw new DgraphError("while unquoting: invalid syntax");
    let value: string | null = text.slice(start, this.pos);
    this.pos++;
    if (escaped) {
      value = goUnquoteBody(value);
      if (value === null) throw new DgraphError("while unquoting: invalid syntax");
    }

    const next = this.peek();
    if (next === AT) {
      const lang = this.readLang();
      if (value === "*") return STAR_OBJECT;
      return { kind: "literal", type: "default", value, lang };
    }
    if (next === CARET) {
      if (text.charCodeAt(this.pos + 1) !== CARET) {
        this.pos++;
        throw this.lexError("Expected ^^ for lexObjectType");
      }
      this.pos += 2;
      if (this.peek() !== LT) throw this.lexError("Expected < for lexObjectType");
      const typeIri = this.readIri();
      if (starTerm) throw new DgraphError("if predicate/subject is *, value should be * as well");
      return typedLiteral(value, typeIri, predicateLang);
    }
    if (value === "*") return STAR_OBJECT;
    if (predicateLang !== undefined) return { kind: "literal", type: "default", value, lang: predicateLang };
    return { kind: "literal", type: "default", value };
  }

  /** Index after the escape sequence starting at `at` (a backslash); the lexer's accepted escapes only. */
  private escapeEnd(at: number): number {
    const c = this.text.charCodeAt(at + 1);
    switch (c) {
      case LOWER_V:
      case 116:
      case 98:
      case 110:
      case 114:
      case 102:
      case QUOTE:
      case 39:
      case BACKSLASH:
        return at + 2;
      case LOWER_U:
      case 85:
      case 120: {
        const n = c === LOWER_U ? 4 : c === 85 ? 8 : 2;
        if (isHexRun(this.text, at + 2, n, this.end)) return at + 2 + n;
        break;
      }
    }
    this.pos = at + 1;
    throw this.lexError(`Invalid escape character : '${this.charAt(at + 1)}' in literal`);
  }

  /** `@lang` at `pos`: a letter, then letters, digits and `-`, not ending in `-`. */
  private readLang(): string {
    const text = this.text;
    const start = ++this.pos;
    const first = this.peek();
    if (!isAsciiLetter(first)) throw this.lexError(`Invalid language tag prefix: '${this.charAt(this.pos)}'`);
    let last = first;
    let c = first;
    while (isAsciiLetter(c) || (c >= 48 && c <= 57) || c === DASH) {
      last = c;
      this.pos++;
      c = this.peek();
    }
    if (last === DASH) throw this.lexError("Invalid character - at the end of language literal.");
    return text.slice(start, this.pos);
  }

  /** A graph label after the object: Dgraph reads it as a namespace id, which must be a uint64. */
  private readLabel(): void {
    const text = this.peek() === LT ? this.readIri() : `_:${this.readBlank(ITEM_LABEL)}`;
    if (typeof goParseUint(text.replace(/^ +| +$/g, "")) !== "bigint")
      throw this.inputError("invalid namespace ID.");
  }

  /** `(key=value, ...)` at `pos`, appended to `facets`. */
  private readFacets(facets: Facet[]): void {
    this.pos++;
    for (;;) {
      const keyToken = this.facetToken();
      if (keyToken.kind !== "text") throw facetError(`expected key but found ${keyToken.text}`);
      const key = trimGoSpace(keyToken.text);
      if (key.length === 0) throw facetError("empty facetKeys not allowed");
      const eq = this.facetToken();
      if (eq.kind !== "eq") throw facetError(`expected = after facetKey. Found ${eq.text}`);
      let valueToken = this.facetToken();
      let raw = "";
      if (valueToken.kind === "text") {
        raw = valueToken.text;
        valueToken = this.facetToken();
        if (valueToken.kind !== "comma" && valueToken.kind !== "rparen") {
          throw facetError(`expected , or ) after facet. Received ${valueToken.text}`);
        }
      }
      try {
        facets.push(rdfFacet(key, raw));
      } catch (e) {
        throw e instanceof DgraphError ? facetError(e.message) : e;
      }
      if (valueToken.kind === "rparen") return;
      if (valueToken.kind !== "comma")
        throw facetError(`expected , or ) or text but found ${valueToken.text}`);
    }
  }

  private facetToken(): { kind: "text" | "eq" | "comma" | "rparen" | "eof"; text: string } {
    this.skipSpaces();
    const c = this.peek();
    if (c < 0) return { kind: "eof", text: "" };
    if (c === EQUAL || c === COMMA || c === RPAREN) {
      this.pos++;
      return { kind: c === EQUAL ? "eq" : c === COMMA ? "comma" : "rparen", text: String.fromCharCode(c) };
    }
    const text = this.text;
    const start = this.pos;
    if (c === QUOTE) {
      this.pos++;
      for (;;) {
        if (this.pos >= this.end) throw this.lexError("Unexpected end of input.");
        const q = text.charCodeAt(this.pos);
        if (q === QUOTE) break;
        if (q === BACKSLASH) {
          if (!isFacetEscape(text.charCodeAt(this.pos + 1)) || this.pos + 1 >= this.end) {
            this.pos++;
            throw this.lexError(`Not a valid escape char: '${this.charAt(this.pos)}'`);
          }
          this.pos += 2;
          continue;
        }
        this.pos++;
      }
      this.pos++;
      return { kind: "text", text: text.slice(start, this.pos) };
    }
    let t = c;
    while (t >= 0 && t !== EQUAL && t !== SPACE && t !== TAB && t !== RPAREN && t !== COMMA) {
      this.pos++;
      t = this.peek();
    }
    return { kind: "text", text: text.slice(start, this.pos) };
  }
}

/** ECHAR ::= '\\' [vtbnrf"'\\] (the only escapes Dgraph's lexer allows in quoted facet values). */
function isFacetEscape(c: number): boolean {
  return (
    c === LOWER_V ||
    c === 116 ||
    c === 98 ||
    c === 110 ||
    c === 114 ||
    c === 102 ||
    c === QUOTE ||
    c === 39 ||
    c === BACKSLASH
  );
}

function facetError(message: string): DgraphError {
  return new DgraphError(`could not parse facet: ${message}`);
}

function isHexRun(s: string, at: number, n: number, end: number): boolean {
  if (at + n > end) return false;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** N-Quads PN_CHARS_BASE. */
function isPnCharsBase(r: number): boolean {
  if (r < 0x80) return isAsciiLetter(r);
  return (
    (r >= 0xc0 && r <= 0xd6) ||
    (r >= 0xd8 && r <= 0xf6) ||
    (r >= 0xf8 && r <= 0x2ff) ||
    (r >= 0x370 && r <= 0x37d) ||
    (r >= 0x37f && r <= 0x1fff) ||
    (r >= 0x200c && r <= 0x200d) ||
    (r >= 0x2070 && r <= 0x218f) ||
    (r >= 0x2c00 && r <= 0x2fef) ||
    (r >= 0x3001 && r <= 0xd7ff) ||
    (r >= 0xf900 && r <= 0xfdcf) ||
    (r >= 0xfdf0 && r <= 0xfffd) ||
    (r >= 0x10000 && r <= 0xeffff)
  );
}

/** PN_CHARS_U ::= PN_CHARS_BASE | '_' | ':' */
function isPnCharsU(r: number): boolean {
  return r === UNDERSCORE || r === COLON || isPnCharsBase(r);
}

/** PN_CHARS ::= PN_CHARS_U | '-' | [0-9] | #x00B7 | [#x0300-#x036F] | [#x203F-#x2040] */
function isPnChar(r: number): boolean {
  return (
    r === DASH ||
    (r >= 48 && r <= 57) ||
    r === 0xb7 ||
    (r >= 0x300 && r <= 0x36f) ||
    (r >= 0x203f && r <= 0x2040) ||
    isPnCharsU(r)
  );
}

const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

/** Dgraph's `sane`: at least one letter or digit. */
function hasAlnum(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 48 && c <= 57) || isAsciiLetter(c)) return true;
    if (c >= 0x80) return LETTER_OR_DIGIT.test(s.slice(i));
  }
  return false;
}

/** Go's `%q` of one rune. */
function goRune(ch: string): string {
  if (ch === "'") return "'\\''";
  const quoted = JSON.stringify(ch);
  return `'${quoted.slice(1, -1).replaceAll('\\"', '"')}'`;
}
