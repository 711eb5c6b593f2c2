/**
 * The RDF body of /mutate (`Content-Type: application/rdf`), as Dgraph's `dql.ParseMutation` reads it:
 *
 *   { set { <nquads> } delete { <nquads> } }
 *   upsert { query { ... } mutation @if(...) { set { ... } } mutation { delete { ... } } fragment f { ... } }
 *
 * Only the block structure is parsed here; the N-Quad text of each `set`/`delete` is returned as written
 * (see `parseNQuads`), the upsert query text for the DQL parser, the `@if(...)` text for the condition.
 * Dgraph lexes the whole body before parsing it, so a lexer error anywhere wins over a parse error; this
 * scanner keeps the first parse error and reports it only if the rest of the body lexes.
 */
import { DgraphError } from "../core/errors.ts";

/** One `mutation { ... }` (or the single top-level block). Absent fields were not given. */
export interface MutationBlockOp {
  /** `@if(...)`, exactly as written. */
  cond?: string;
  setNquads?: string;
  delNquads?: string;
}

export interface MutationBlock {
  /** The upsert's query: the text after `query` (then `fragment ...` texts), for the DQL parser. */
  query?: string;
  mutations: MutationBlockOp[];
}

/** Parses an RDF mutation body; throws a DgraphError with Dgraph's text on bad structure. */
export function parseMutationBlock(text: string): MutationBlock {
  return new BlockScanner(text).parse();
}

const LBRACE = 123;
const RBRACE = 125;
const QUOTE = 34;
const BACKSLASH = 92;
const HASH = 35;
const AT = 64;

function isNameBegin(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 126;
}

function isNameSuffix(c: number): boolean {
  return isNameBegin(c) || (c >= 48 && c <= 57) || c === 46;
}

/** Go's `%#U`: `U+0041 'A'`. */
function goRuneU(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  const printable = cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0);
  return printable ? `${hex} '${String.fromCodePoint(cp)}'` : hex;
}

class BlockScanner {
  private pos = 0;
  /** First parse-level error; thrown at the end unless a lexer error comes first. */
  private deferred: DgraphError | null = null;

  constructor(private readonly text: string) {}

  parse(): MutationBlock {
    this.skipTrivia();
    const c = this.peek();
    let result: MutationBlock;
    if (c === LBRACE) {
      result = { mutations: [this.mutationBody()] };
    } else if (c >= 0 && isNameBegin(c)) {
      const word = this.name();
      if (word !== "upsert") throw this.lexError(`Invalid block: [${word}]`);
      result = this.upsert();
    } else if (c < 0) {
      throw this.parseError("Invalid mutation");
    } else {
      throw this.lexError(
        `Unexpected character while identifying mutation block: ${goRuneU(this.codePoint())}`,
      );
    }
    this.afterBlock();
    if (this.deferred !== null) throw this.deferred;
    return result;
  }

