/**
 * The DQL lexer. Like Dgraph's (`dql/state.go`) it is modal: what a character means depends on whether
 * it is at the top level, inside a selection set, inside `( ... )` arguments, or inside a schema block.
 * The whole input is lexed before parsing so that lexer errors win over parse errors, as in Dgraph.
 *
 * Single pass, no regular expressions, no backtracking: linear in the input length.
 */
import { isAscii, isAsciiLetter, isDigit, isEndOfLine, isHexDigit, isSpace } from "../lex/characters.ts";
import { describeRune, goQuoteRune } from "../lex/go-runes.ts";
import { scanIriBody } from "../lex/iri.ts";
import { ByteColumns } from "../lex/lex-position.ts";
import { lexErrorAt } from "./errors.ts";

export type TokenKind =
  | "Name"
  | "OpType"
  | "LeftCurl"
  | "RightCurl"
  | "LeftRound"
  | "RightRound"
  | "LeftSquare"
  | "RightSquare"
  | "Colon"
  | "Comma"
  | "At"
  | "Period"
  | "Dollar"
  | "Regex"
  | "MathOp"
  | "Equal"
  | "Star"
  | "EOF";

/**
 * One lexeme. `value` is the source text, except for IRIs (`<name>` → `name`, `~<name>` → `~name`).
 * Quoted strings keep their quotes (see `isQuoted` / `unquote`).
 */
export interface Token {
  readonly kind: TokenKind;
  readonly value: string;
  /** Line (from 1) and column (0-based UTF-8 byte offset in the line) of the first character, as Dgraph. */
  readonly line: number;
  readonly column: number;
  /** Offsets of the lexeme in the input (end exclusive). */
  readonly start: number;
  readonly end: number;
}

enum Mode {
  Top,
  Query,
  Args,
  Schema,
}

const CH_TAB = 9;
const CH_LF = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_QUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_PERCENT = 37;
const CH_LROUND = 40;
const CH_RROUND = 41;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_PERIOD = 46;
const CH_SLASH = 47;
const CH_COLON = 58;
const CH_LT = 60;
const CH_EQUAL = 61;
const CH_GT = 62;
const CH_AT = 64;
const CH_LSQUARE = 91;
const CH_BACKSLASH = 92;
const CH_RSQUARE = 93;
const CH_LCURL = 123;
const CH_RCURL = 125;
const CH_BANG = 33;
const CH_TILDE = 126;
const CH_UNDERSCORE = 95;

function isNameBegin(c: number): boolean {
  return isAsciiLetter(c) || c === CH_UNDERSCORE || c === CH_TILDE;
}

/** Letters, digits, `_`, `~` and `.` (Freebase-style names such as `film.film.name`). */
function isNameSuffix(c: number): boolean {
  return isNameBegin(c) || isDigit(c) || c === CH_PERIOD;
}

function isLangOrDirective(c: number): boolean {
  return isNameBegin(c) || isDigit(c) || c === CH_MINUS || c === CH_STAR;
}

function isInequalityOp(c: number): boolean {
  return c === CH_LT || c === CH_GT || c === CH_EQUAL || c === CH_BANG;
}

/** True for a Name token that came from a quoted string. */
export function isQuoted(token: Token): boolean {
  return token.kind === "Name" && token.value.charCodeAt(0) === CH_QUOTE;
}

/**
 * Resolves a quoted string's escapes (`\" \\ \/ \n \t \r \b \f \v \'`, `\uXXXX`, `\UXXXXXXXX`); text that
 * is not quoted is returned unchanged. The lexer has already validated the escapes.
 */
export function unquote(text: string): string {
  if (text.length < 2 || text.charCodeAt(0) !== CH_QUOTE || text.charCodeAt(text.length - 1) !== CH_QUOTE) {
    return text;
  }
  const body = text.slice(1, -1);
  if (body.indexOf("\\") < 0) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const e = body[++i];
    switch (e) {
      case "n":
        out += "\n";
        break;
      case "t":
        out += "\t";
        break;
      case "r":
        out += "\r";
        break;
      case "b":
        out += "\b";
        break;
      case "f":
        out += "\f";
        break;
      case "v":
        out += "\v";
        break;
      case "u":
      case "U": {
        const n = e === "u" ? 4 : 8;
        const cp = Number.parseInt(body.slice(i + 1, i + 1 + n), 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
        i += n;
        break;
      }
      default:
        out += e;
    }
  }
  return out;
}

