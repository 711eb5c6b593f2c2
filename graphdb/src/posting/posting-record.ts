import { Packr } from "msgpackr";
import type { Facet, FacetType } from "../core/facet.ts";
import type { UidList, ValuePosting } from "../core/graph-reader.ts";
import type { ScalarType, TypedValue } from "../core/scalar.ts";
import { decodeUids, EMPTY_UIDS, encodeUids } from "./uid-list.ts";

/**
 * What one data key (predicate, subject) holds: forward uid edges (with optional facets per edge) for uid
 * predicates, or value postings for scalar predicates. Index, reverse and count keys hold bare uid lists.
 *
 * Encoding: tag byte, then
 *   0x01 uid list                       (also the format of index/reverse/count keys)
 *   0x02 uid list, msgpack [[uid, facets], ...]
 *   0x03 msgpack [[typeCode, value, lang, facets?], ...]
 */
export interface DataRecord {
  uids: UidList;
  uidFacets?: Map<number, Facet[]>;
  values: ValuePosting[];
}

const TAG_UIDS = 0x01;
const TAG_UIDS_FACETS = 0x02;
const TAG_VALUES = 0x03;
/** Large bare uid lists: u32 LE count and f64 LE last uid up front, so adding higher uids is an append. */
const TAG_UIDS_APPENDABLE = 0x04;
const APPENDABLE_HEADER = 13;
/** Lists at least this long are stored appendable. */
const APPENDABLE_MIN = 128;

const SCALAR_TYPES: ScalarType[] = [
  "default",
  "int",
  "float",
  "string",
  "bool",
  "datetime",
  "geo",
  "password",
  "uid",
  "binary",
  "bigfloat",
  "float32vector",
];
const SCALAR_CODE = new Map(SCALAR_TYPES.map((t, i) => [t, i]));
const FACET_TYPES: FacetType[] = ["string", "int", "float", "bool", "datetime"];
const FACET_CODE = new Map(FACET_TYPES.map((t, i) => [t, i]));

const packr = new Packr({ useRecords: false, moreTypes: false, mapsAsObjects: true });

export const EMPTY_RECORD: DataRecord = Object.freeze({ uids: EMPTY_UIDS, values: [] }) as DataRecord;

type PackedFacet = [string, string | number | boolean, number];
const packFacets = (fs: Facet[]): PackedFacet[] =>
  fs.map((f) => [f.key, f.value, FACET_CODE.get(f.type) ?? 0]);
const unpackFacets = (fs: PackedFacet[]): Facet[] =>
  fs.map(([key, value, t]) => ({ key, value, type: FACET_TYPES[t] ?? "string" }));

export function encodeUidList(uids: UidList): Uint8Array {
  if (uids.length >= APPENDABLE_MIN) {
    const body = encodeUids(uids, 0);
    const skip = varintBytes(body);
    const buf = new Uint8Array(APPENDABLE_HEADER + body.length - skip);
    writeAppendableHeader(buf, uids.length, uids[uids.length - 1]);
    buf.set(body.subarray(skip), APPENDABLE_HEADER);
    return buf;
  }
  const buf = encodeUids(uids, 1);
  buf[0] = TAG_UIDS;
  return buf;
}

export function decodeUidList(buf: Uint8Array | undefined): UidList {
  if (buf === undefined || buf.length === 0) return EMPTY_UIDS;
  if (buf[0] === TAG_UIDS_APPENDABLE) return decodeAppendable(buf);
  return decodeUids(buf, 1).uids;
}

/**
 * Appends sorted uids, all greater than the list's last, to an encoded bare uid list without decoding it.
 * Returns undefined when the fast path does not apply (small or differently encoded list, or out of order).
 */
export function appendToUidList(buf: Uint8Array | undefined, adds: Float64Array): Uint8Array | undefined {
  if (buf === undefined || buf[0] !== TAG_UIDS_APPENDABLE || adds.length === 0) return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const count = view.getUint32(1, true);
  const last = view.getFloat64(5, true);
  if (adds[0] <= last) return undefined;
  const gaps = encodeGaps(adds, last);
  const out = new Uint8Array(buf.length + gaps.length);
  out.set(buf, 0);
  out.set(gaps, buf.length);
  writeAppendableHeader(out, count + adds.length, adds[adds.length - 1]);
  return out;
}

/** Count and last uid of an appendable list (or a list tail), or undefined for other encodings. */
export function appendableHeader(buf: Uint8Array | undefined): { count: number; last: number } | undefined {
  if (buf === undefined || buf[0] !== TAG_UIDS_APPENDABLE) return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return { count: view.getUint32(1, true), last: view.getFloat64(5, true) };
}

/**
 * A list tail: sorted uids, all greater than `after` (the last uid of the list it extends), in the
 * appendable format with gaps counted from `after`, so that {@link joinTail} is a concatenation.
 */
export function encodeTail(adds: Float64Array, after: number): Uint8Array {
  const gaps = encodeGaps(adds, after);
  const out = new Uint8Array(APPENDABLE_HEADER + gaps.length);
  out.set(gaps, APPENDABLE_HEADER);
  writeAppendableHeader(out, adds.length, adds[adds.length - 1]);
  return out;
}

