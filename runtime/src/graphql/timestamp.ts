import { GraphQLError } from "./graphql-js.ts";

/**
 * The GraphQL scalar Timestamp: an RFC 3339 date-time string on the wire, the WIT record `timestamp`
 * (seconds and nanoseconds since the Unix epoch, jco's `{ seconds: bigint, nanoseconds: number }`) in
 * the runtime. Nanosecond precision is kept both ways (JavaScript's Date would round to milliseconds).
 */

export interface TimestampValue {
  seconds: bigint;
  nanoseconds: number;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 date-time (`2024-05-06T07:08:09.123456789Z`, `…+02:00`). */
export function parseTimestamp(text: unknown): TimestampValue {
  const m = typeof text === "string" ? RFC3339.exec(text.trim()) : null;
  if (!m) {
    throw new GraphQLError(
      `Timestamp cannot represent ${JSON.stringify(text)}: expected an RFC 3339 date-time such as "2024-05-06T07:08:09Z"`,
    );
  }
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  ) {
    throw new GraphQLError(`Timestamp cannot represent ${JSON.stringify(text)}: no such date or time`);
  }
  const offsetMinutes = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const seconds = BigInt(date.getTime() / 1000) - BigInt(offsetMinutes * 60);
  const nanoseconds = Number((m[7] ?? "").padEnd(9, "0"));
  return { seconds, nanoseconds };
}

/** Formats a timestamp as RFC 3339 in UTC, with as many fractional digits as it needs (none to nine). */
export function formatTimestamp(value: unknown): string {
  const v = value as Partial<TimestampValue> | null;
  const seconds =
    typeof v?.seconds === "bigint"
      ? v.seconds
      : typeof v?.seconds === "number"
        ? BigInt(v.seconds)
        : undefined;
  const nanoseconds = v?.nanoseconds;
  if (
    seconds === undefined ||
    typeof nanoseconds !== "number" ||
    !Number.isInteger(nanoseconds) ||
    nanoseconds < 0 ||
    nanoseconds > 999_999_999
  ) {
    throw new GraphQLError(
      `Timestamp cannot represent ${JSON.stringify(value, (_k, x) => (typeof x === "bigint" ? x.toString() : x))}`,
    );
  }
  const ms = Number(seconds) * 1000;
  const date = new Date(ms);
  if (
    !Number.isFinite(ms) ||
    Number.isNaN(date.getTime()) ||
    date.getUTCFullYear() > 9999 ||
    date.getUTCFullYear() < 0
  ) {
    throw new GraphQLError(
      `Timestamp cannot represent ${seconds} seconds since the epoch: outside years 0000-9999`,
    );
  }
  const base = date.toISOString().slice(0, 19);
  const fraction = nanoseconds === 0 ? "" : `.${String(nanoseconds).padStart(9, "0").replace(/0+$/, "")}`;
  return `${base}${fraction}Z`;
}
