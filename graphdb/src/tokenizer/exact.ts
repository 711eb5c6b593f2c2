import type { TypedValue } from "../core/scalar.ts";
import { stringToken, stringTokenKey } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";

/**
 * `exact`: the whole string as one token (its UTF-8 bytes), so byte order is string order: sortable and
 * not lossy. Dgraph additionally collates language-tagged values (token id 0x3 + language); here all
 * languages share the plain byte-ordered tokens.
 */
export const exactTokenizer: Tokenizer = {
  name: "exact",
  id: TokenizerId.exact,
  sortable: true,
  lossy: false,
  allowedTypes: ["string"],
  tokens(value: TypedValue): Uint8Array[] {
    return [stringToken(TokenizerId.exact, value.value as string)];
  },
  tokenKeys(value: TypedValue): string[] {
    return [stringTokenKey(TokenizerId.exact, value.value as string)];
  },
};
