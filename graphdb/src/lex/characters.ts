/**
 * Character classes the lexers share (Dgraph's `lex` package helpers), on UTF-16 code units or code
 * points as noted. Each lexer adds its own name rules on top (DQL names take `_`, `~` and `.`; schema
 * names `_ . -`).
 */

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

export function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** `\n` or `\r`: each starts a new line, as in Dgraph's lexer. */
export function isEndOfLine(c: number): boolean {
  return c === 0x0a || c === 0x0d;
}

/** Space or tab. */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** True when no character is above U+007F, so UTF-16 offsets equal UTF-8 byte offsets. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Bytes of a code point in UTF-8. */
export function utf8Width(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}