class Lexer {
  private readonly tokens: Token[] = [];
  private pos = 0;
  private start = 0;
  private line = 1;
  private lineStart = 0;
  private readonly byteColumns: ByteColumns;
  private startLine = 1;
  private startColumn = 1;
  private depth = 0;
  private argDepth = 0;
  private mode: Mode = Mode.Top;
  /** Args mode: a comma was just seen (Dgraph's `empty`); reset by any value-like token. */
  private argEmpty = false;
  /** No character above U+007F: byte offsets equal string offsets. */
  private readonly ascii: boolean;

  constructor(
    private readonly input: string,
    /** Condition mode: starts inside a selection and accepts the end of input there. */
    private readonly condition = false,
  ) {
    this.ascii = isAscii(input);
    this.byteColumns = new ByteColumns(input);
    if (condition) {
      this.mode = Mode.Query;
      this.depth = 1;
    }
  }

  run(): Token[] {
    const s = this.input;
    const n = s.length;
    for (;;) {
      // Whitespace means the same in every mode: skip it in a tight loop.
      while (this.pos < n) {
        const c = s.charCodeAt(this.pos);
        if (c === CH_SPACE || c === CH_TAB) this.pos++;
        else if (c === CH_LF || c === CH_CR) this.skipWhitespace(c);
        else break;
      }
      this.markStart();
      if (this.pos >= n) {
        this.onEof();
        return this.tokens;
      }
      switch (this.mode) {
        case Mode.Top:
          this.stepTop();
          break;
        case Mode.Query:
          this.stepQuery();
          break;
        case Mode.Args:
          this.stepArgs();
          break;
        case Mode.Schema:
          this.stepSchema();
          break;
      }
    }
  }

  /**
   * Positions follow Dgraph's lexer: lines count from 1 and every `\n` or `\r` starts a new line;
   * the column is the 0-based UTF-8 byte offset within the line.
   */
  private markStart(): void {
    this.start = this.pos;
    this.startLine = this.line;
    this.startColumn = this.ascii ? this.pos - this.lineStart : this.byteColumns.at(this.lineStart, this.pos);
  }

  private error(text: string): never {
    throw lexErrorAt(this.input, { line: this.startLine, column: this.startColumn }, text);
  }

  private emit(kind: TokenKind, value: string = this.input.slice(this.start, this.pos)): void {
    this.tokens.push({
      kind,
      value,
      line: this.startLine,
      column: this.startColumn,
      start: this.start,
      end: this.pos,
    });
  }

  /** Skips one whitespace or end-of-line character, keeping line/column bookkeeping. */
  private skipWhitespace(c: number): void {
    this.pos++;
    if (c === CH_LF || c === CH_CR) {
      this.line++;
      this.lineStart = this.pos;
    }
  }

  /** Advances over [from, pos) counting line breaks (for strings and regexes spanning lines). */
  private countLines(from: number): void {
    const s = this.input;
    for (let i = from; i < this.pos; i++) {
      const c = s.charCodeAt(i);
      if (c === CH_LF || c === CH_CR) {
        this.line++;
        this.lineStart = i + 1;
      }
    }
  }

  private skipComment(): void {
    const s = this.input;
    while (this.pos < s.length && !isEndOfLine(s.charCodeAt(this.pos))) this.pos++;
  }

  private acceptNameSuffix(): void {
    const s = this.input;
    while (this.pos < s.length && isNameSuffix(s.charCodeAt(this.pos))) this.pos++;
  }

  /** `{` (consumed): one level deeper. */
  private openCurl(): void {
    this.depth++;
    this.emit("LeftCurl");
  }

  /** `}` (consumed): one level up; the outermost one returns to the top level. */
  private closeCurl(): void {
    this.depth--;
    this.emit("RightCurl");
    if (this.depth <= 0) {
      this.depth = 0;
      this.mode = Mode.Top;
    }
  }

