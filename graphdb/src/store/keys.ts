/**
 * Storage key layout, after Dgraph's (x/keys.go): one predicate's keys are contiguous, and within it
 * data, index, reverse and count keys each form a byte-ordered range.
 *
 *   predicate keys  0x00 | u16 BE attr length | attr | kind | rest
 *     DATA     kind 0x00, rest = u64 BE subject uid        → posting record (uids or values)
 *     INDEX    kind 0x02, rest = token bytes (tokenizer id first) → uid list
 *     REVERSE  kind 0x04, rest = u64 BE object uid         → uid list of subjects
 *     COUNT    kind 0x08, rest = u32 BE count              → uid list (forward counts)
 *     COUNTREV kind 0x0c, rest = u32 BE count              → uid list (reverse counts)
 *   schema     0x01 | attr              → JSON PredicateSchema
 *   type       0x02 | attr (type name)  → JSON TypeSchema
 *   meta       0x03 | name              → engine metadata (timestamp, uid and namespace leases)
 *   tail       0x04 | predicate key     → uids appended to that key's long list since it was last rewritten
 *
 * The attr is the namespace and the name together, as Dgraph's `x.NamespaceAttr`, so every key of a
 * namespace is its own:
 *
 *   attr = name utf8                               in namespace 0 (the galaxy)
 *        = 0xFF | u64 BE namespace | name utf8     in every other namespace
 *
 * Dgraph prefixes every attr with the 8-byte namespace; here the galaxy keeps the bare name, which is the
 * layout stores had before namespaces, so they open as namespace 0 without a migration. 0xFF never occurs
 * in UTF-8, so no name of one namespace can spell another namespace's attr.
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

/** First attr byte of a namespace other than the galaxy: a byte UTF-8 never produces. */
const NAMESPACE_MARK = 0xff;
/** The mark and the u64 namespace. */
const NAMESPACE_ATTR_BYTES = 9;

/** The default namespace (Dgraph's galaxy): bare attrs, the only one before namespaces existed. */
export const GALAXY_NAMESPACE = 0;

/** LMDB's maximum key size in lmdb-js is 1978 bytes; longer index tokens are refused. */
export const MAX_KEY_BYTES = 1978;

const encoder = new TextEncoder();

/** Caches of names seen are bounded: names come and go with schemas, and namespaces with tenants. */
const MAX_CACHED_NAMES = 10_000;

/**
 * The keys of one namespace's predicates, schema and types. Key prefixes are built once per predicate
 * and kept (the namespaced attr is interned, never encoded again per key), so building a key costs what it
 * did before namespaces: one Map lookup and one copy.
 */
export class NamespaceKeys {
  /** Attr bytes before the name: none in the galaxy, the mark and the namespace elsewhere. */
  private readonly attrHead: Uint8Array;
  private readonly prefixes = new Map<string, Uint8Array>();
  /** `keyString` of a predicate's keys up to their rest, by kind then predicate. */
  private readonly kindPrefixes = new Map<number, Map<string, string>>();
  /** Every schema key of this namespace. */
  readonly schemaRange: { start: Uint8Array; end: Uint8Array };
  /** Every type key of this namespace. */
  readonly typeRange: { start: Uint8Array; end: Uint8Array };

  constructor(readonly namespace: number) {
    if (!Number.isSafeInteger(namespace) || namespace < 0) {
      throw new RangeError(`namespace must be an integer in [0, 2^53), got ${namespace}`);
    }
    if (namespace === GALAXY_NAMESPACE) {
      this.attrHead = new Uint8Array(0);
      // Galaxy attrs never start with the mark: [prefix, prefix 0xFF) holds exactly the galaxy's.
      this.schemaRange = {
        start: Uint8Array.of(PREFIX_SCHEMA),
        end: Uint8Array.of(PREFIX_SCHEMA, NAMESPACE_MARK),
      };
      this.typeRange = { start: Uint8Array.of(PREFIX_TYPE), end: Uint8Array.of(PREFIX_TYPE, NAMESPACE_MARK) };
    } else {
      this.attrHead = new Uint8Array(NAMESPACE_ATTR_BYTES);
      this.attrHead[0] = NAMESPACE_MARK;
      writeUid(this.attrHead, 1, namespace);
      const schemaStart = concat(PREFIX_SCHEMA, this.attrHead);
      const typeStart = concat(PREFIX_TYPE, this.attrHead);
      this.schemaRange = { start: schemaStart, end: prefixEnd(schemaStart) };
      this.typeRange = { start: typeStart, end: prefixEnd(typeStart) };
    }
  }

