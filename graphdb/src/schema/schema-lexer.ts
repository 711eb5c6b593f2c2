import { DgraphError } from "../core/errors.ts";
import { isAsciiLetter, isDigit, isEndOfLine, utf8Width } from "../lex/characters.ts";
import { scanIriBody } from "../lex/iri.ts";
import { atLineColumn, whileLexing } from "../lex/lex-position.ts";
import { goQuote } from "../types/strconv.ts";

/**
 * Lexer of the DQL schema language (Dgraph `schema/state.go` on `lex.Lexer`). Positions follow Dgraph:
 * `line` counts from 1 and every `\n` or `\r` starts a new line; `column` is the 0-based byte offset of
 * the token's first byte within its line. An IRI `<http://x/y>` lexes as text without its brackets.
 */

/** Item kinds; the numbers are Dgraph's `lex.ItemType` values (they appear in some error texts). */
export const ItemKind = {
  eof: 0,
  text: 5,
  number: 6,
  leftCurl: 7,
  rightCurl: 8,
  colon: 9,
  leftRound: 10,
  rightRound: 11,
  at: 12,
  comma: 13,
  newLine: 14,
  dot: 15,
  leftSquare: 16,
  rightSquare: 17,
  exclamation: 18,
  quotedText: 19,
} as const;

export type ItemKind = (typeof ItemKind)[keyof typeof ItemKind];

export interface Item {
  kind: ItemKind;
  val: string;
  line: number;
  column: number;
}

/** `lex.Item.String()`: `lex.Item [5] "name" at 1:0`, or `EOF`. */
export function itemString(item: Item): string {
  if (item.kind === ItemKind.eof) return "EOF";
  return `lex.Item [${item.kind}] ${goQuote(item.val)} at ${item.line}:${item.column}`;
}

/** An error at an item: `line L column C: message`. */
export function itemError(item: Item, message: string): DgraphError {
  return new DgraphError(atLineColumn(item.line, item.column, message), "Error");
}

const SINGLE: Readonly<Record<string, ItemKind>> = {
  ".": ItemKind.dot,
  ",": ItemKind.comma,
  "{": ItemKind.leftCurl,
  "}": ItemKind.rightCurl,
  "(": ItemKind.leftRound,
  ")": ItemKind.rightRound,
  ":": ItemKind.colon,
  "@": ItemKind.at,
  "[": ItemKind.leftSquare,
  "]": ItemKind.rightSquare,
  "!": ItemKind.exclamation,
};

function isNameSuffix(c: number): boolean {
  return isAsciiLetter(c) || isDigit(c) || c === 0x5f || c === 0x2e || c === 0x2d; // _ . -
}

function isNumberChar(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46) || c === 0x78 || c === 0x58;
}

const ESCAPES = new Set(["v", "t", "b", "n", "r", "f", '"', "'", "\\"]);

/** Tokenises schema text; throws DgraphError (`while lexing <input> at line L column C: …`) on bad input. */
export function lexSchema(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0; // UTF-16 index
  let line = 1;
  let column = 0; // bytes since the last line break, at the current item's start

  const fail = (message: string): never => {
    throw new DgraphError(whileLexing(input, line, column, message), "Error");
  };
  /** Emits input[start, end) and moves the position counters past it. */
  const emit = (kind: ItemKind, start: number, end: number, val = input.slice(start, end)) => {
    items.push({ kind, val, line, column });
    advance(start, end);
  };
  const advance = (start: number, end: number) => {
    for (let i = start; i < end; ) {
      const cp = input.codePointAt(i)!;
      const w = cp > 0xffff ? 2 : 1;
      if (isEndOfLine(cp)) {
        line++;
        column = 0;
      } else {
        column += cp >= 0xd800 && cp <= 0xdfff ? 3 : utf8Width(cp);
      }
      i += w;
    }
  };

  while (pos < input.length) {
    const c = input.charCodeAt(pos);
    if (isAsciiLetter(c)) {
      let end = pos + 1;
      while (end < input.length && isNameSuffix(input.charCodeAt(end))) end++;
      emit(ItemKind.text, pos, end);
      pos = end;
      continue;
    }
    if (c === 0x20 || c === 0x09) {
      advance(pos, pos + 1);
      pos++;
      continue;
    }
    if (isEndOfLine(c)) {
      emit(ItemKind.newLine, pos, pos + 1);
      pos++;
      continue;
    }
    const ch = input[pos];
    const single = SINGLE[ch];
    if (single !== undefined && Object.hasOwn(SINGLE, ch)) {
      emit(single, pos, pos + 1);
      pos++;
      continue;
    }
    if (c === 0x23) {
      // # comment: up to the line break, which is emitted as a new line
      let end = pos + 1;
      while (end < input.length && !isEndOfLine(input.charCodeAt(end))) end++;
      advance(pos, end);
      pos = end;
      if (pos < input.length) {
        emit(ItemKind.newLine, pos, pos + 1);
        pos++;
      }
      continue;
    }
    if (c === 0x3c) {
      // <IRI>: emitted without the brackets
      advance(pos, pos + 1);
      const end = scanIriBody(input, pos + 1);
      emit(ItemKind.text, pos + 1, end);
      pos = end;
      if (pos >= input.length) fail("Invalid schema. Unexpected end of input while parsing IRI");
      if (input.charCodeAt(pos) !== 0x3e) {
        const bad = String.fromCodePoint(input.codePointAt(pos)!);
        fail(`Invalid schema. Unexpected character '${bad}' while parsing IRI`);
      }
      advance(pos, pos + 1);
      pos++;
      continue;
    }
    if (c === 0x22) {
      // "quoted text" (index options), kept with its quotes
      let end = pos + 1;
      for (;;) {
        if (end >= input.length) fail("Unexpected end of input.");
        const d = input[end];
        if (d === "\\") {
          const e = input[end + 1];
          if (e === undefined) fail("Unexpected end of input.");
          if (!ESCAPES.has(e)) fail(`Not a valid escape char: '${e}'`);
          end += 2;
          continue;
        }
        end++;
        if (d === '"') break;
      }
      emit(ItemKind.quotedText, pos, end);
      pos = end;
      continue;
    }
    if (isDigit(c)) {
      let end = pos + 1;
      while (end < input.length && isNumberChar(input.charCodeAt(end))) end++;
      emit(ItemKind.number, pos, end);
      pos = end;
      continue;
    }
    fail(`Invalid schema. Unexpected ${String.fromCodePoint(input.codePointAt(pos)!)}`);
  }
  items.push({ kind: ItemKind.eof, val: "", line, column });
  return items;
}
