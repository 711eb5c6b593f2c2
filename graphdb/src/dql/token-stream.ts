/**
 * A cursor over lexed tokens with Dgraph's iterator semantics (`next`, `peek`, `prev`, save/restore) and
 * its two error positions: at a given token (`item.Errorf`) or at the next one (`it.Errorf`).
 */
import type { SourceLocation } from "./ast.ts";
import { DqlSyntaxError, syntaxErrorAt } from "./errors.ts";
import type { Token, TokenKind } from "./lexer.ts";

/** Dgraph's numeric item types, used in messages that print a token (`lex.Item [9] "name" at 1:4`). */
const DGRAPH_ITEM_TYPE: Record<TokenKind, number> = {
  EOF: 0,
  LeftCurl: 6,
  RightCurl: 7,
  Equal: 8,
  Name: 9,
  OpType: 10,
  LeftRound: 11,
  RightRound: 12,
  Colon: 13,
  At: 14,
  Period: 15,
  Dollar: 16,
  Regex: 17,
  LeftSquare: 23,
  RightSquare: 24,
  Comma: 25,
  MathOp: 26,
  Star: 27,
};

/** How Dgraph prints a lexer item with `%v`. */
export function describeToken(token: Token): string {
  if (token.kind === "EOF") return "EOF";
  return `lex.Item [${DGRAPH_ITEM_TYPE[token.kind]}] ${JSON.stringify(token.value)} at ${token.line}:${token.column}`;
}

export function locationOf(token: Token): SourceLocation {
  return { line: token.line, column: token.column };
}

export class TokenStream {
  private idx = -1;
  private readonly last: number;

  constructor(private readonly tokens: Token[]) {
    this.last = tokens.length - 1;
  }

  /** Advances; false once past the last token (the current item is then the final EOF token). */
  next(): boolean {
    if (this.idx < this.last + 1) this.idx++;
    return this.idx <= this.last;
  }

  /** The current token (the final EOF token when out of range). */
  get item(): Token {
    const i = this.idx;
    if (i < 0) return this.tokens[0];
    return i > this.last ? this.tokens[this.last] : this.tokens[i];
  }

  /** The token n places ahead (n < 0: behind), or undefined out of range. */
  peek(n = 1): Token | undefined {
    const i = this.idx + n;
    return i >= 0 && i <= this.last ? this.tokens[i] : undefined;
  }

  /** True when the next token has this kind. */
  peekIs(kind: TokenKind): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === kind;
  }

  prev(): void {
    if (this.idx > 0) this.idx--;
  }

  save(): number {
    return this.idx;
  }

  restore(position: number): void {
    this.idx = position;
  }

  /** Consumes the next token when it has this kind. */
  tryConsume(kind: TokenKind): Token | undefined {
    const t = this.peek();
    if (t === undefined || t.kind !== kind) return undefined;
    this.idx++;
    return t;
  }

  /** `line L column C: text` at a token. */
  errorAt(token: Token, text: string): DqlSyntaxError {
    return syntaxErrorAt(locationOf(token), text);
  }

  /** `line L column C: text` at the next token (Dgraph's `it.Errorf`), or the end of input. */
  errorNext(text: string): DqlSyntaxError {
    return syntaxErrorAt(locationOf(this.peek() ?? this.tokens[this.last]), text);
  }

  /**
   * Joins `a-b-c` back into one name: the lexer splits at `-`, Dgraph's `collectName` re-assembles
   * names and dashes that follow the current token.
   */
  collectName(value: string): string {
    let out = value;
    let expectName = false;
    for (;;) {
      const t = this.peek();
      if (t === undefined) return out;
      if (expectName ? t.kind === "Name" : t.kind === "MathOp" && t.value === "-") {
        this.idx++;
        out += t.value;
        expectName = !expectName;
      } else {
        return out;
      }
    }
  }
}

/** An error without a position (Dgraph's plain `errors.Errorf`). */
export function plainError(text: string): DqlSyntaxError {
  return new DqlSyntaxError(text);
}
