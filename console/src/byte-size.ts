const UNITS = ["KB", "MB", "GB"] as const;

/** "38 bytes", "12.4 KB", "3.1 MB": a size as people read it (1 KB = 1024 bytes). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = "KB";
  for (const next of UNITS) {
    value /= 1024;
    unit = next;
    if (value < 1024) break;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}
