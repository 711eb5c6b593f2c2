import type { ScalarType, TypedValue } from "../core/scalar.ts";

/**
 * Tokenizer identifiers: the first byte of every index token. Values of Dgraph's `tok` package where
 * Dgraph has them (term 0x1 … sha256 0xC, month/day/hour 0x41–0x43); ngram and bigfloat are ours.
 */
export const TokenizerId = {
  term: 0x01,
  exact: 0x02,
  year: 0x04,
  geo: 0x05,
  int: 0x06,
  float: 0x07,
  fulltext: 0x08,
  bool: 0x09,
  trigram: 0x0a,
  hash: 0x0b,
  sha256: 0x0c,
  bigfloat: 0x0d,
  ngram: 0x0e,
  month: 0x41,
  day: 0x42,
  hour: 0x43,
} as const;

export type TokenizerName = keyof typeof TokenizerId;

/** An index tokenizer (Dgraph `tok.Tokenizer`). */
export interface Tokenizer {
  readonly name: TokenizerName;
  /** First byte of every token this tokenizer produces. */
  readonly id: number;
  /** Token byte order equals value order: usable for `le/lt/ge/gt/between` and sorting. */
  readonly sortable: boolean;
  /** Tokens do not identify a value exactly: index hits must be re-checked against the stored value. */
  readonly lossy: boolean;
  /** Predicate types this tokenizer may index (schema validation). */
  readonly allowedTypes: readonly ScalarType[];
  /**
   * Index tokens of a value already converted to the predicate's type. `lang` is the value's language
   * tag (only fulltext and term use it). Duplicates are removed; order is unspecified.
   */
  tokens(value: TypedValue, lang?: string): Uint8Array[];
  /**
   * The same tokens as latin1 strings (one char per byte of the token), for bulk index builds that key
   * maps by token: string tokenizers produce them without building byte arrays. Optional: call it through
   * `tokenKeysOf` (registry), which falls back to `tokens`.
   */
  tokenKeys?(value: TypedValue, lang?: string): string[];
}
