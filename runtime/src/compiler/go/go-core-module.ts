/**
 * What the Go build reads from a core module before making it a component: its function imports (to
 * reject imports the component cannot satisfy, and to find the duplicates Go's linker emits) and where
 * a marked array of its data lies (the preview1 adapter's arena, see the SDK's wasmabi/adapter_arena.go).
 * A minimal reader of the wasm binary format: sections are skipped by size, only the import and data
 * sections are decoded.
 */

export interface CoreImport {
  module: string;
  name: string;
  kind: "func" | "table" | "memory" | "global" | "tag";
}

export interface CoreModuleFacts {
  imports: CoreImport[];
  /** Active data segments of memory 0 with a constant offset: where they go and their bytes. */
  data: { address: number; bytes: Uint8Array }[];
}

const KINDS = ["func", "table", "memory", "global", "tag"] as const;

export function readCoreModuleFacts(module: Uint8Array): CoreModuleFacts {
  if (
    module.length < 8 ||
    module[0] !== 0 ||
    module[1] !== 0x61 ||
    module[2] !== 0x73 ||
    module[3] !== 0x6d
  ) {
    throw new Error("not a WebAssembly module");
  }
  if (module[4] !== 1)
    throw new Error("the compiler produced a component or an unknown wasm version, not a core module");
  const reader = new Reader(module, 8);
  const facts: CoreModuleFacts = { imports: [], data: [] };
  while (!reader.done()) {
    const id = reader.byte();
    const size = reader.uleb();
    const end = reader.offset + size;
    if (id === 2) readImports(new Reader(module, reader.offset, end), facts.imports);
    if (id === 11) facts.data = readData(new Reader(module, reader.offset, end));
    reader.offset = end;
  }
  return facts;
}

function readImports(r: Reader, out: CoreImport[]): void {
  const count = r.uleb();
  for (let i = 0; i < count; i++) {
    const module = r.name();
    const name = r.name();
    const kind = r.byte();
    out.push({ module, name, kind: KINDS[kind] ?? "func" });
    switch (kind) {
      case 0: // type index
        r.uleb();
        break;
      case 1: // table: reftype + limits
        r.byte();
        r.limits();
        break;
      case 2:
        r.limits();
        break;
      case 3: // global: valtype + mutability
        r.byte();
        r.byte();
        break;
      case 4: // tag: attribute + type index
        r.byte();
        r.uleb();
        break;
      default:
        throw new Error(`unknown import kind ${kind}`);
    }
  }
}

function readData(r: Reader): CoreModuleFacts["data"] {
  const segments: CoreModuleFacts["data"] = [];
  const count = r.uleb();
  for (let i = 0; i < count; i++) {
    const flags = r.uleb();
    if (flags === 1) {
      r.offset += r.uleb(); // passive: bytes only
      continue;
    }
    const memory = flags === 2 ? r.uleb() : 0;
    const op = r.byte();
    const address = op === 0x41 ? r.sleb() >>> 0 : undefined;
    if (op !== 0x41) {
      // Not an i32.const: skip the expression up to its `end`.
      while (r.byte() !== 0x0b) {}
    } else if (r.byte() !== 0x0b) throw new Error("unexpected data segment offset expression");
    const length = r.uleb();
    if (address !== undefined && memory === 0) segments.push({ address, bytes: r.bytesAt(r.offset, length) });
    r.offset += length;
  }
  return segments;
}

/** Addresses where `needle` starts inside the module's data segments. */
export function findInData(facts: CoreModuleFacts, needle: Uint8Array): number[] {
  const found: number[] = [];
  for (const segment of facts.data) {
    for (let at = indexOf(segment.bytes, needle, 0); at >= 0; at = indexOf(segment.bytes, needle, at + 1)) {
      found.push(segment.address + at);
    }
  }
  return found;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle, from);
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset: number,
    private readonly end = bytes.length,
  ) {}

  done(): boolean {
    return this.offset >= this.end;
  }

  byte(): number {
    if (this.offset >= this.end) throw new Error("truncated wasm module");
    return this.bytes[this.offset++]!;
  }

  uleb(): number {
    let value = 0;
    let factor = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * factor;
      if ((b & 0x80) === 0) return value;
      factor *= 128;
    }
  }

  sleb(): number {
    let value = 0;
    let shift = 0;
    let b: number;
    do {
      b = this.byte();
      value |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    return shift < 32 && b & 0x40 ? value | (-1 << shift) : value;
  }

  limits(): void {
    const flags = this.uleb();
    this.uleb();
    if (flags & 1) this.uleb();
  }

  bytesAt(offset: number, length: number): Uint8Array {
    return this.bytes.subarray(offset, offset + length);
  }

  name(): string {
    const length = this.uleb();
    const text = new TextDecoder().decode(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return text;
  }
}
