/**
 * `@search(by: [...])`: which DQL index each argument builds and which filter input it gives the field
 * (Dgraph's `supportedSearches`). Several arguments merge their filters into one input named by joining
 * the filter names with `_`, in sorted argument order.
 */

export interface SearchArgument {
  /** The DQL tokenizer. */
  index: string;
  /** The filter input, or `Boolean` for `bool`; `<Enum>_hash`/`<Enum>_exact` for enums. */
  filter: string;
  /** GraphQL types the argument applies to (`enum` for any enum). */
  types: readonly string[];
}

export const SEARCH_ARGUMENTS: ReadonlyMap<string, SearchArgument> = new Map([
  ["hash", { index: "hash", filter: "StringHashFilter", types: ["String", "enum"] }],
  ["exact", { index: "exact", filter: "StringExactFilter", types: ["String", "enum"] }],
  ["term", { index: "term", filter: "StringTermFilter", types: ["String"] }],
  ["fulltext", { index: "fulltext", filter: "StringFullTextFilter", types: ["String"] }],
  ["trigram", { index: "trigram", filter: "StringRegExpFilter", types: ["String", "enum"] }],
  ["regexp", { index: "trigram", filter: "StringRegExpFilter", types: ["String", "enum"] }],
  ["int", { index: "int", filter: "IntFilter", types: ["Int"] }],
  ["int64", { index: "int", filter: "Int64Filter", types: ["Int64"] }],
  ["float", { index: "float", filter: "FloatFilter", types: ["Float"] }],
  ["bool", { index: "bool", filter: "Boolean", types: ["Boolean"] }],
  ["year", { index: "year", filter: "DateTimeFilter", types: ["DateTime"] }],
  ["month", { index: "month", filter: "DateTimeFilter", types: ["DateTime"] }],
  ["day", { index: "day", filter: "DateTimeFilter", types: ["DateTime"] }],
  ["hour", { index: "hour", filter: "DateTimeFilter", types: ["DateTime"] }],
  ["point", { index: "geo", filter: "PointGeoFilter", types: ["Point"] }],
  ["polygon", { index: "geo", filter: "PolygonGeoFilter", types: ["Polygon"] }],
  ["multiPolygon", { index: "geo", filter: "PolygonGeoFilter", types: ["MultiPolygon"] }],
]);

/** `@search` with no argument (or `by: []`): the type's default. */
export const DEFAULT_SEARCH: ReadonlyMap<string, string> = new Map([
  ["Int", "int"],
  ["Int64", "int64"],
  ["Float", "float"],
  ["Boolean", "bool"],
  ["String", "term"],
  ["DateTime", "year"],
  ["enum", "hash"],
  ["Point", "point"],
  ["Polygon", "polygon"],
  ["MultiPolygon", "multiPolygon"],
]);

/** Fields of each filter input, for merging. */
const FILTER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  StringHashFilter: ["eq", "in"],
  StringExactFilter: ["eq", "in", "le", "lt", "ge", "gt", "between"],
  StringTermFilter: ["allofterms", "anyofterms"],
  StringFullTextFilter: ["alloftext", "anyoftext"],
  StringRegExpFilter: ["regexp"],
};

/** The filter input name of a field searched by `args` (already validated), e.g. `StringHashFilter_StringTermFilter`. */
export function filterName(args: readonly string[], enumName?: string): string {
  const names: string[] = [];
  for (const arg of [...args].sort()) {
    const name = filterOf(arg, enumName);
    if (!names.includes(name)) names.push(name);
  }
  return names.join("_");
}

function filterOf(arg: string, enumName: string | undefined): string {
  if (enumName !== undefined && (arg === "hash" || arg === "exact")) return `${enumName}_${arg}`;
  return (SEARCH_ARGUMENTS.get(arg) as SearchArgument).filter;
}

/** The SDL of a merged string filter (`StringHashFilter_StringTermFilter`), or of an enum's own filter. */
export function mergedFilterInput(name: string): string {
  const parts = name.split("_");
  const enumFilter = parts.length === 2 && (parts[1] === "hash" || parts[1] === "exact");
  if (enumFilter) {
    const e = parts[0];
    const fields =
      parts[1] === "hash"
        ? [`eq: ${e}`, `in: [${e}]`]
        : [`eq: ${e}`, `in: [${e}]`, `le: ${e}`, `lt: ${e}`, `ge: ${e}`, `gt: ${e}`, `between: ${e}`];
    return `input ${name} {\n${fields.map((f) => `\t${f}`).join("\n")}\n}`;
  }
  const lines: string[] = [];
  for (const part of parts) {
    for (const field of FILTER_FIELDS[part] ?? []) {
      const line =
        field === "in" ? "in: [String]" : field === "between" ? "between: StringRange" : `${field}: String`;
      if (!lines.includes(line)) lines.push(line);
    }
  }
  return `input ${name} {\n${lines.map((l) => `\t${l}`).join("\n")}\n}`;
}
