import type { Facet } from "../core/facet.ts";
import type { TypedValue } from "./scalar.ts";
import type { PredicateSchema, TypeSchema } from "./schema-types.ts";

/** A sorted, duplicate-free list of uids. Never mutate one you did not create. */
export type UidList = Float64Array;

/** One value of a (subject, predicate): untagged values have lang "". */
export interface ValuePosting {
  value: TypedValue;
  lang: string;
  facets?: Facet[];
}

/** Read-only view of the schema in force for a transaction. */
export interface SchemaView {
  predicate(name: string): PredicateSchema | undefined;
  type(name: string): TypeSchema | undefined;
  predicates(): PredicateSchema[];
  types(): TypeSchema[];
}

/** One index entry met by a range scan: the token bytes (first byte = tokenizer id) and its uids. */
export interface IndexEntry {
  token: Uint8Array;
  uids: UidList;
}

/**
 * What the query engine reads, bound to one transaction: the snapshot at its start_ts plus its own
 * uncommitted writes. Every method is synchronous (LMDB reads are); a batch method exists where a remote
 * backend would need one round trip per query level.
 */
export interface GraphReader {
  readonly schema: SchemaView;
  /** Forward uid edges of (pred, subject). Empty list when none. */
  uids(pred: string, subject: number): UidList;
  /** `uids` for many subjects at once (one round trip on a remote backend). */
  uidsMany(pred: string, subjects: UidList): UidList[];
  /** Facets on the edge subject -pred-> object, if any. */
  edgeFacets(pred: string, subject: number, object: number): Facet[] | undefined;
  /** Scalar values of (pred, subject), all languages. Empty array when none. */
  values(pred: string, subject: number): ValuePosting[];
  valuesMany(pred: string, subjects: UidList): ValuePosting[][];
  /** Subjects with an edge pred -> object (needs @reverse). */
  reverse(pred: string, object: number): UidList;
  /** Uids indexed under one token (token bytes as produced by the tokenizer, id byte first). */
  index(pred: string, token: Uint8Array): UidList;
  /**
   * Index entries of one tokenizer in token byte order, from `from` (inclusive) to `to` (inclusive);
   * undefined bounds are open. `reverse` walks from the high end. Stops when the callback returns false.
   */
  indexRange(
    pred: string,
    tokenizerId: number,
    from: Uint8Array | undefined,
    to: Uint8Array | undefined,
    visit: (entry: IndexEntry) => boolean | undefined,
    reverse?: boolean,
  ): void;
  /** Uids whose count of pred (or of ~pred when reverse) equals `count` (needs @count). */
  countIndex(pred: string, count: number, reverse: boolean): UidList;
  /** Count-index entries in ascending count order within [min, max]. */
  countRange(
    pred: string,
    reverse: boolean,
    min: number,
    max: number,
    visit: (count: number, uids: UidList) => void,
  ): void;
  /** All subjects that have at least one value/edge of pred (`has(pred)`). */
  subjectsWith(pred: string): UidList;
  /**
   * A page of subjectsWith: the first `limit` subjects above `after`, ascending. Undefined when the reader
   * cannot page (its transaction has pending writes of pred): use subjectsWith.
   */
  subjectsWithPage(pred: string, after: number, limit: number): UidList | undefined;
  /** All objects that have at least one incoming pred edge (`has(~pred)`, needs @reverse). */
  objectsWith(pred: string): UidList;
}
