import type { TypedValue } from "../core/scalar.ts";
import { stringToken } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";
import { analyzeWords, unique } from "./words.ts";

/**
 * Character trigrams of each normalised word (words of up to three characters are kept whole). Used by
 * the `ngram` index for substring-style word matching; the same function derives the query's grams.
 */
export function ngramStrings(text: string): string[] {
  const out: string[] = [];
  for (const word of analyzeWords(text)) {
    const chars = Array.from(word);
    if (chars.length <= 3) out.push(word);
    else for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i] + chars[i + 1] + chars[i + 2]);
  }
  return unique(out);
}

/** `ngram`: lossy word-gram index for `ngram(pred, "…")`. */
export const ngramTokenizer: Tokenizer = {
  name: "ngram",
  id: TokenizerId.ngram,
  sortable: false,
  lossy: true,
  allowedTypes: ["string"],
  tokens(value: TypedValue): Uint8Array[] {
    return ngramStrings(value.value as string).map((g) => stringToken(TokenizerId.ngram, g));
  },
};
