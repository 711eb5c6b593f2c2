/**
 * Conflict keys as Dgraph renders them: a 64-bit-ish fingerprint of the storage key, optionally mixed with
 * a value id, written in base 36. Ours is 52 bits (two FNV-1a lanes) so it stays an exact JS number; a
 * collision can only cause a spurious abort, never a missed conflict.
 */
export function fingerprint(bytes: Uint8Array, valueId = 0): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b, 0x5bd1e995) ^ (h2 >>> 15);
  }
  if (valueId !== 0) {
    const lo = valueId >>> 0;
    const hi = Math.floor(valueId / 0x100000000) >>> 0;
    h1 = Math.imul(h1 ^ lo, 0x01000193);
    h1 = Math.imul(h1 ^ hi, 0x01000193);
    h2 = Math.imul(h2 ^ hi, 0x5bd1e995) ^ (h2 >>> 13);
    h2 = Math.imul(h2 ^ lo, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0) * 0x100000 + ((h2 >>> 0) & 0xfffff);
}

/** Hash of a value (for list-predicate conflict keys): FNV-1a over its canonical string. */
export function valueFingerprint(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return (h >>> 0) + 1;
}

/** Dgraph's wire form of a conflict key. */
export function conflictKeyText(fp: number): string {
  return fp.toString(36);
}