/** An appendable list followed by its tail, as one appendable list. */
export function joinTail(list: Uint8Array, tail: Uint8Array): Uint8Array {
  const a = appendableHeader(list);
  const b = appendableHeader(tail);
  if (a === undefined || b === undefined) throw new Error("corrupt posting list tail");
  const out = new Uint8Array(list.length + tail.length - APPENDABLE_HEADER);
  out.set(list, 0);
  out.set(tail.subarray(APPENDABLE_HEADER), list.length);
  writeAppendableHeader(out, a.count + b.count, b.last);
  return out;
}

function encodeGaps(adds: Float64Array, last: number): Uint8Array {
  const bytes: number[] = [];
  let prev = last;
  for (let i = 0; i < adds.length; i++) {
    let n = adds[i] - prev;
    prev = adds[i];
    while (n >= 128) {
      bytes.push((n % 128) | 128);
      n = Math.floor(n / 128);
    }
    bytes.push(n);
  }
  return Uint8Array.from(bytes);
}

function writeAppendableHeader(buf: Uint8Array, count: number, last: number): void {
  buf[0] = TAG_UIDS_APPENDABLE;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  view.setUint32(1, count, true);
  view.setFloat64(5, last, true);
}

function decodeAppendable(buf: Uint8Array): UidList {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const count = view.getUint32(1, true);
  const uids = new Float64Array(count);
  let at = APPENDABLE_HEADER;
  let prev = 0;
  for (let i = 0; i < count; i++) {
    let b = buf[at++];
    let delta = b & 127;
    let mul = 128;
    while (b & 128) {
      b = buf[at++];
      delta += (b & 127) * mul;
      mul *= 128;
    }
    prev += delta;
    uids[i] = prev;
  }
  return uids;
}

/** Length of the leading varint (the count written by encodeUids). */
function varintBytes(buf: Uint8Array): number {
  let i = 0;
  while (buf[i] & 128) i++;
  return i + 1;
}

export function encodeRecord(rec: DataRecord): Uint8Array {
  if (rec.values.length > 0) {
    const packed = rec.values.map((p) => {
      const row: unknown[] = [SCALAR_CODE.get(p.value.type) ?? 0, p.value.value, p.lang];
      if (p.facets && p.facets.length > 0) row.push(packFacets(p.facets));
      return row;
    });
    return withTag(TAG_VALUES, packr.pack(packed));
  }
  if (rec.uidFacets && rec.uidFacets.size > 0) {
    const head = encodeUids(rec.uids, 1);
    head[0] = TAG_UIDS_FACETS;
    const facets: [number, PackedFacet[]][] = [];
    for (const [uid, fs] of rec.uidFacets) if (fs.length > 0) facets.push([uid, packFacets(fs)]);
    const tail = packr.pack(facets);
    const out = new Uint8Array(head.length + tail.length);
    out.set(head, 0);
    out.set(tail, head.length);
    return out;
  }
  return encodeUidList(rec.uids);
}

export function decodeRecord(buf: Uint8Array | undefined): DataRecord {
  if (buf === undefined || buf.length === 0) return EMPTY_RECORD;
  switch (buf[0]) {
    case TAG_UIDS:
      return { uids: decodeUids(buf, 1).uids, values: [] };
    case TAG_UIDS_APPENDABLE:
      return { uids: decodeAppendable(buf), values: [] };
    case TAG_UIDS_FACETS: {
      const { uids, end } = decodeUids(buf, 1);
      const packed = packr.unpack(buf.subarray(end)) as [number, PackedFacet[]][];
      return { uids, values: [], uidFacets: new Map(packed.map(([u, fs]) => [u, unpackFacets(fs)])) };
    }
    case TAG_VALUES: {
      const rows = packr.unpack(buf.subarray(1)) as [number, TypedValue["value"], string, PackedFacet[]?][];
      const values: ValuePosting[] = rows.map(([t, value, lang, fs]) => {
        const p: ValuePosting = { value: { type: SCALAR_TYPES[t] ?? "default", value }, lang };
        if (fs) p.facets = unpackFacets(fs);
        return p;
      });
      return { uids: EMPTY_UIDS, values };
    }
    default:
      throw new Error(`corrupt posting record: unknown tag ${buf[0]}`);
  }
}

/**
 * decodeRecord of a view that the next store read overwrites: bare uid lists are decoded into new arrays
 * at once; other records are copied first, as msgpack may hand back views of binary values.
 */
export function decodeRecordView(buf: Uint8Array | undefined): DataRecord {
  if (buf === undefined || buf.length === 0 || buf[0] === TAG_UIDS) return decodeRecord(buf);
  return decodeRecord(Uint8Array.prototype.slice.call(buf) as Uint8Array);
}

function withTag(tag: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 1);
  out[0] = tag;
  out.set(body, 1);
  return out;
}

/**
 * Identity of a value posting within its (subject, predicate), as in Dgraph: a non-list predicate holds one
 * value per language; a list predicate one posting per distinct (language, value).
 */
export function valueIdentity(list: boolean, lang: string, value: TypedValue): string {
  if (!list) return lang;
  const v = value.value;
  return `${lang}\u0000${typeof v === "object" ? JSON.stringify(v) : String(v)}`;
}
