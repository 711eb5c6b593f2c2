import type { TypedValue } from "../core/scalar.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";

/** `bool`: `[0x09][0|1]`. Exact. */
export const boolTokenizer: Tokenizer = {
  name: "bool",
  id: TokenizerId.bool,
  sortable: false,
  lossy: false,
  allowedTypes: ["bool"],
  tokens(value: TypedValue): Uint8Array[] {
    return [Uint8Array.of(TokenizerId.bool, value.value ? 1 : 0)];
  },
};