  private peek(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  private codePoint(): number {
    return this.text.codePointAt(this.pos) ?? 0;
  }

  /** Line and column as Dgraph's lexer counts them (`\r` and `\n` both end a line). */
  private position(at: number): string {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 10 || c === 13) {
        line++;
        lineStart = i + 1;
      }
    }
    return `line ${line} column ${at - lineStart}`;
  }

  private lexError(message: string): DgraphError {
    return new DgraphError(`while lexing ${this.text} at ${this.position(this.pos)}: ${message}`);
  }

  private parseError(message: string): DgraphError {
    return new DgraphError(`${this.position(this.pos)}: ${message}`);
  }

  private defer(message: string): void {
    if (this.deferred === null) this.deferred = this.parseError(message);
  }

  /** Spaces, tabs, line ends and `#` comments. */
  private skipTrivia(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else if (c === HASH) {
        while (this.pos < text.length && text.charCodeAt(this.pos) !== 10 && text.charCodeAt(this.pos) !== 13)
          this.pos++;
      } else return;
    }
  }

  private name(): string {
    const start = this.pos++;
    while (this.pos < this.text.length && isNameSuffix(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** `{ set {...} delete {...} }` at `pos`. */
  private mutationBody(): MutationBlockOp {
    this.pos++;
    const mu: MutationBlockOp = {};
    for (;;) {
      this.skipTrivia();
      const c = this.peek();
      if (c < 0) throw this.lexError("Unclosed mutation action");
      if (c === RBRACE) {
        this.pos++;
        return mu;
      }
      if (c === AT) {
        this.ifContent(); // Dgraph lexes a condition here but its parser ignores it.
        continue;
      }
      if (!isNameBegin(c)) {
        if (c === LBRACE) throw this.parseError("Invalid mutation.");
        throw this.lexError(`Unrecognized character inside mutation: ${goRuneU(this.codePoint())}`);
      }
      const opAt = this.pos;
      const op = this.name();
      this.skipTrivia();
      if (this.peek() !== LBRACE) throw this.parseError("Invalid mutation.");
      const content = this.mutationText();
      const here = this.pos;
      this.pos = opAt;
      switch (op) {
        case "set":
          mu.setNquads = content;
          break;
        case "delete":
          mu.delNquads = content;
          break;
        case "schema":
          this.defer("Altering schema not supported through http client.");
          break;
        case "dropall":
          this.defer("Dropall not supported through http client.");
          break;
        default:
          this.defer("Invalid mutation operation.");
      }
      this.pos = here;
    }
  }

  /** `{ <text> }` of a set/delete at `pos`: the text inside, quoted strings may hold braces. */
  private mutationText(): string {
    const text = this.text;
    const start = ++this.pos;
    for (;;) {
      const c = this.peek();
      if (c < 0) throw this.lexError("Unclosed mutation text");
      if (c === QUOTE) {
        this.pos++;
        for (;;) {
          const q = this.peek();
          if (q < 0) throw this.lexError("Unclosed mutation value");
          this.pos += q === BACKSLASH ? 2 : 1;
          if (q === QUOTE) break;
        }
        continue;
      }
      if (c === LBRACE) throw this.lexError("Invalid character '{' inside mutation text");
      if (c === RBRACE) {
        const content = text.slice(start, this.pos);
        this.pos++;
        return content;
      }
      this.pos++;
    }
  }

  /** `@if(...)` at `pos`, returned as written. */
  private ifContent(): string {
    const start = this.pos++;
    while (this.pos < this.text.length && isNameSuffix(this.text.charCodeAt(this.pos))) this.pos++;
    const word = this.text.slice(start, this.pos);
    if (word !== "@if") throw this.lexError(`Expected @if, found [${word}]`);
    this.balanced(40, 41);
    return this.text.slice(start, this.pos);
  }

  /** Dgraph's `lexContent`: everything up to the bracket that balances the first `open`. */
  private balanced(open: number, close: number): void {
    let depth = 0;
    for (;;) {
      const c = this.peek();
      if (c < 0) throw this.lexError("Matching brackets not found");
      this.pos++;
      if (c === QUOTE) this.quotedString();
      else if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth < 0) throw this.lexError(`Unopened ${String.fromCharCode(close)} found`);
        if (depth === 0) return;
      }
    }
  }

  /** The rest of a `"..."` after its opening quote (escapes `\[vtbnrf"'\]` only). */
  private quotedString(): void {
    for (;;) {
      const c = this.peek();
      if (c < 0) throw this.lexError("Unexpected end of input.");
      this.pos++;
      if (c === QUOTE) return;
      if (c === BACKSLASH) {
        const e = this.peek();
        if (
          !(
            e === 118 ||
            e === 116 ||
            e === 98 ||
            e === 110 ||
            e === 114 ||
            e === 102 ||
            e === QUOTE ||
            e === 39 ||
            e === BACKSLASH
          )
        ) {
          throw this.lexError(
            `Not a valid escape char: '${e < 0 ? "" : String.fromCodePoint(this.codePoint())}'`,
          );
        }
        this.pos++;
      }
    }
  }

  /** `upsert { query {...} mutation [@if(...)] {...} fragment f {...} }`, `pos` after `upsert`. */
  private upsert(): MutationBlock {
    this.skipTrivia();
    if (this.peek() !== LBRACE) {
      if (this.peek() < 0) throw this.lexError("Unclosed upsert block");
      throw this.parseError(`Expected { at the start of block. Got: [${this.tokenText()}]`);
    }
    this.pos++;
    let query = "";
    let queryFound = false;
    const mutations: MutationBlockOp[] = [];
    for (;;) {
      this.skipTrivia();
      const c = this.peek();
      if (c < 0) throw this.lexError("Unclosed upsert block");
      if (c === RBRACE) {
        if (mutations.length === 0) this.defer("Empty mutation block");
        else if (!queryFound) this.defer("Query op not found in upsert block");
        this.pos++;
        return queryFound ? { query, mutations } : { mutations };
      }
      if (c === LBRACE) throw this.parseError("Unexpected token in upsert block [{]");
      if (!isNameBegin(c)) {
        throw this.lexError(`Unrecognized character in upsert block: ${goRuneU(this.codePoint())}`);
      }
      const word = this.name();
      if (word === "query") {
        if (queryFound) this.defer("Multiple query ops inside upsert block");
        queryFound = true;
        const start = this.pos;
        this.balanced(LBRACE, RBRACE);
        query += this.text.slice(start, this.pos);
      } else if (word === "fragment") {
        const start = this.pos;
        this.balanced(LBRACE, RBRACE);
        query += `fragment${this.text.slice(start, this.pos)}`;
      } else if (word === "mutation") {
        this.skipTrivia();
        const cond = this.peek() === AT ? this.ifContent() : undefined;
        this.skipTrivia();
        if (this.peek() !== LBRACE) {
          if (this.peek() < 0) throw this.lexError("Unclosed mutation action");
          throw this.parseError(`Expected { at the start of block. Got: [${this.tokenText()}]`);
        }
        const mu = this.mutationBody();
        if (cond !== undefined) mu.cond = cond;
        mutations.push(mu);
      } else {
        throw this.lexError(`Invalid operation type: ${word}`);
      }
    }
  }

  /** Only comments and white space may follow the block. */
  private afterBlock(): void {
    this.skipTrivia();
    const c = this.peek();
    if (c < 0) return;
    if (c === RBRACE) throw this.lexError("Too many right curl");
    if (isNameBegin(c)) {
      const at = this.pos;
      const word = this.name();
      if (!["mutation", "fragment", "query", "schema", "upsert"].includes(word)) {
        this.pos = at;
        throw this.lexError(`Invalid operation type: ${word}`);
      }
      this.pos = at;
      throw this.parseError(`Unexpected ${word} after the end of the block`);
    }
    throw this.parseError(`Unexpected ${String.fromCodePoint(this.codePoint())} after the end of the block`);
  }

  /** The next token's text for messages: a name or one character. */
  private tokenText(): string {
    const c = this.peek();
    if (c < 0) return "";
    if (isNameBegin(c)) {
      const at = this.pos;
      const word = this.name();
      this.pos = at;
      return word;
    }
    return String.fromCodePoint(this.codePoint());
  }
}
