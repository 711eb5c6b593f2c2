/**
 * Field, argument and type suggestions at the caret of a GraphQL editor, from graphql-language-service
 * and the schema the server's introspection describes.
 */
import type { GraphQLSchema } from "graphql";
import { getAutocompleteSuggestions, Position } from "graphql-language-service";

export interface Suggestion {
  label: string;
  /** The field's type (or the argument's), when known. */
  detail: string;
  description: string;
}

export interface Suggestions {
  items: Suggestion[];
  /** The text range an accepted suggestion replaces: the word being typed at the caret. */
  from: number;
  to: number;
}

const MAX_ITEMS = 8;
const WORD_BEFORE = /[_A-Za-z][_0-9A-Za-z]*$/;
const WORD_AFTER = /^[_0-9A-Za-z]*/;

/**
 * Suggestions for the word at `caret`; when nothing is being typed there, only if `explicit` (Ctrl+Space).
 * Empty when nothing fits or the word is already complete.
 */
export function suggestionsAt(
  schema: GraphQLSchema,
  text: string,
  caret: number,
  explicit = false,
): Suggestions | null {
  const before = text.slice(0, caret);
  const prefix = WORD_BEFORE.exec(before)?.[0] ?? "";
  if (prefix === "" && !explicit) return null;
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length - 1;
  let found: ReturnType<typeof getAutocompleteSuggestions>;
  try {
    found = getAutocompleteSuggestions(schema, text, new Position(line, caret - lineStart));
  } catch {
    return null;
  }
  const lower = prefix.toLowerCase();
  const items = found
    .filter((item) => item.label !== prefix && !item.label.startsWith("__"))
    .filter((item) => item.label.toLowerCase().includes(lower))
    // Prefix matches first, the language service's order otherwise.
    .sort(
      (a, b) =>
        Number(!a.label.toLowerCase().startsWith(lower)) - Number(!b.label.toLowerCase().startsWith(lower)),
    )
    .slice(0, MAX_ITEMS)
    .map((item) => ({
      label: item.label,
      detail: item.detail ?? (item.type ? String(item.type) : ""),
      description: typeof item.documentation === "string" ? item.documentation : "",
    }));
  if (items.length === 0) return null;
  const after = WORD_AFTER.exec(text.slice(caret))?.[0] ?? "";
  return { items, from: caret - prefix.length, to: caret + after.length };
}
