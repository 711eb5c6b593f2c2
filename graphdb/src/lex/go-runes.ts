/** Go's formatting of one character, as Dgraph's lexer errors print it. */

/** Go's `%#U`: `U+0022 '"'` (the quoted character only when printable). */
export function describeRune(input: string, pos: number): string {
  const cp = input.codePointAt(pos) ?? 0;
  const hex = cp.toString(16).toUpperCase().padStart(4, "0");
  const printable = cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0);
  return printable ? `U+${hex} '${String.fromCodePoint(cp)}'` : `U+${hex}`;
}

/** Go's `%q` of a rune: `'x'`. */
export function goQuoteRune(input: string, pos: number): string {
  const ch = String.fromCodePoint(input.codePointAt(pos) ?? 0);
  const json = JSON.stringify(ch);
  return `'${json.slice(1, -1).replace(/\\"/g, '"')}'`;
}
