/**
 * IRIs in angle brackets, as DQL, the schema language and N-Quads write predicate names:
 * `IRIREF ::= '<' ([^#x00-#x20<>"{}|^`\] | UCHAR)* '>'` with `UCHAR ::= '\u' HEX{4} | '\U' HEX{8}`.
 */
import { isHexDigit } from "./characters.ts";

/** A character allowed unescaped inside `<...>`. */
export function isIriChar(c: number): boolean {
  if (c <= 0x20) return false;
  switch (c) {
    case 0x3c: // <
    case 0x3e: // >
    case 0x22: // "
    case 0x7b: // {
    case 0x7d: // }
    case 0x7c: // |
    case 0x5e: // ^
    case 0x60: // `
    case 0x5c: // \
      return false;
    default:
      return true;
  }
}

/**
 * Scans an IRI's body from `start` (just after `<`): returns the index of the first character that cannot
 * belong to it — the closing `>` when the IRI is well formed. Escapes (`\uXXXX`, `\UXXXXXXXX`) are kept as
 * written.
 */
export function scanIriBody(input: string, start: number): number {
  let end = start;
  while (end < input.length) {
    const c = input.charCodeAt(end);
    if (isIriChar(c)) {
      end++;
      continue;
    }
    if (c === 0x5c) {
      const u = input.charCodeAt(end + 1);
      const n = u === 0x75 ? 4 : u === 0x55 ? 8 : 0;
      let ok = n > 0;
      for (let k = 0; ok && k < n; k++) ok = isHexDigit(input.charCodeAt(end + 2 + k));
      if (ok) {
        end += 2 + n;
        continue;
      }
    }
    break;
  }
  return end;
}
