/**
 * Caps the linear memories a core module defines at `maxPages` (64 KiB each) by rewriting its memory
 * section. V8 then makes `memory.grow` fail past the cap (the guest sees -1 and usually traps), which is
 * how a per-worker memory limit reaches wasm memory: `resourceLimits` only bounds the JS heap.
 * Imported memories are left alone (the defining module carries the cap); shared and 64-bit memories too.
 */
export function capMemoryPages(module: Uint8Array, maxPages: number): Uint8Array {
  if (
    module.length < 8 ||
    module[0] !== 0 ||
    module[1] !== 0x61 ||
    module[2] !== 0x73 ||
    module[3] !== 0x6d
  ) {
    throw new Error("not a core WebAssembly module");
  }
  let offset = 8;
  while (offset < module.length) {
    const sectionStart = offset;
    const id = module[offset++];
    const size = readUleb(module, offset);
    offset = size.next;
    const contentStart = offset;
    const contentEnd = contentStart + size.value;
    if (id === 5) {
      const content = rewriteMemorySection(module.subarray(contentStart, contentEnd), maxPages);
      const header = [5, ...writeUleb(content.length)];
      const out = new Uint8Array(
        sectionStart + header.length + content.length + (module.length - contentEnd),
      );
      out.set(module.subarray(0, sectionStart), 0);
      out.set(header, sectionStart);
      out.set(content, sectionStart + header.length);
      out.set(module.subarray(contentEnd), sectionStart + header.length + content.length);
      return out;
    }
    offset = contentEnd;
  }
  return module;
}

function rewriteMemorySection(content: Uint8Array, maxPages: number): Uint8Array {
  const bytes: number[] = [];
  const count = readUleb(content, 0);
  bytes.push(...writeUleb(count.value));
  let offset = count.next;
  for (let i = 0; i < count.value; i++) {
    const flags = content[offset++];
    const min = readUleb(content, offset);
    offset = min.next;
    let max: number | undefined;
    if (flags & 1) {
      const m = readUleb(content, offset);
      offset = m.next;
      max = m.value;
    }
    if (flags > 1) {
      // Shared (0x02) or 64-bit (0x04) memories: copied unchanged.
      bytes.push(flags, ...writeUleb(min.value));
      if (max !== undefined) bytes.push(...writeUleb(max));
      continue;
    }
    const capped = Math.max(min.value, Math.min(max ?? Number.POSITIVE_INFINITY, maxPages));
    bytes.push(1, ...writeUleb(min.value), ...writeUleb(capped));
  }
  bytes.push(...content.subarray(offset));
  return Uint8Array.from(bytes);
}

function readUleb(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: offset };
    shift += 7;
  }
}

function writeUleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}
