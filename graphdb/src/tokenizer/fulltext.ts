import type { TypedValue } from "../core/scalar.ts";
import { baseLanguage } from "./language.ts";
import { stemmerFor } from "./stemmers.ts";
import { stopWordsFor } from "./stopwords.ts";
import { stringToken, stringTokenKey } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";
import { analyzeWords, analyzeWordsWithKind, unique } from "./words.ts";

/** Languages whose ideographs are indexed as overlapping bigrams (bleve `cjk_bigram`). */
const CJK_LANGUAGES = new Set(["zh", "ja", "ko"]);

/**
 * bleve's cjk_bigram filter: consecutive ideographic words (single ideographs, kana words) are split into
 * characters and emitted as overlapping bigrams; an isolated single character stays a unigram. Other
 * words pass through.
 */
function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 1) out.push(run[0]);
    else for (let i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
    run = [];
  };
  for (const word of analyzeWordsWithKind(text)) {
    if (word.ideo) {
      for (const ch of word.text) run.push(ch);
    } else {
      if (run.length > 0) flush();
      out.push(word.text);
    }
  }
  if (run.length > 0) flush();
  return out;
}

/**
 * Fulltext terms of a string in a language (Dgraph `FullTextTokenizer`): words lower-cased and NFKC
 * normalised, stop words of the base language removed, stemmed by the language's stemmer; unique.
 * The language comes from the value's tag (index side) or the function's tag (`alloftext(name@fr, …)`);
 * none means English. An empty string has no terms.
 */
export function fulltextStrings(text: string, lang?: string): string[] {
  if (text === "") return [];
  const base = baseLanguage(lang);
  if (CJK_LANGUAGES.has(base)) return unique(cjkBigrams(text));
  const words = analyzeWords(text);
  const stop = stopWordsFor(base);
  const stem = stemmerFor(base);
  const out: string[] = [];
  for (const w of words) {
    if (stop?.has(w)) continue;
    out.push(stem ? stem(w) : w);
  }
  return unique(out);
}

function fulltextTokens(value: TypedValue, lang?: string): Uint8Array[] {
  return fulltextStrings(value.value as string, lang).map((t) => stringToken(TokenizerId.fulltext, t));
}

/** `fulltext`: lossy; language-aware stemming and stop words, for `alloftext` / `anyoftext`. */
export const fulltextTokenizer: Tokenizer = {
  name: "fulltext",
  id: TokenizerId.fulltext,
  sortable: false,
  lossy: true,
  allowedTypes: ["string"],
  tokens: fulltextTokens,
  tokenKeys(value: TypedValue, lang?: string): string[] {
    const terms = fulltextStrings(value.value as string, lang);
    for (let i = 0; i < terms.length; i++) terms[i] = stringTokenKey(TokenizerId.fulltext, terms[i]);
    return terms;
  },
};
