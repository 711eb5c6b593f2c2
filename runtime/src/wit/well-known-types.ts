import type { WitRecord, WitTypeDef } from "./wit-types.ts";

/**
 * WIT shapes the runtime gives a meaning beyond their fields. A point in time crosses the component
 * boundary as the world-level record `timestamp` (seconds and nanoseconds since the Unix epoch, the shape
 * of `wasi:clocks/wall-clock.datetime`, signed to reach before 1970); GraphQL shows it as the scalar
 * `Timestamp`, an RFC 3339 string.
 */
export const TIMESTAMP_RECORD: WitRecord = {
  kind: "record",
  name: "timestamp",
  fields: [
    { name: "seconds", type: { kind: "prim", name: "s64" } },
    { name: "nanoseconds", type: { kind: "prim", name: "u32" } },
  ],
  docs: "A point in time: seconds and nanoseconds since 1970-01-01T00:00:00Z.",
};

/** True for the world-level `timestamp` record with exactly the well-known fields. */
export function isTimestampRecord(def: WitTypeDef | undefined): boolean {
  if (def?.kind !== "record" || def.name !== TIMESTAMP_RECORD.name) return false;
  return (
    def.fields.length === 2 &&
    def.fields.every((f, i) => {
      const expected = TIMESTAMP_RECORD.fields[i]!;
      return (
        f.name === expected.name &&
        f.type.kind === "prim" &&
        f.type.name === (expected.type as { name: string }).name
      );
    })
  );
}
