/** Values written into generated DQL text. */

/** A string literal: JSON's escapes are DQL's. */
export function dqlString(value: string): string {
  return JSON.stringify(value);
}

/** A scalar argument value: numbers and booleans bare, everything else quoted. */
export function dqlValue(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  return dqlString(String(value));
}

/** A uid from a GraphQL `ID` (`0x1a` or decimal); throws Dgraph's text for anything else. */
export function parseId(id: unknown): string {
  const text = String(id);
  if (/^0x[0-9a-fA-F]{1,16}$/.test(text)) return text.toLowerCase();
  if (/^[0-9]{1,20}$/.test(text)) return `0x${BigInt(text).toString(16)}`;
  throw new Error(`ID argument (${text}) was not able to be parsed`);
}

/**
 * A predicate in DQL text: bare when it is a plain name (`Author.name`), else as an IRI (`<http://x/y>`,
 * `</film/film/starring>`); a reverse edge keeps its `~` inside (`<~/film/x>`).
 */
export function dqlPredicate(predicate: string): string {
  const reverse = predicate.startsWith("~");
  const name = reverse ? predicate.slice(1) : predicate;
  if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) return predicate;
  return `<${reverse ? "~" : ""}${name}>`;
}
