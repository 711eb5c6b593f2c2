/**
 * Rebuilding a predicate's derived keys (index, reverse, count) after an alter changed them, as a sliced
 * task: its data keys are read from a snapshot a page at a time, tokenized into one map per tokenizer
 * (token → the subjects, a lone subject held as a number), and the new keys staged into a StagedBatch,
 * the event loop given back between slices (QueryBudget.pace) so other namespaces' queries and commits run
 * meanwhile. Nothing reaches the store until the engine applies the batch in one atomic write: a build
 * that fails (its time bound, the values limit, a value that does not convert) leaves the old schema and
 * indexes as they were.
 */
import { checkIndexKeyLength, DgraphError } from "../core/errors.ts";
import type { ValuePosting } from "../core/graph-reader.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { ValueServices } from "../mutation/mutation-applier.ts";
import { withTail } from "../posting/list-tail.ts";
import { decodeRecord, encodeRecord, encodeUidList } from "../posting/posting-record.ts";
import type { QueryBudget } from "../query/query-budget.ts";
import { KeyKind, latin1Bytes, type NamespaceKeys, readUid, restOffset, tailRange } from "../store/keys.ts";
import type { KVSnapshot, KVWriter } from "../store/kv-store.ts";

/** Whether a schema change requires index, reverse or count keys to be rebuilt. */
export function derivedKeysChanged(old: PredicateSchema | undefined, next: PredicateSchema): boolean {
  if (old === undefined) return false;
  return (
    old.type !== next.type ||
    old.list !== next.list ||
    old.reverse !== next.reverse ||
    old.count !== next.count ||
    old.tokenizers.join(",") !== next.tokenizers.join(",")
  );
}

export interface IndexBuild {
  snapshot: KVSnapshot;
  keys: NamespaceKeys;
  services: ValueServices;
  budget: QueryBudget;
  /** Where the new keys (and deletions of the old) are staged. */
  writer: KVWriter;
  maxValues: number;
  /** Values read so far by this alter (across its predicates). */
  values: number;
}

/** Data keys read per page (one page, decoded and tokenized, is about a slice of work). */
const PAGE = 1024;
/** Keys staged between two checks of the slice. */
const STAGE_CHUNK = 4096;

/** Stages the rebuild of one predicate's derived keys: the old ones deleted, the new ones written. */
export async function stageDerivedKeys(b: IndexBuild, s: PredicateSchema): Promise<void> {
  for (const kind of [KeyKind.index, KeyKind.reverse, KeyKind.count, KeyKind.countReverse]) {
    const r = b.keys.kindRange(s.predicate, kind);
    await deleteRange(b, r.start, r.end);
    const tails = tailRange(r.start, r.end);
    await deleteRange(b, tails.start, tails.end);
  }
  const derived = await readDerived(b, s);
  const prefix = b.keys.indexKeyPrefix(s.predicate);
  for (const byToken of derived.index) {
    await stageLists(b, byToken, (token) => {
      checkIndexKeyLength(prefix.length + token.length);
      return latin1Bytes(prefix + token);
    });
  }
  await stageLists(b, derived.reverse, (object) => b.keys.reverseKey(s.predicate, object));
  await stageLists(b, derived.counts, (n) => b.keys.countKey(s.predicate, n, false));
  if (s.count && s.type === "uid") {
    const reverseCounts = new Map<number, number | number[]>();
    for (const [object, subjects] of derived.reverse) {
      add(reverseCounts, typeof subjects === "number" ? 1 : subjects.length, object);
    }
    await stageLists(b, reverseCounts, (n) => b.keys.countKey(s.predicate, n, true));
  }
}

interface Derived {
  /** Per tokenizer: token (latin1) → subjects, ascending. */
  index: Map<string, number | number[]>[];
  /** Object → subjects pointing at it. */
  reverse: Map<number, number | number[]>;
  /** Count → subjects with that many values or edges. */
  counts: Map<number, number | number[]>;
}