  /** The attr of a name in this namespace. */
  attr(name: string): Uint8Array {
    const utf8 = encoder.encode(name);
    if (this.attrHead.length === 0) return utf8;
    const out = new Uint8Array(this.attrHead.length + utf8.length);
    out.set(this.attrHead, 0);
    out.set(utf8, this.attrHead.length);
    return out;
  }

  /** `0x00 | u16 len | attr` (cached). */
  predicatePrefix(pred: string): Uint8Array {
    let p = this.prefixes.get(pred);
    if (p === undefined) {
      const attr = this.attr(pred);
      if (attr.length > 0xffff) throw new RangeError("Predicate name length cannot be bigger than 2^16");
      p = new Uint8Array(3 + attr.length);
      p[0] = PREFIX_PREDICATE;
      p[1] = attr.length >>> 8;
      p[2] = attr.length & 0xff;
      p.set(attr, 3);
      if (this.prefixes.size >= MAX_CACHED_NAMES) this.prefixes.clear();
      this.prefixes.set(pred, p);
    }
    return p;
  }

  private withKind(pred: string, kind: number, restLength: number): { key: Uint8Array; at: number } {
    const prefix = this.predicatePrefix(pred);
    const key = new Uint8Array(prefix.length + 1 + restLength);
    key.set(prefix, 0);
    key[prefix.length] = kind;
    return { key, at: prefix.length + 1 };
  }

  dataKey(pred: string, subject: number): Uint8Array {
    const { key, at } = this.withKind(pred, KeyKind.data, 8);
    writeUid(key, at, subject);
    return key;
  }

  reverseKey(pred: string, object: number): Uint8Array {
    const { key, at } = this.withKind(pred, KeyKind.reverse, 8);
    writeUid(key, at, object);
    return key;
  }

  indexKey(pred: string, token: Uint8Array): Uint8Array {
    const { key, at } = this.withKind(pred, KeyKind.index, token.length);
    key.set(token, at);
    return key;
  }

  countKey(pred: string, count: number, reverse: boolean): Uint8Array {
    const { key, at } = this.withKind(pred, reverse ? KeyKind.countReverse : KeyKind.count, 4);
    writeCount(key, at, count);
    return key;
  }

  /** [start, end) covering every key of one kind of a predicate (optionally narrowed by a rest prefix). */
  kindRange(pred: string, kind: number, restPrefix?: Uint8Array): { start: Uint8Array; end: Uint8Array } {
    const rest = restPrefix ?? new Uint8Array(0);
    const { key: start, at } = this.withKind(pred, kind, rest.length);
    start.set(rest, at);
    return { start, end: prefixEnd(start) };
  }

  /** [start, end) covering every key of a predicate. */
  predicateRange(pred: string): { start: Uint8Array; end: Uint8Array } {
    const start = this.predicatePrefix(pred);
    return { start, end: prefixEnd(start) };
  }

  /**
   * `keyString` of a predicate's keys of one kind up to their rest (uid, token, count): the same string
   * object every time (cached), so Maps keyed by it hash it once.
   */
  kindKeyPrefix(pred: string, kind: number): string {
    let byPred = this.kindPrefixes.get(kind);
    if (byPred === undefined) this.kindPrefixes.set(kind, (byPred = new Map()));
    let p = byPred.get(pred);
    if (p === undefined) {
      p = keyString(this.withKind(pred, kind, 0).key);
      if (byPred.size >= MAX_CACHED_NAMES) byPred.clear();
      byPred.set(pred, p);
    }
    return p;
  }

  /** `keyString(indexKey(pred, token))` is this prefix followed by the token's latin1 string. */
  indexKeyPrefix(pred: string): string {
    return this.kindKeyPrefix(pred, KeyKind.index);
  }

