/**
 * Storage key layout, after Dgraph's (x/keys.go): one predicate's keys are contiguous, and within it
 * data, index, reverse and count keys each form a byte-ordered range.
 *
 *   predicate keys  0x00 | u16 BE len | predicate utf8 | kind | rest
 *     DATA     kind 0x00, rest = u64 BE subject uid        → posting record (uids or values)
 *     INDEX    kind 0x02, rest = token bytes (tokenizer id first) → uid list
 *     REVERSE  kind 0x04, rest = u64 BE object uid         → uid list of subjects
 *     COUNT    kind 0x08, rest = u32 BE count              → uid list (forward counts)
 *     COUNTREV kind 0x0c, rest = u32 BE count              → uid list (reverse counts)
 *   schema     0x01 | predicate utf8 → JSON PredicateSchema
 *   type       0x02 | type name utf8 → JSON TypeSchema
 *   meta       0x03 | name           → engine metadata (timestamp and uid leases)
 *   tail       0x04 | predicate key  → uids appended to that key's long list since it was last rewritten
 */
export const KeyKind = {
  data: 0x00,
  index: 0x02,
  reverse: 0x04,
  count: 0x08,
  countReverse: 0x0c,
} as const;
export type KeyKindByte = (typeof KeyKind)[keyof typeof KeyKind];

const PREFIX_PREDICATE = 0x00;
const PREFIX_SCHEMA = 0x01;
const PREFIX_TYPE = 0x02;
const PREFIX_META = 0x03;
const PREFIX_TAIL = 0x04;

/** LMDB's maximum key size in lmdb-js is 1978 bytes; longer index tokens are refused. */
export const MAX_KEY_BYTES = 1978;

const encoder = new TextEncoder();
const predicatePrefixes = new Map<string, Uint8Array>();

/** `0x00 | u16 len | predicate` (cached: predicates are few). */
export function predicatePrefix(pred: string): Uint8Array {
  let p = predicatePrefixes.get(pred);
  if (p === undefined) {
    const name = encoder.encode(pred);
    if (name.length > 0xffff) throw new RangeError("Predicate name length cannot be bigger than 2^16");
    p = new Uint8Array(3 + name.length);
    p[0] = PREFIX_PREDICATE;
    p[1] = name.length >>> 8;
    p[2] = name.length & 0xff;
    p.set(name, 3);
    predicatePrefixes.set(pred, p);
  }
  return p;
}

function withKind(pred: string, kind: number, restLength: number): { key: Uint8Array; at: number } {
  const prefix = predicatePrefix(pred);
  const key = new Uint8Array(prefix.length + 1 + restLength);
  key.set(prefix, 0);
  key[prefix.length] = kind;
  return { key, at: prefix.length + 1 };
}

/** Writes a uid (< 2^53) as u64 big-endian. */
export function writeUid(buf: Uint8Array, at: number, uid: number): void {
  const hi = Math.floor(uid / 0x100000000);
  const lo = uid >>> 0;
  buf[at] = hi >>> 24;
  buf[at + 1] = (hi >>> 16) & 0xff;
  buf[at + 2] = (hi >>> 8) & 0xff;
  buf[at + 3] = hi & 0xff;
  buf[at + 4] = lo >>> 24;
  buf[at + 5] = (lo >>> 16) & 0xff;
  buf[at + 6] = (lo >>> 8) & 0xff;
  buf[at + 7] = lo & 0xff;
}

export function readUid(buf: Uint8Array, at: number): number {
  const hi = ((buf[at] << 24) | (buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]) >>> 0;
  const lo = ((buf[at + 4] << 24) | (buf[at + 5] << 16) | (buf[at + 6] << 8) | buf[at + 7]) >>> 0;
  return hi * 0x100000000 + lo;
}

export function dataKey(pred: string, subject: number): Uint8Array {
  const { key, at } = withKind(pred, KeyKind.data, 8);
  writeUid(key, at, subject);
  return key;
}

export function reverseKey(pred: string, object: number): Uint8Array {
  const { key, at } = withKind(pred, KeyKind.reverse, 8);
  writeUid(key, at, object);
  return key;
}

export function indexKey(pred: string, token: Uint8Array): Uint8Array {
  const { key, at } = withKind(pred, KeyKind.index, token.length);
  key.set(token, at);
  return key;
}

export function countKey(pred: string, count: number, reverse: boolean): Uint8Array {
  const { key, at } = withKind(pred, reverse ? KeyKind.countReverse : KeyKind.count, 4);
  key[at] = count >>> 24;
  key[at + 1] = (count >>> 16) & 0xff;
  key[at + 2] = (count >>> 8) & 0xff;
  key[at + 3] = count & 0xff;
  return key;
}

/** [start, end) covering every key of one kind of a predicate (optionally narrowed by a rest prefix). */
export function kindRange(
  pred: string,
  kind: number,
  restPrefix?: Uint8Array,
): { start: Uint8Array; end: Uint8Array } {
  const rest = restPrefix ?? new Uint8Array(0);
  const { key: start, at } = withKind(pred, kind, rest.length);
  start.set(rest, at);
  return { start, end: prefixEnd(start) };
}