  /** `(` (consumed): arguments one level deeper, lexed in `mode` from here. */
  private openRound(mode: Mode): void {
    this.emit("LeftRound");
    this.argDepth++;
    this.mode = mode;
  }

  private onEof(): void {
    switch (this.mode) {
      case Mode.Top:
        this.emit("EOF", "");
        return;
      case Mode.Query:
        if (this.condition) {
          this.emit("EOF", "");
          return;
        }
        this.error("Unclosed action");
        break;
      case Mode.Args:
        this.error("Unclosed Brackets");
        break;
      case Mode.Schema:
        this.error("Unclosed schema action");
        break;
    }
  }

  private stepTop(): void {
    const s = this.input;
    const c = s.charCodeAt(this.pos);
    if (isSpace(c) || isEndOfLine(c)) {
      this.skipWhitespace(c);
      return;
    }
    switch (c) {
      case CH_LCURL:
        this.pos++;
        this.openCurl();
        this.identifyBlock();
        return;
      case CH_RCURL:
        this.error("Too many right curl");
        break;
      case CH_HASH:
        this.skipComment();
        return;
      case CH_LROUND:
        this.pos++;
        this.openRound(Mode.Query);
        return;
    }
    if (isNameBegin(c)) {
      this.acceptNameSuffix();
      const word = s.slice(this.start, this.pos);
      switch (word) {
        case "query":
        case "fragment":
        case "mutation":
          this.emit("OpType");
          this.mode = Mode.Query;
          return;
        case "schema":
          this.emit("OpType");
          this.mode = Mode.Schema;
          return;
        default:
          this.error(`Invalid operation type: ${word}`);
      }
    }
    // Dgraph silently skips any other character at the top level.
    this.pos++;
  }

  /** After a top-level `{`: the first name decides between a query block and (old) mutation syntax. */
  private identifyBlock(): void {
    const s = this.input;
    for (;;) {
      this.markStart();
      if (this.pos >= s.length) this.error("Invalid DQL");
      const c = s.charCodeAt(this.pos);
      if (isSpace(c) || isEndOfLine(c)) {
        this.skipWhitespace(c);
        continue;
      }
      if (c === CH_HASH) {
        this.skipComment();
        continue;
      }
      if (isNameBegin(c)) {
        this.pos++;
        this.acceptNameSuffix();
        this.emit("Name");
        this.mode = Mode.Query;
        return;
      }
      if (c === CH_LT) {
        this.pos++;
        this.lexIri();
        this.mode = Mode.Query;
        return;
      }
      this.error(`Unexpected character while lexing DQL: ${describeRune(s, this.pos)}`);
    }
  }

  private stepQuery(): void {
    const s = this.input;
    const c = s.charCodeAt(this.pos);
    if (isSpace(c) || isEndOfLine(c)) {
      this.skipWhitespace(c);
      return;
    }
    if (isNameBegin(c)) {
      this.pos++;
      this.acceptNameSuffix();
      this.emitName();
      return;
    }
    this.pos++;
    switch (c) {
      case CH_PERIOD:
        this.emit("Period");
        return;
      case CH_RCURL:
        this.closeCurl();
        return;
      case CH_LCURL:
        this.openCurl();
        return;
      case CH_COMMA:
        this.emit("Comma");
        return;
      case CH_HASH:
        this.skipComment();
        return;
      case CH_MINUS:
        this.emit("MathOp");
        return;
      case CH_LROUND:
        this.openRound(Mode.Args);
        this.argEmpty = false;
        return;
      case CH_COLON:
        this.emit("Colon");
        return;
      case CH_AT:
        this.emit("At");
        this.lexDirectiveOrLang();
        return;
      case CH_LT:
        this.lexIri();
        return;
      case CH_STAR:
        this.emit("Star");
        return;
    }
    this.pos--;
    this.error(`Unrecognized character in lexText: ${describeRune(s, this.pos)}`);
  }