/** Reads every data key of the predicate, a page at a time; converts values whose type changed. */
async function readDerived(b: IndexBuild, s: PredicateSchema): Promise<Derived> {
  const out: Derived = { index: s.tokenizers.map(() => new Map()), reverse: new Map(), counts: new Map() };
  const data = b.keys.kindRange(s.predicate, KeyKind.data);
  const at = restOffset(data.start);
  let start = data.start;
  for (;;) {
    let last: Uint8Array | undefined;
    let read = 0;
    for (const { key, value } of b.snapshot.scan({ start, end: data.end, limit: PAGE })) {
      read++;
      last = Uint8Array.prototype.slice.call(key) as Uint8Array;
      const subject = readUid(key, at);
      const rec = decodeRecord(withTail((k) => b.snapshot.get(k), key, value));
      countValues(b, s, rec.uids.length + rec.values.length);
      if (s.type === "uid") {
        if (s.reverse) for (const o of rec.uids) add(out.reverse, o, subject);
        if (s.count && rec.uids.length > 0) add(out.counts, rec.uids.length, subject);
        continue;
      }
      let values: ValuePosting[] = rec.values;
      if (values.some((v) => v.value.type !== s.type)) {
        values = values.map((v) => ({ ...v, value: b.services.convert(v.value, s.type, s.predicate) }));
        b.writer.put(Uint8Array.prototype.slice.call(key) as Uint8Array, encodeRecord({ ...rec, values }));
      }
      for (let t = 0; t < s.tokenizers.length; t++) {
        const byToken = out.index[t];
        for (const v of values)
          for (const token of b.services.tokenKeys(s.tokenizers[t], v.value, v.lang))
            add(byToken, token, subject);
      }
      if (s.count && s.list && values.length > 0) add(out.counts, values.length, subject);
    }
    if (read < PAGE || last === undefined) return out;
    start = after(last);
    await b.budget.pace();
  }
}

function countValues(b: IndexBuild, s: PredicateSchema, n: number): void {
  b.values += n;
  if (b.maxValues > 0 && b.values > b.maxValues) {
    throw new DgraphError(
      `Index build of predicate ${s.predicate} stopped: more than ${b.maxValues} values to index, this` +
        " server's limit for one alter. The schema and indexes are unchanged; index a smaller predicate," +
        " or ask the operator to raise the limit.",
    );
  }
}

/** Adds a subject to a key's list; subjects arrive ascending, so a repeat is always the last one. */
function add<K>(m: Map<K, number | number[]>, k: K, subject: number): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, subject);
  else if (typeof list === "number") {
    if (list !== subject) m.set(k, [list, subject]);
  } else if (list[list.length - 1] !== subject) list.push(subject);
}

async function stageLists<K>(
  b: IndexBuild,
  lists: Map<K, number | number[]>,
  keyOf: (k: K) => Uint8Array,
): Promise<void> {
  let n = 0;
  for (const [k, list] of lists) {
    const uids = typeof list === "number" ? Float64Array.of(list) : Float64Array.from(list);
    if (typeof list !== "number" && !ascending(uids)) uids.sort();
    b.writer.put(keyOf(k), encodeUidList(uids));
    if (++n % STAGE_CHUNK === 0) await b.budget.pace();
  }
}

function ascending(uids: Float64Array): boolean {
  for (let i = 1; i < uids.length; i++) if (uids[i] <= uids[i - 1]) return false;
  return true;
}

/** Stages the deletion of every key in [start, end), a page at a time. */
async function deleteRange(b: IndexBuild, start: Uint8Array, end: Uint8Array): Promise<void> {
  let from = start;
  for (;;) {
    let last: Uint8Array | undefined;
    let read = 0;
    for (const key of b.snapshot.scanKeys({ start: from, end, limit: STAGE_CHUNK })) {
      read++;
      last = Uint8Array.prototype.slice.call(key) as Uint8Array;
      b.writer.delete(last);
    }
    if (read < STAGE_CHUNK || last === undefined) return;
    from = after(last);
    await b.budget.pace();
  }
}

/** The smallest key after `key`. */
function after(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
