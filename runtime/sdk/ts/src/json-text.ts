/** JSON for the host: bigints become decimal strings (JSON has no bigint; databases accept the text). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "null";
}
