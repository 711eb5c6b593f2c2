import type { TypedValue } from "../core/scalar.ts";
import { float64Token, int64Token } from "./token-bytes.ts";
import { type Tokenizer, TokenizerId } from "./tokenizer.ts";

/** `int`: int64 big-endian with the sign bit flipped; sortable, exact. */
export const intTokenizer: Tokenizer = {
  name: "int",
  id: TokenizerId.int,
  sortable: true,
  lossy: false,
  allowedTypes: ["int"],
  tokens(value: TypedValue): Uint8Array[] {
    return [int64Token(TokenizerId.int, value.value as number)];
  },
};

/**
 * `float`: order-preserving IEEE-754 bytes; sortable and exact (Dgraph truncates floats to int64 in this
 * index and marks it lossy; the exact encoding keeps range scans precise).
 */
export const floatTokenizer: Tokenizer = {
  name: "float",
  id: TokenizerId.float,
  sortable: true,
  lossy: false,
  allowedTypes: ["float"],
  tokens(value: TypedValue): Uint8Array[] {
    return [float64Token(TokenizerId.float, value.value as number)];
  },
};

/** `bigfloat`: the value rounded to float64, order-preserving; lossy (re-check the decimal). */
export const bigfloatTokenizer: Tokenizer = {
  name: "bigfloat",
  id: TokenizerId.bigfloat,
  sortable: true,
  lossy: true,
  allowedTypes: ["bigfloat"],
  tokens(value: TypedValue): Uint8Array[] {
    const f = Number(value.value);
    return Number.isNaN(f) ? [] : [float64Token(TokenizerId.bigfloat, f)];
  },
};