  schemaKey(pred: string): Uint8Array {
    return concat(PREFIX_SCHEMA, this.attr(pred));
  }

  typeKey(name: string): Uint8Array {
    return concat(PREFIX_TYPE, this.attr(name));
  }
}

const keysByNamespace = new Map<number, NamespaceKeys>();

/** The (shared) keys of a namespace. */
export function namespaceKeys(namespace: number): NamespaceKeys {
  let k = keysByNamespace.get(namespace);
  if (k === undefined) {
    k = new NamespaceKeys(namespace);
    keysByNamespace.set(namespace, k);
  }
  return k;
}

/** Forgets a dropped namespace's cached key prefixes. */
export function forgetNamespaceKeys(namespace: number): void {
  if (namespace !== GALAXY_NAMESPACE) keysByNamespace.delete(namespace);
}

/** The galaxy's keys. */
export const GALAXY_KEYS = namespaceKeys(GALAXY_NAMESPACE);

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

function writeCount(key: Uint8Array, at: number, count: number): void {
  key[at] = count >>> 24;
  key[at + 1] = (count >>> 16) & 0xff;
  key[at + 2] = (count >>> 8) & 0xff;
  key[at + 3] = count & 0xff;
}

/**
 * The count key of the same predicate (and namespace) as a data or reverse key: built from that key's
 * prefix, so the committer needs neither the predicate's name nor its namespace.
 */
export function countKeyOf(key: Uint8Array, count: number, reverse: boolean): Uint8Array {
  const at = restOffset(key);
  const out = new Uint8Array(at + 4);
  out.set(key.subarray(0, at - 1), 0);
  out[at - 1] = reverse ? KeyKind.countReverse : KeyKind.count;
  writeCount(out, at, count);
  return out;
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

/** The namespace and name of an attr (a predicate key's, a schema or type key's). */
export function parseAttr(attr: Uint8Array): { namespace: number; name: string } {
  if (attr.length >= NAMESPACE_ATTR_BYTES && attr[0] === NAMESPACE_MARK) {
    return {
      namespace: readUid(attr, 1),
      name: nameDecoder.decode(attr.subarray(NAMESPACE_ATTR_BYTES)),
    };
  }
  return { namespace: GALAXY_NAMESPACE, name: nameDecoder.decode(attr) };
}

/** The namespace and predicate of a predicate key. */
export function attrOfKey(key: Uint8Array): { namespace: number; name: string } {
  return parseAttr(key.subarray(3, restOffset(key) - 1));
}

/** The namespace and name of a schema or type key. */
export function attrOfCatalogKey(key: Uint8Array): { namespace: number; name: string } {
  return parseAttr(key.subarray(1));
}

/** The kind byte (KeyKind) of a predicate key, or -1 for other keys. */
export function keyKind(key: Uint8Array): number {
  return key[0] === PREFIX_PREDICATE ? key[restOffset(key) - 1] : -1;
}

export function readCount(key: Uint8Array, at: number): number {
  return ((key[at] << 24) | (key[at + 1] << 16) | (key[at + 2] << 8) | key[at + 3]) >>> 0;
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

/** Every schema key, of every namespace. */
export const allSchemaRange = {
  start: new Uint8Array([PREFIX_SCHEMA]),
  end: new Uint8Array([PREFIX_SCHEMA + 1]),
};
/** Every type key, of every namespace. */
export const allTypesRange = { start: new Uint8Array([PREFIX_TYPE]), end: new Uint8Array([PREFIX_TYPE + 1]) };
/** Every predicate key, of every namespace. */
export const allPredicateKeysRange = {
  start: new Uint8Array([PREFIX_PREDICATE]),
  end: new Uint8Array([PREFIX_PREDICATE + 1]),
};
/** Every tail key, of every namespace. */
export const allTailsRange = { start: new Uint8Array([PREFIX_TAIL]), end: new Uint8Array([PREFIX_TAIL + 1]) };

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
 * (`0x00 | u16 length | attr | kind | u64 uid`), or -1 for any other key.
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
