/**
 * Spelling rules between source identifiers and WIT identifiers. WIT names are kebab-case words that each
 * start with a letter; names that are WIT keywords are written with a `%` prefix. Both jco (host side) and
 * componentize-qjs (guest side) spell a WIT name in JS as lowerCamelCase of its words, which
 * `witNameToJs` reproduces so the generated glue can address record fields the way the guest runtime does.
 */

/** Words reserved in WIT; an identifier equal to one of them must be written `%word`. */
const WIT_KEYWORDS = new Set([
  "as",
  "async",
  "bool",
  "borrow",
  "char",
  "constructor",
  "enum",
  "error-context",
  "export",
  "f32",
  "f64",
  "flags",
  "float32",
  "float64",
  "from",
  "func",
  "future",
  "import",
  "include",
  "interface",
  "list",
  "map",
  "option",
  "own",
  "package",
  "record",
  "resource",
  "result",
  "s8",
  "s16",
  "s32",
  "s64",
  "static",
  "stream",
  "string",
  "tuple",
  "type",
  "u8",
  "u16",
  "u32",
  "u64",
  "use",
  "variant",
  "with",
  "world",
]);

/** Prefix word that marks an export whose source name started with `_` (hidden from GraphQL). */
export const HIDDEN_EXPORT_PREFIX = "hidden-";

/**
 * Converts a source identifier (camelCase, PascalCase, snake_case, SCREAMING_CASE) to a WIT kebab name,
 * or returns undefined when it cannot be expressed (characters other than letters, digits, `_` and `-`).
 * Digits stay attached to the word before them (`item2` → `item2`, `v2Api` → `v2-api`).
 */
export function toKebabCase(identifier: string): string | undefined {
  const trimmed = identifier.replace(/^[_-]+/, "");
  if (trimmed === "" || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(trimmed)) return undefined;
  const spaced = trimmed
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_-]+/g, " ");
  const words: string[] = [];
  for (const word of spaced.split(" ")) {
    if (word === "") continue;
    // A word may not start with a digit in WIT: glue it to the previous one.
    if (/^[0-9]/.test(word) && words.length > 0) words[words.length - 1] += word.toLowerCase();
    else words.push(word.toLowerCase());
  }
  return words.join("-");
}

/** The WIT source spelling of a kebab name: keywords get the `%` escape. */
export function witIdentifier(kebab: string): string {
  return WIT_KEYWORDS.has(kebab) ? `%${kebab}` : kebab;
}

/** How jco and componentize-qjs spell a WIT name in JS (`first-name` → `firstName`, `%type` → `type`). */
export function witNameToJs(witName: string): string {
  const words = witName.replace(/^%/, "").split("-");
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}
