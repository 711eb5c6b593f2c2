import type { ValuePosting } from "../core/graph-reader.ts";
import type { PredicateSchema } from "../core/schema-types.ts";
import type { ValueServices } from "../mutation/mutation-applier.ts";
import { deletePostings, withTail } from "../posting/list-tail.ts";
import { decodeRecord, encodeRecord, encodeUidList } from "../posting/posting-record.ts";
import { sortUnique } from "../posting/uid-list.ts";
import { KeyKind, keyString, type NamespaceKeys, readUid, restOffset } from "../store/keys.ts";
import type { KVWriter } from "../store/kv-store.ts";

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

/**
 * Rebuilds a predicate's index, reverse and count keys from its data keys inside one write, converting
 * stored values to a new schema type when it changed (a value that cannot convert fails the alter).
 * `keys` are those of the predicate's namespace.
 */
export function rebuildDerivedKeys(
  w: KVWriter,
  keys: NamespaceKeys,
  s: PredicateSchema,
  services: ValueServices,
): void {
  for (const kind of [KeyKind.index, KeyKind.reverse, KeyKind.count, KeyKind.countReverse]) {
    const r = keys.kindRange(s.predicate, kind);
    deletePostings(w, r.start, r.end);
  }
  const index = new Map<string, { key: Uint8Array; uids: number[] }>();
  const reverse = new Map<number, number[]>();
  const counts = new Map<number, number[]>();
  const add = (key: Uint8Array, uid: number) => {
    const ks = keyString(key);
    let e = index.get(ks);
    if (e === undefined) index.set(ks, (e = { key, uids: [] }));
    e.uids.push(uid);
  };
  const data = keys.kindRange(s.predicate, KeyKind.data);
  const at = restOffset(data.start);
  const rewrites: [Uint8Array, Uint8Array][] = [];
  for (const { key, value } of w.scan(data)) {
    const subject = readUid(key, at);
    const rec = decodeRecord(withTail((k) => w.get(k), key, value));
    if (s.type === "uid") {
      if (s.reverse) for (const o of rec.uids) push(reverse, o, subject);
      if (s.count && rec.uids.length > 0) push(counts, rec.uids.length, subject);
      continue;
    }
    let values: ValuePosting[] = rec.values;
    if (values.some((v) => v.value.type !== s.type)) {
      values = values.map((v) => ({ ...v, value: services.convert(v.value, s.type, s.predicate) }));
      rewrites.push([Uint8Array.prototype.slice.call(key) as Uint8Array, encodeRecord({ ...rec, values })]);
    }
    for (const tok of s.tokenizers) {
      for (const v of values)
        for (const token of services.tokens(tok, v.value, v.lang))
          add(keys.indexKey(s.predicate, token), subject);
    }
    if (s.count && s.list && values.length > 0) push(counts, values.length, subject);
  }
  for (const [k, v] of rewrites) w.put(k, v);
  for (const { key, uids } of index.values()) w.put(key, encodeUidList(sortUnique(Float64Array.from(uids))));
  const reverseCounts = new Map<number, number[]>();
  for (const [object, subjects] of reverse) {
    const list = sortUnique(Float64Array.from(subjects));
    w.put(keys.reverseKey(s.predicate, object), encodeUidList(list));
    if (s.count) push(reverseCounts, list.length, object);
  }
  for (const [n, uids] of counts)
    w.put(keys.countKey(s.predicate, n, false), encodeUidList(sortUnique(Float64Array.from(uids))));
  for (const [n, uids] of reverseCounts)
    w.put(keys.countKey(s.predicate, n, true), encodeUidList(sortUnique(Float64Array.from(uids))));
}

function push(m: Map<number, number[]>, k: number, v: number): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else list.push(v);
}
