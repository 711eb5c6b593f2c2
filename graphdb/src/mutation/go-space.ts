/** White space as Go's `unicode.IsSpace` defines it, which Dgraph's mutation parsers trim and reject. */

/** A character Go's `unicode.IsSpace` accepts. */
export const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

const GO_SPACES = new RegExp(GO_SPACE.source, "g");

/** Removes every Go white-space character (Dgraph's `stripSpaces`). */
export function stripGoSpaces(s: string): string {
  return GO_SPACE.test(s) ? s.replace(GO_SPACES, "") : s;
}

/** Go's `unicode.IsSpace` for one UTF-16 code unit. */
export function isGoSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Go's `strings.TrimSpace`. */
export function trimGoSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s.charCodeAt(a))) a++;
  while (b > a && isGoSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
