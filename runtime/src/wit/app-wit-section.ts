/**
 * Keeps an app's own WIT inside its component as a custom section, so a `.wasm` alone says what its
 * records look like even though `componentWit` prints types used from an interface without their fields
 * (see wit-world-generator.ts for why the types live in an interface). Custom sections are ignored by
 * component validation, instantiation and jco transpile.
 */

/** Name of the custom section holding the app package's WIT text (UTF-8). */
export const APP_WIT_SECTION = "trellis:app-wit";

const PREAMBLE_BYTES = 8;

export function embedAppWit(component: Uint8Array, witText: string): Uint8Array {
  const name = new TextEncoder().encode(APP_WIT_SECTION);
  const payload = new TextEncoder().encode(witText);
  const content = concat([uleb128(name.length), name, payload]);
  return concat([component, Uint8Array.of(0), uleb128(content.length), content]);
}

/** The embedded WIT text, or undefined when the component has none (e.g. a Go app). */
export function readAppWit(component: Uint8Array): string | undefined {
  let offset = PREAMBLE_BYTES;
  while (offset < component.length) {
    const id = component[offset]!;
    const size = readUleb128(component, offset + 1);
    const start = size.next;
    if (id === 0) {
      const nameLength = readUleb128(component, start);
      const name = new TextDecoder().decode(
        component.subarray(nameLength.next, nameLength.next + nameLength.value),
      );
      if (name === APP_WIT_SECTION) {
        return new TextDecoder().decode(
          component.subarray(nameLength.next + nameLength.value, start + size.value),
        );
      }
    }
    offset = start + size.value;
  }
  return undefined;
}

function uleb128(value: number): Uint8Array {
  const bytes: number[] = [];
  let v = value;
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0);
  return Uint8Array.from(bytes);
}

function readUleb128(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let factor = 1;
  let i = at;
  for (;;) {
    const byte = bytes[i++];
    if (byte === undefined) throw new Error("truncated component: bad section size");
    value += (byte & 0x7f) * factor;
    if ((byte & 0x80) === 0) return { value, next: i };
    factor *= 128;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
