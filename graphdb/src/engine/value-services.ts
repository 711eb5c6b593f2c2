import { DgraphError } from "../core/errors.ts";
import type { ValueServices } from "../mutation/mutation-applier.ts";
import { getTokenizer, tokenKeysOf } from "../tokenizer/registry.ts";
import { convertValue } from "../types/convert.ts";
import { hashPassword } from "../types/password.ts";

/** The engine's tokenizers and type conversion, as the mutation applier and index rebuilds use them. */
export const valueServices: ValueServices = {
  tokens(name, value, lang) {
    const tok = getTokenizer(name);
    if (tok === undefined) throw new DgraphError(`Invalid tokenizer ${name}`);
    return tok.tokens(value, lang);
  },
  tokenKeys(name, value, lang) {
    const tok = getTokenizer(name);
    if (tok === undefined) throw new DgraphError(`Invalid tokenizer ${name}`);
    return tokenKeysOf(tok, value, lang);
  },
  convert: (value, to, predicate) => convertValue(value, to, predicate),
  hashPassword: (plain) => hashPassword(plain),
};
