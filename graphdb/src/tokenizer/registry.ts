import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import { keyString } from "../store/keys.ts";
import { boolTokenizer } from "./bool.ts";
import { dayTokenizer, hourTokenizer, monthTokenizer, yearTokenizer } from "./datetime.ts";
import { exactTokenizer } from "./exact.ts";
import { fulltextTokenizer } from "./fulltext.ts";
import { geoTokenizer } from "./geo.ts";
import { hashTokenizer, sha256Tokenizer } from "./hash.ts";
import { ngramTokenizer } from "./ngram.ts";
import { bigfloatTokenizer, floatTokenizer, intTokenizer } from "./numeric.ts";
import { termTokenizer } from "./term.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { trigramTokenizer } from "./trigram.ts";

const TOKENIZERS: ReadonlyMap<string, Tokenizer> = new Map(
  [
    termTokenizer,
    exactTokenizer,
    hashTokenizer,
    sha256Tokenizer,
    fulltextTokenizer,
    trigramTokenizer,
    ngramTokenizer,
    intTokenizer,
    floatTokenizer,
    bigfloatTokenizer,
    boolTokenizer,
    yearTokenizer,
    monthTokenizer,
    dayTokenizer,
    hourTokenizer,
    geoTokenizer,
  ].map((t) => [t.name, t]),
);

/**
 * Index factories: names accepted in `@index(...)` that are not tokenizers (vector indexes, with options
 * such as `hnsw(metric: "cosine")`). They index float32vector predicates and are never sortable.
 */
export const INDEX_FACTORIES: ReadonlySet<string> = new Set(["hnsw"]);

/** The tokenizer of a name (`@index(term)`), or undefined. Names are lower-case. */
export function getTokenizer(name: string): Tokenizer | undefined {
  return TOKENIZERS.get(name);
}

/** The tokenizer whose tokens start with byte `id`, or undefined. */
export function getTokenizerById(id: number): Tokenizer | undefined {
  for (const t of TOKENIZERS.values()) if (t.id === id) return t;
  return undefined;
}

/** Names of all tokenizers. */
export function tokenizerNames(): string[] {
  return [...TOKENIZERS.keys()];
}

/** A tokenizer's tokens as latin1 key strings: its `tokenKeys` where it has one. */
export function tokenKeysOf(t: Tokenizer, value: TypedValue, lang?: string): string[] {
  return t.tokenKeys ? t.tokenKeys(value, lang) : t.tokens(value, lang).map(keyString);
}

/**
 * Tokens for the argument side of a query function (`allofterms(name, "a b")`, `alloftext(name@fr, …)`,
 * `eq(age, "20")` after conversion, `match(name, "x", 2)`). The argument must already be converted to the
 * predicate type. For every tokenizer the argument is analysed exactly like an indexed value, so a
 * function argument and a stored value agree on their tokens; `lang` is the function's language tag
 * (`name@fr`), default English for fulltext.
 */
export function queryTokens(name: string, value: TypedValue, lang?: string): Uint8Array[] {
  const t = TOKENIZERS.get(name);
  if (!t) throw new DgraphError(`Tokenizer not found for ${name}`);
  return t.tokens(value, lang);
}
