import type { ScalarType } from "./scalar.ts";

/** One predicate's schema, as declared by `/alter` or created by auto-schema on first write. */
export interface PredicateSchema {
  predicate: string;
  type: ScalarType;
  list: boolean;
  /** Tokenizer names in declaration order (`@index(term, exact)` → ["term", "exact"]). Empty = no index. */
  tokenizers: string[];
  reverse: boolean;
  count: boolean;
  upsert: boolean;
  lang: boolean;
  noconflict: boolean;
  unique: boolean;
}

/** A predicate schema with every flag off: the base for declarations and auto-schema. */
export function blankPredicate(predicate: string, type: ScalarType, list: boolean): PredicateSchema {
  return {
    predicate,
    type,
    list,
    tokenizers: [],
    reverse: false,
    count: false,
    upsert: false,
    lang: false,
    noconflict: false,
    unique: false,
  };
}

/** A `type T { … }` definition. Fields are predicate names; reverse fields keep their `~` prefix. */
export interface TypeSchema {
  name: string;
  fields: string[];
}

/** The result of parsing a schema text (an `/alter` body). */
export interface ParsedSchema {
  predicates: PredicateSchema[];
  types: TypeSchema[];
}
