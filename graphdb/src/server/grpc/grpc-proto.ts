/**
 * Dgraph's `api.proto` (graphdb/proto/api.proto) loaded with @grpc/proto-loader, and the TypeScript shapes
 * of its messages as proto-loader presents them: snake_case field names, uint64 as numbers, bytes as
 * Buffers, enums as their names, absent scalar fields filled with their defaults.
 */
import { fileURLToPath } from "node:url";
import type { ServiceDefinition } from "@grpc/grpc-js";
import { loadSync, type Options, type PackageDefinition } from "@grpc/proto-loader";

export const API_PROTO_PATH = fileURLToPath(new URL("../../../proto/api.proto", import.meta.url));

export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  // Timestamps and uids stay far below 2^53.
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

let apiPackage: PackageDefinition | undefined;

/** Everything api.proto defines, by full name (`api.Dgraph`, `api.Request`, …), loaded once. */
export function apiPackageDefinition(): PackageDefinition {
  apiPackage ??= loadSync(API_PROTO_PATH, PROTO_LOADER_OPTIONS);
  return apiPackage;
}

/** The `api.Dgraph` service definition (paths `/api.Dgraph/Query`, …). */
export function dgraphServiceDefinition(): ServiceDefinition {
  return apiPackageDefinition()["api.Dgraph"] as ServiceDefinition;
}

export type RespFormat = "JSON" | "RDF";
export type DropOp = "NONE" | "ALL" | "DATA" | "ATTR" | "TYPE";
export type FacetValType = "STRING" | "INT" | "FLOAT" | "BOOL" | "DATETIME";

export interface ApiValue {
  /** Which member of the `val` oneof is set. */
  val?:
    | "default_val"
    | "bytes_val"
    | "int_val"
    | "bool_val"
    | "str_val"
    | "double_val"
    | "geo_val"
    | "date_val"
    | "datetime_val"
    | "password_val"
    | "uid_val"
    | "bigfloat_val"
    | "vfloat32_val";
  default_val?: string;
  bytes_val?: Buffer;
  int_val?: number;
  bool_val?: boolean;
  str_val?: string;
  double_val?: number;
  geo_val?: Buffer;
  date_val?: Buffer;
  datetime_val?: Buffer;
  password_val?: string;
  uid_val?: number;
  bigfloat_val?: Buffer;
  vfloat32_val?: Buffer;
}

export interface ApiFacet {
  key: string;
  value: Buffer;
  val_type: FacetValType;
  tokens: string[];
  alias: string;
}

export interface ApiNQuad {
  subject: string;
  predicate: string;
  object_id: string;
  object_value: ApiValue | null;
  lang: string;
  facets: ApiFacet[];
  namespace: number;
}

export interface ApiMutation {
  set_json: Buffer;
  delete_json: Buffer;
  set_nquads: Buffer;
  del_nquads: Buffer;
  set: ApiNQuad[];
  del: ApiNQuad[];
  cond: string;
  commit_now: boolean;
}

export interface ApiRequest {
  start_ts: number;
  query: string;
  vars: Record<string, string>;
  read_only: boolean;
  best_effort: boolean;
  mutations: ApiMutation[];
  commit_now: boolean;
  resp_format: RespFormat;
  hash: string;
}

export interface ApiTxnContext {
  start_ts: number;
  commit_ts: number;
  aborted: boolean;
  keys: string[];
  preds: string[];
  hash: string;
}

export interface ApiLatency {
  parsing_ns: number;
  processing_ns: number;
  encoding_ns: number;
  assign_timestamp_ns: number;
  total_ns: number;
}

/** What the handlers return as an `api.Response` (proto-loader fills the rest with defaults). */
export interface ApiResponse {
  json?: Buffer;
  txn?: Partial<ApiTxnContext>;
  latency?: Partial<ApiLatency>;
  metrics?: { num_uids: Record<string, number> };
  uids?: Record<string, string>;
  /** `uids` already encoded (`encodeUids`), in its place. */
  encodedUids?: Buffer;
  rdf?: Buffer;
}

export interface ApiOperation {
  schema: string;
  drop_attr: string;
  drop_all: boolean;
  drop_op: DropOp;
  drop_value: string;
  run_in_background: boolean;
}

export interface ApiLoginRequest {
  userid: string;
  password: string;
  refresh_token: string;
  namespace: number;
}

export interface ApiDropNamespaceRequest {
  namespace: number;
}

export interface ApiCreateNamespaceResponse {
  namespace: number;
}

/** `map<uint64, Namespace>`: protobufjs takes 64-bit map keys as decimal strings. */
export interface ApiListNamespacesResponse {
  namespaces: Record<string, { id: number }>;
}

/**
 * A minimal protobuf writer for the hot responses. proto-loader's serializer converts every object with
 * `fromObject` first; encoding `api.Response` directly is about twice as fast and allocates less.
 */
