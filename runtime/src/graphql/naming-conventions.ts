/**
 * How WIT names become GraphQL names, following Modus (`runtime/graphql/schemagen/conventions.go`) so that
 * users of Modus get the API they expect: mutation detection by verb prefix, `get`/`list` trimming for
 * queries, camelCase fields, PascalCase types and UPPER_SNAKE_CASE enum values.
 */

/** Verb prefixes that make a function a Mutation (Modus' list, in its order). */
export const MUTATION_PREFIXES: readonly string[] = [
  "mutate",
  "post",
  "patch",
  "put",
  "delete",
  "add",
  "update",
  "insert",
  "upsert",
  "create",
  "edit",
  "save",
  "remove",
  "alter",
  "modify",
  "start",
  "stop",
];

/** Prefixes trimmed from query field names (`getPerson` → `person`). */
export const QUERY_TRIMMED_PREFIXES: readonly string[] = ["get", "list"];

export type RootTypeName = "Query" | "Mutation";

/**
 * True when `name` equals `prefix` or starts with it (case-insensitively) and the next character is not a
 * lowercase a–z: `addPost` and `add` match `add`, `additionalPosts` does not.
 */
export function hasVerbPrefix(name: string, prefix: string): boolean {
  if (name.length < prefix.length) return false;
  if (name.slice(0, prefix.length).toLowerCase() !== prefix) return false;
  const next = name.charAt(prefix.length);
  return next === "" || !(next >= "a" && next <= "z");
}

/** Query or Mutation for a function's camelCase name. */
export function rootTypeFor(functionName: string): RootTypeName {
  return MUTATION_PREFIXES.some((p) => hasVerbPrefix(functionName, p)) ? "Mutation" : "Query";
}

/**
 * The GraphQL field name of a function (camelCase name): mutations keep their name; queries lose a leading
 * `get`/`list` (same next-character rule) and get a lowercase first letter. A bare `get` stays `get`.
 */
export function fieldNameFor(functionName: string): string {
  if (rootTypeFor(functionName) === "Mutation") return functionName;
  for (const prefix of QUERY_TRIMMED_PREFIXES) {
    if (functionName.length > prefix.length && hasVerbPrefix(functionName, prefix)) {
      return lowerFirst(functionName.slice(prefix.length));
    }
  }
  return lowerFirst(functionName);
}

/**
 * Functions whose names start with `_` are internal and hidden from GraphQL. WIT names cannot start with
 * `_`, so a TS/Go `_name` may reach us as `_name`, `-name` or (after escaping) `%_name`; all count.
 */
export function isHiddenFunction(witName: string): boolean {
  const name = witName.startsWith("%") ? witName.slice(1) : witName;
  return name.startsWith("_") || name.startsWith("-");
}

/** Splits a WIT identifier (`get-HTTP-status`, `%type`) into its words. */
function witWords(witName: string): string[] {
  const name = witName.startsWith("%") ? witName.slice(1) : witName;
  return name.split(/[-_]+/).filter((w) => w !== "");
}

/**
 * `get-person-by-id` → `getPersonById`. Matches jco's (heck's) lowerCamelCase, which is how record fields
 * and parameters are spelled in the JS values the invoker exchanges: `get-HTTP-code` → `getHttpCode`.
 */
export function kebabToCamel(witName: string): string {
  return lowerFirst(kebabToPascal(witName));
}

/** `http-response` → `HttpResponse`: GraphQL type names. */
export function kebabToPascal(witName: string): string {
  return witWords(witName)
    .map((w) => upperFirst(w.toLowerCase()))
    .join("");
}

/** `dark-red` → `DARK_RED`: GraphQL enum value names. */
export function enumCaseToGraphQL(witCase: string): string {
  return witWords(witCase)
    .map((w) => w.toUpperCase())
    .join("_");
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
