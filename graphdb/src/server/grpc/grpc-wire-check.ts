/**
 * Strict protobuf wire-format checking of request messages, as grpc-go's decoder does before Dgraph sees
 * a request. protobufjs decodes leniently — a known field with the wrong wire type is read as its declared
 * type, a length running past the end is clamped, a truncated varint reads as zeros — so a malformed
 * message could otherwise turn into a surprising request instead of an error.
 *
 * Checked: every tag, wire type (known fields must have their declared one; repeated numeric fields may be
 * packed), varint termination, lengths within bounds, UTF-8 of string fields, nested messages recursively.
 * Unknown fields are skipped by wire type, as proto3 requires; groups (wire types 3/4) are refused.
 */
import { isUtf8 } from "node:buffer";
import type { PackageDefinition } from "@grpc/proto-loader";

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
}

interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
}

interface FieldShape {
  path: string;
  wireType: number;
  packable: boolean;
  utf8: boolean;
  /** Resolved lazily (messages may refer to each other). */
  message?: () => MessageShape;
}

export interface MessageShape {
  name: string;
  fields: Map<number, FieldShape>;
}

function wireTypeOf(type: string): number {
  switch (type) {
    case "TYPE_DOUBLE":
    case "TYPE_FIXED64":
    case "TYPE_SFIXED64":
      return FIXED64;
    case "TYPE_FLOAT":
    case "TYPE_FIXED32":
    case "TYPE_SFIXED32":
      return FIXED32;
    case "TYPE_STRING":
    case "TYPE_BYTES":
    case "TYPE_MESSAGE":
      return LENGTH_DELIMITED;
    default:
      return VARINT;
  }
}

/** Builds (and caches) the shapes of a package's messages from proto-loader's descriptors. */
export class WireShapes {
  private readonly cache = new Map<string, MessageShape>();

  constructor(
    private readonly pkg: PackageDefinition,
    private readonly packageName: string,
  ) {}

  /** The shape of `api.Request` and the like, by full name. */
  shape(fullName: string): MessageShape {
    const cached = this.cache.get(fullName);
    if (cached) return cached;
    const entry = this.pkg[fullName] as { type?: MessageDescriptor } | undefined;
    if (!entry?.type?.field) throw new Error(`no message ${fullName} in the package`);
    return this.build(fullName, entry.type);
  }

  private build(fullName: string, desc: MessageDescriptor): MessageShape {
    const shape: MessageShape = { name: fullName, fields: new Map() };
    this.cache.set(fullName, shape);
    for (const f of desc.field) {
      const wireType = wireTypeOf(f.type);
      const field: FieldShape = {
        path: `${fullName}.${f.name}`,
        wireType,
        packable: f.label === "LABEL_REPEATED" && wireType !== LENGTH_DELIMITED,
        utf8: f.type === "TYPE_STRING",
      };
      if (f.type === "TYPE_MESSAGE") {
        const nested = desc.nestedType.find((n) => n.name === f.typeName);
        field.message = nested
          ? () =>
              this.cache.get(`${fullName}.${nested.name}`) ?? this.build(`${fullName}.${nested.name}`, nested)
          : () =>
              this.shape(
                f.typeName.includes(".")
                  ? f.typeName.replace(/^\./, "")
                  : `${this.packageName}.${f.typeName}`,
              );
      }
      shape.fields.set(f.number, field);
    }
    return shape;
  }
}

class WireError extends Error {}

/** Reads a varint at `pos`; returns [value, next position]. Values past 2^53 lose precision, harmlessly. */
function readVarint(buf: Uint8Array, pos: number, end: number, what: string): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw new WireError(`${what}: truncated varint`);
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, pos];
    scale *= 128;
  }
  throw new WireError(`${what}: varint longer than 10 bytes`);
}

function checkMessage(buf: Uint8Array, start: number, end: number, shape: MessageShape, depth: number): void {
  if (depth > 100) throw new WireError(`${shape.name}: nested too deeply`);
  let pos = start;
  while (pos < end) {
    let tag: number;
    [tag, pos] = readVarint(buf, pos, end, `${shape.name}: field tag`);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (number === 0 || number > 0x1fffffff)
      throw new WireError(`${shape.name}: invalid field number ${number}`);
    const field = shape.fields.get(number);
    const what = field?.path ?? `${shape.name} field ${number}`;
    if (field && wireType !== field.wireType && !(field.packable && wireType === LENGTH_DELIMITED)) {
      throw new WireError(`${what}: wire type ${wireType}, expected ${field.wireType}`);
    }
    switch (wireType) {
      case VARINT:
        [, pos] = readVarint(buf, pos, end, what);
        break;
      case FIXED64:
      case FIXED32: {
        const size = wireType === FIXED64 ? 8 : 4;
        if (pos + size > end) throw new WireError(`${what}: truncated ${size * 8}-bit value`);
        pos += size;
        break;
      }
      case LENGTH_DELIMITED: {
        let length: number;
        [length, pos] = readVarint(buf, pos, end, `${what} length`);
        if (length > end - pos)
          throw new WireError(`${what}: length ${length} runs past the end of the message`);
        const valueEnd = pos + length;
        if (field?.message) {
          checkMessage(buf, pos, valueEnd, field.message(), depth + 1);
        } else if (field?.packable) {
          checkPacked(buf, pos, valueEnd, field);
        } else if (field?.utf8 && !isUtf8(buf.subarray(pos, valueEnd))) {
          throw new WireError(`${what}: invalid UTF-8`);
        }
        pos = valueEnd;
        break;
      }
      case 3:
      case 4:
        throw new WireError(`${what}: groups (wire type ${wireType}) are not supported`);
      default:
        throw new WireError(`${what}: invalid wire type ${wireType}`);
    }
  }
}

function checkPacked(buf: Uint8Array, start: number, end: number, field: FieldShape): void {
  if (field.wireType === VARINT) {
    let pos = start;
    while (pos < end) [, pos] = readVarint(buf, pos, end, field.path);
    return;
  }
  const size = field.wireType === FIXED64 ? 8 : 4;
  if ((end - start) % size !== 0)
    throw new WireError(`${field.path}: packed length not a multiple of ${size}`);
}

/** Throws an Error naming the first problem when `bytes` is not a well-formed `shape` message. */
export function checkWireFormat(bytes: Uint8Array, shape: MessageShape): void {
  checkMessage(bytes, 0, bytes.length, shape, 0);
}