  private stepArgs(): void {
    const s = this.input;
    const c = s.charCodeAt(this.pos);
    if (isSpace(c) || isEndOfLine(c)) {
      this.skipWhitespace(c);
      return;
    }
    if (isNameBegin(c) || isDigit(c)) {
      this.pos++;
      this.acceptNameSuffix();
      this.emitName();
      this.argEmpty = false;
      return;
    }
    this.pos++;
    switch (c) {
      case CH_AT:
        this.emit("At");
        this.lexDirectiveOrLang();
        this.argEmpty = false;
        return;
      case CH_SLASH:
        if (this.argEmpty) {
          this.lexRegex();
          this.argEmpty = false;
          return;
        }
        this.emit("MathOp");
        return;
      case CH_PLUS:
      case CH_MINUS:
      case CH_STAR:
      case CH_PERCENT:
        this.emit("MathOp");
        return;
      case CH_LT:
      case CH_GT:
      case CH_EQUAL:
      case CH_BANG: {
        const next = s.charCodeAt(this.pos);
        if (c === CH_EQUAL && !isInequalityOp(next)) {
          this.emit("Equal");
          return;
        }
        if (c === CH_LT && !isSpace(next) && next !== CH_EQUAL) {
          this.lexIri();
          this.argEmpty = false;
          return;
        }
        if (isInequalityOp(next)) this.pos++;
        this.emit("MathOp");
        return;
      }
      case CH_LROUND:
        this.openRound(Mode.Args);
        return;
      case CH_RROUND:
        this.argDepth--;
        this.emit("RightRound");
        if (this.argEmpty) this.error("Empty Argument");
        if (this.argDepth <= 0) {
          this.argDepth = 0;
          this.mode = Mode.Query;
        }
        return;
      case CH_COMMA:
        if (this.argEmpty) this.error("Consecutive commas not allowed.");
        this.argEmpty = true;
        this.emit("Comma");
        return;
      case CH_DOLLAR:
        this.emit("Dollar");
        return;
      case CH_COLON:
        this.emit("Colon");
        return;
      case CH_QUOTE:
        this.lexQuotedString();
        this.argEmpty = false;
        return;
      case CH_LSQUARE:
        this.emit("LeftSquare");
        return;
      case CH_RSQUARE:
        this.emit("RightSquare");
        return;
      case CH_LCURL:
        this.argEmpty = false;
        this.emit("LeftCurl");
        return;
      case CH_RCURL:
        this.emit("RightCurl");
        return;
      case CH_HASH:
        this.skipComment();
        this.argEmpty = false;
        return;
      case CH_PERIOD:
        this.emit("Period");
        return;
    }
    this.pos--;
    this.error(`Unrecognized character inside a func: ${describeRune(s, this.pos)}`);
  }

  private stepSchema(): void {
    const s = this.input;
    const c = s.charCodeAt(this.pos);
    if (isSpace(c) || isEndOfLine(c)) {
      this.skipWhitespace(c);
      return;
    }
    if (isNameBegin(c)) {
      this.pos++;
      this.acceptNameSuffix();
      this.emit("Name");
      return;
    }
    this.pos++;
    switch (c) {
      case CH_RROUND:
        this.emit("RightRound");
        return;
      case CH_LROUND:
        this.emit("LeftRound");
        return;
      case CH_RCURL:
        this.closeCurl();
        return;
      case CH_LCURL:
        this.openCurl();
        return;
      case CH_LSQUARE:
        this.emit("LeftSquare");
        return;
      case CH_RSQUARE:
        this.emit("RightSquare");
        return;
      case CH_LT:
        this.lexIri();
        return;
      case CH_HASH:
        this.skipComment();
        return;
      case CH_COLON:
        this.emit("Colon");
        return;
      case CH_COMMA:
        this.emit("Comma");
        return;
    }
    this.pos--;
    this.error(`Unrecognized character inside schema: ${describeRune(s, this.pos)}`);
  }