class ProtoWriter {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** An unsigned varint; exact up to 2^53. */
  varint(n: number): void {
    this.ensure(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  /** A uint64/bool field, omitted when zero (proto3). */
  uint(field: number, n: number | boolean | undefined): void {
    const v = typeof n === "boolean" ? (n ? 1 : 0) : (n ?? 0);
    if (v === 0) return;
    this.tag(field, 0);
    this.varint(v);
  }

  /** Bytes already encoded as fields. */
  raw(value: Uint8Array): void {
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  bytes(field: number, value: Uint8Array | undefined): void {
    if (!value || value.length === 0) return;
    this.tag(field, 2);
    this.varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  string(field: number, value: string | undefined, always = false): void {
    if (value === undefined || (value === "" && !always)) return;
    if (value.length < 0x80 && this.asciiString(field, value)) return;
    const length = Buffer.byteLength(value);
    this.tag(field, 2);
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(value, this.pos, "utf8");
  }

  /**
   * A short string written byte by byte when it is all ASCII (uids, blank-node labels, keys): a native
   * call per string costs more than the copy. False, having written nothing, when it is not ASCII.
   */
  private asciiString(field: number, value: string): boolean {
    const from = this.pos;
    this.tag(field, 2);
    const n = value.length;
    this.ensure(n + 1);
    const buf = this.buf;
    let p = this.pos;
    buf[p++] = n;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = from;
        return false;
      }
      buf[p++] = c;
    }
    this.pos = p;
    return true;
  }

  /** A length-delimited sub-message, its fields written by `body`. */
  message(field: number, body: () => void): void {
    this.tag(field, 2);
    // Reserve one length byte; move the body if the length needs more.
    this.ensure(1);
    const lengthAt = this.pos++;
    const start = this.pos;
    body();
    const length = this.pos - start;
    if (length < 0x80) {
      this.buf[lengthAt] = length;
      return;
    }
    const moved = Buffer.from(this.buf.subarray(start, this.pos));
    this.pos = lengthAt;
    this.varint(length);
    this.ensure(length);
    moved.copy(this.buf, this.pos);
    this.pos += length;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

function writeTxn(w: ProtoWriter, txn: Partial<ApiTxnContext>): void {
  w.uint(1, txn.start_ts);
  w.uint(2, txn.commit_ts);
  w.uint(3, txn.aborted);
  for (const key of txn.keys ?? []) w.string(4, key, true);
  for (const pred of txn.preds ?? []) w.string(5, pred, true);
  w.string(6, txn.hash);
}

/** Binary `api.Response` (fields 1 json, 2 txn, 3 latency, 4 metrics, 12 uids, 13 rdf). */
export function encodeResponse(res: ApiResponse): Buffer {
  const w = new ProtoWriter();
  w.bytes(1, res.json);
  const txn = res.txn;
  if (txn) w.message(2, () => writeTxn(w, txn));
  const latency = res.latency;
  if (latency) {
    w.message(3, () => {
      w.uint(1, latency.parsing_ns);
      w.uint(2, latency.processing_ns);
      w.uint(3, latency.encoding_ns);
      w.uint(4, latency.assign_timestamp_ns);
      w.uint(5, latency.total_ns);
    });
  }
  const metrics = res.metrics;
  if (metrics) {
    w.message(4, () => {
      for (const [key, value] of Object.entries(metrics.num_uids)) {
        w.message(1, () => {
          w.string(1, key);
          w.uint(2, value);
        });
      }
    });
  }
  const uids = res.uids;
  if (uids !== undefined) for (const key of Object.keys(uids)) writeUid(w, key, uids[key]);
  if (res.encodedUids !== undefined) w.raw(res.encodedUids);
  w.bytes(13, res.rdf);
  return w.finish();
}

/** One entry of `Response.uids` (map<string, string>, field 12). */
function writeUid(w: ProtoWriter, label: string, uid: string): void {
  w.message(12, () => {
    w.string(1, label);
    w.string(2, uid);
  });
}

/**
 * `Response.uids` encoded ahead of the rest (`ApiResponse.encodedUids`), pausing between slices: a
 * mutation's blank nodes can be tens of thousands, which grpc-js would otherwise encode in one go.
 */
export async function encodeUids(
  uids: Record<string, string>,
  pause: () => Promise<void> | undefined,
): Promise<Buffer> {
  const w = new ProtoWriter();
  let i = 0;
  for (const key of Object.keys(uids)) {
    writeUid(w, key, uids[key]);
    if ((++i & 1023) === 0) {
      const paused = pause();
      if (paused !== undefined) await paused;
    }
  }
  return w.finish();
}

/**
 * Binary `api.Jwt{access_jwt = 1, refresh_jwt = 2}`: what gRPC `Login` returns inside `Response.json`
 * (clients decode it with `Jwt.deserializeBinary`).
 */
export function encodeJwt(accessJwt: string, refreshJwt: string): Buffer {
  const w = new ProtoWriter();
  w.string(1, accessJwt);
  w.string(2, refreshJwt);
  return Buffer.from(w.finish());
}
