import { DgraphError } from "../core/errors.ts";
import { atLineColumn, whileLexing } from "../lex/lex-position.ts";
import type { SourceLocation } from "./ast.ts";

/**
 * A DQL query that cannot be parsed or fails a static check. The message follows Dgraph's texts:
 * `line L column C: <text>` for errors tied to a token, `while lexing <input> at line L column C: <text>`
 * for lexer errors, and the bare text for the checks Dgraph reports without a position (variables,
 * duplicate aliases...).
 */
export class DqlSyntaxError extends DgraphError {
  /** Where the error was detected, when it is tied to a position. */
  readonly locations: SourceLocation[];

  constructor(message: string, location?: SourceLocation) {
    super(message, "ErrorInvalidRequest");
    this.name = "DqlSyntaxError";
    this.locations = location === undefined ? [] : [location];
  }
}

/** `line L column C: text`. */
export function syntaxErrorAt(location: SourceLocation, text: string): DqlSyntaxError {
  return new DqlSyntaxError(atLineColumn(location.line, location.column, text), location);
}

/** `while lexing <input> at line L column C: text` (the whole input is quoted, as Dgraph does). */
export function lexErrorAt(input: string, location: SourceLocation, text: string): DqlSyntaxError {
  return new DqlSyntaxError(whileLexing(input, location.line, location.column, text), location);
}
