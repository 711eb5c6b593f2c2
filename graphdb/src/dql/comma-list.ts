/**
 * Names in parentheses separated by commas — `val(a, b)`, `expand(T1, T2)`, `@cascade(a, b)`,
 * `@groupby(alias: p, q)` — read with Dgraph's rules: no comma where an item is expected, no item right
 * after another without one. Each list keeps its own error texts, as Dgraph words them.
 */
import type { Token } from "./lexer.ts";
import type { TokenStream } from "./token-stream.ts";

export interface CommaListTexts {
  /** A comma where an item is expected. */
  comma: string;
  /** An item right after another. */
  missingComma(token: Token): string;
  /** Any other token: an error text, or undefined to skip it (as Dgraph's `val()` and `@groupby` do). */
  other(token: Token): string | undefined;
}

/**
 * Reads the items up to and including `)`. `item` is called on each name and answers whether it completed
 * an item (a groupby alias `a:` does not). Returns true when the list ends expecting an item — empty, or
 * after a trailing comma — which each caller reports in its own words.
 */
export function readCommaList(
  ts: TokenStream,
  texts: CommaListTexts,
  item: (token: Token) => boolean,
  expectItem = true,
): boolean {
  let expecting = expectItem;
  while (ts.next()) {
    const token = ts.item;
    switch (token.kind) {
      case "RightRound":
        return expecting;
      case "Comma":
        if (expecting) throw ts.errorAt(token, texts.comma);
        expecting = true;
        break;
      case "Name":
        if (!expecting) throw ts.errorAt(token, texts.missingComma(token));
        if (item(token)) expecting = false;
        break;
      default: {
        const text = texts.other(token);
        if (text !== undefined) throw ts.errorAt(token, text);
      }
    }
  }
  return expecting;
}
