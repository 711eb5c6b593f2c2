/** Column values as the record types want them, whichever driver (PGlite, `pg`) read the row. */

/** A timestamp column as an ISO string. */
export const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** A nullable timestamp column as an ISO string or null. */
export const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

/** A jsonb column, parsed when the driver returned text. */
export const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;