  /** After `@`: a directive name or a language list element (`en`, `.`, `*`, `en-US`). */
  private lexDirectiveOrLang(): void {
    const s = this.input;
    this.markStart();
    const c = s.charCodeAt(this.pos);
    if (!(isNameBegin(c) || c === CH_PERIOD || c === CH_STAR)) {
      if (this.pos >= s.length) this.error("Unrecognized character in lexDirective: U+FFFFFFFF");
      this.error(`Unrecognized character in lexDirective: ${describeRune(s, this.pos)}`);
    }
    for (;;) {
      const r = s.charCodeAt(this.pos);
      if (r === CH_PERIOD) {
        this.pos++;
        this.emit("Name");
        return;
      }
      if (this.pos < s.length && isLangOrDirective(r)) {
        this.pos++;
        continue;
      }
      this.emit("Name");
      return;
    }
  }

  /**
   * Emits the name just scanned. A lone `~` right before `<` names a reverse edge by IRI (`~<director.film>`,
   * `~</film/film/starring>`): emitted as one name, `~` and the IRI's content, as `~director.film` is.
   */
  private emitName(): void {
    const s = this.input;
    if (
      this.pos - this.start !== 1 ||
      s.charCodeAt(this.start) !== CH_TILDE ||
      s.charCodeAt(this.pos) !== CH_LT
    ) {
      this.emit("Name");
      return;
    }
    const { start, startLine: line, startColumn: column } = this;
    const at = this.tokens.length;
    this.pos++;
    this.lexIri();
    const iri = this.tokens[at];
    this.tokens[at] = { ...iri, value: `~${iri.value}`, start, line, column };
  }

  /** `<iri>` (the `<` is consumed): emits the name without brackets. */
  private lexIri(): void {
    const s = this.input;
    this.markStart();
    this.pos = scanIriBody(s, this.pos);
    this.emit("Name");
    this.markStart();
    if (this.pos >= s.length) this.error("Unexpected end of IRI");
    if (s.charCodeAt(this.pos) !== CH_GT) {
      this.error(`Unexpected character ${goQuoteRune(s, this.pos)} while parsing IRI`);
    }
    this.pos++;
  }

  /** A `"..."` string (the opening quote is consumed); emitted as a Name keeping its quotes. */
  private lexQuotedString(): void {
    const s = this.input;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos++);
      if (c === CH_BACKSLASH) {
        const e = s.charCodeAt(this.pos);
        switch (e) {
          case 118: // v
          case 116: // t
          case 98: // b
          case 110: // n
          case 114: // r
          case 102: // f
          case CH_QUOTE:
          case 39: // '
          case CH_BACKSLASH:
          case CH_SLASH:
            this.pos++;
            continue;
          case 117: // u
          case 85: {
            // U
            const n = e === 117 ? 4 : 8;
            for (let i = 1; i <= n; i++) {
              if (!isHexDigit(s.charCodeAt(this.pos + i))) {
                this.error(`Not a valid escape char: '${String.fromCharCode(e)}'`);
              }
            }
            this.pos += n + 1;
            continue;
          }
          default:
            if (this.pos >= s.length) this.error("Unexpected end of input.");
            this.error(`Not a valid escape char: '${String.fromCodePoint(s.codePointAt(this.pos) ?? 0)}'`);
        }
      }
      if (c === CH_QUOTE) {
        this.emit("Name");
        this.countLines(this.start);
        return;
      }
    }
    this.error("Unexpected end of input.");
  }

  /** `/pattern/flags` (the opening slash is consumed). */
  private lexRegex(): void {
    const s = this.input;
    for (;;) {
      if (this.pos >= s.length) this.error("Unclosed regexp");
      const c = s.charCodeAt(this.pos++);
      if (c === CH_BACKSLASH) {
        this.pos++;
        continue;
      }
      if (c === CH_SLASH) break;
    }
    while (this.pos < s.length) {
      const f = s.charCodeAt(this.pos);
      if (f < 97 || f > 122) break;
      this.pos++;
    }
    if (this.pos > s.length) this.pos = s.length;
    this.emit("Regex");
    this.countLines(this.start);
  }
}

/** Lexes a whole DQL request (queries, fragments, schema queries). Throws `DqlSyntaxError`. */
export function lexDql(input: string): Token[] {
  return new Lexer(input).run();
}

/** Lexes an upsert condition (`@if(...)` / `@filter(...)`) as a directive inside a selection set. */
export function lexCondition(input: string): Token[] {
  return new Lexer(input, true).run();
}