/** [start, end) covering every key of a predicate. */
export function predicateRange(pred: string): { start: Uint8Array; end: Uint8Array } {
  const start = predicatePrefix(pred);
  return { start, end: prefixEnd(start) };
}

/** The smallest key greater than every key with this prefix. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = Uint8Array.prototype.slice.call(prefix) as Uint8Array;
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return new Uint8Array([0xff, 0xff, 0xff, 0xff]);
}

/** Offset where the rest (uid, token, count) begins in a predicate key. */
export function restOffset(key: Uint8Array): number {
  return 3 + ((key[1] << 8) | key[2]) + 1;
}

const nameDecoder = new TextDecoder();

/** The predicate name of a predicate key. */
export function predicateOfKey(key: Uint8Array): string {
  return nameDecoder.decode(key.subarray(3, restOffset(key) - 1));
}

/** The kind byte (KeyKind) of a predicate key, or -1 for other keys. */
export function keyKind(key: Uint8Array): number {
  return key[0] === PREFIX_PREDICATE ? key[restOffset(key) - 1] : -1;
}

export function readCount(key: Uint8Array, at: number): number {
  return ((key[at] << 24) | (key[at + 1] << 16) | (key[at + 2] << 8) | key[at + 3]) >>> 0;
}

export function schemaKey(pred: string): Uint8Array {
  return concat(PREFIX_SCHEMA, encoder.encode(pred));
}
export function typeKey(name: string): Uint8Array {
  return concat(PREFIX_TYPE, encoder.encode(name));
}
export function metaKey(name: string): Uint8Array {
  return concat(PREFIX_META, encoder.encode(name));
}
/** The key holding the appended tail of a long uid list stored under `key`. */
export function tailKey(key: Uint8Array): Uint8Array {
  return concat(PREFIX_TAIL, key);
}

/** The tails of the lists whose keys fall in [start, end). */
export function tailRange(start: Uint8Array, end: Uint8Array): { start: Uint8Array; end: Uint8Array } {
  return { start: concat(PREFIX_TAIL, start), end: concat(PREFIX_TAIL, end) };
}

export const schemaRange = {
  start: new Uint8Array([PREFIX_SCHEMA]),
  end: new Uint8Array([PREFIX_SCHEMA + 1]),
};
export const typeRange = { start: new Uint8Array([PREFIX_TYPE]), end: new Uint8Array([PREFIX_TYPE + 1]) };
export const allPredicateKeysRange = {
  start: new Uint8Array([PREFIX_PREDICATE]),
  end: new Uint8Array([PREFIX_PREDICATE + 1]),
};

function concat(first: number, rest: Uint8Array): Uint8Array {
  const out = new Uint8Array(rest.length + 1);
  out[0] = first;
  out.set(rest, 1);
  return out;
}

/** Latin-1 view of key bytes: a cheap, exact Map key whose string order is the key's byte order. */
export function keyString(key: Uint8Array): string {
  if (key.length <= 64) return String.fromCharCode.apply(null, key as unknown as number[]);
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");
}

/**
 * Where the uid starts in the latin1 string (`keyString`) of a data or reverse key
 * (`0x00 | u16 length | predicate | kind | u64 uid`), or -1 for any other key.
 */
export function uidKeyRest(ks: string): number {
  if (ks.charCodeAt(0) !== PREFIX_PREDICATE) return -1;
  const at = 3 + ((ks.charCodeAt(1) << 8) | ks.charCodeAt(2)) + 1;
  if (ks.length !== at + 8) return -1;
  const kind = ks.charCodeAt(at - 1);
  return kind === KeyKind.data || kind === KeyKind.reverse ? at : -1;
}

/** `readUid` of a latin1 key string. */
export function readUidString(ks: string, at: number): number {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 4; i++) hi = hi * 256 + ks.charCodeAt(at + i);
  for (let i = 4; i < 8; i++) lo = lo * 256 + ks.charCodeAt(at + i);
  return hi * 0x100000000 + lo;
}

/** The key bytes of a latin1 key string (the inverse of `keyString`). */
export function latin1Bytes(ks: string): Uint8Array {
  const key = new Uint8Array(ks.length);
  for (let i = 0; i < ks.length; i++) key[i] = ks.charCodeAt(i);
  return key;
}

const kindPrefixes = new Map<number, Map<string, string>>();

/**
 * `keyString` of a predicate's keys of one kind up to their rest (uid, token, count): the same string
 * object every time (cached), so Maps keyed by it hash it once.
 */
export function kindKeyPrefix(pred: string, kind: number): string {
  let byPred = kindPrefixes.get(kind);
  if (byPred === undefined) kindPrefixes.set(kind, (byPred = new Map()));
  let p = byPred.get(pred);
  if (p === undefined) {
    p = keyString(withKind(pred, kind, 0).key);
    // Predicates come and go with schemas: a bound keeps a stream of new names from growing it forever.
    if (byPred.size >= 10_000) byPred.clear();
    byPred.set(pred, p);
  }
  return p;
}

/** `keyString(indexKey(pred, token))` is this prefix followed by the token's latin1 string. */
export function indexKeyPrefix(pred: string): string {
  return kindKeyPrefix(pred, KeyKind.index);
}
