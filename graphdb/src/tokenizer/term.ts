import type { TypedValue } from "../core/scalar.ts";
import { baseLanguage } from "./language.ts";
import { stringToken, stringTokenKey } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";
import { analyzeWords, unique } from "./words.ts";

/** Languages written without spaces between words: Dgraph's term tokenizer just splits them on spaces. */
const SPACE_SPLIT_LANGUAGES = new Set(["zh", "ja", "th", "lo", "my", "bo", "km", "kxm"]);

/**
 * Unique terms of a string (Dgraph `TermTokenizer`): Unicode word segmentation, lower case, NFKC; for
 * Chinese/Japanese/Thai/Lao/Burmese/Tibetan/Khmer values a plain split on spaces. An empty string yields
 * the single term "" (Dgraph indexes it as an empty token).
 */
export function termStrings(text: string, lang?: string): string[] {
  if (text === "") return [""];
  const words =
    lang && SPACE_SPLIT_LANGUAGES.has(baseLanguage(lang))
      ? text.split(" ").filter((w) => w !== "")
      : analyzeWords(text);
  return unique(words);
}

function termTokens(value: TypedValue, lang?: string): Uint8Array[] {
  const terms = termStrings(value.value as string, lang);
  const out = new Array<Uint8Array>(terms.length);
  for (let i = 0; i < terms.length; i++) out[i] = stringToken(TokenizerId.term, terms[i]);
  return out;
}

function termTokenKeys(value: TypedValue, lang?: string): string[] {
  const terms = termStrings(value.value as string, lang);
  for (let i = 0; i < terms.length; i++) terms[i] = stringTokenKey(TokenizerId.term, terms[i]);
  return terms;
}

/** `term`: lossy (terms, not values), for `allofterms` / `anyofterms` and as an `eq` fallback. */
export const termTokenizer: Tokenizer = {
  name: "term",
  id: TokenizerId.term,
  sortable: false,
  lossy: true,
  allowedTypes: ["string"],
  tokens: termTokens,
  tokenKeys: termTokenKeys,
};
