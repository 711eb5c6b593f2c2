import { describe, expect, it } from "vitest";
import { epochNanos, parseDateTime, sortableDateTime } from "../../src/types/datetime.ts";

function iso(s: string): string | undefined {
  return parseDateTime(s)?.iso;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

describe("parseDateTime", () => {
  it("accepts a year, a year-month and a date as midnight UTC", () => {
    expect(iso("2006")).toBe("2006-01-01T00:00:00Z");
    expect(iso("2006-01")).toBe("2006-01-01T00:00:00Z");
    expect(iso("1982-06-25")).toBe("1982-06-25T00:00:00Z");
  });

  it("accepts RFC 3339 with Z and prints it unchanged", () => {
    expect(iso("2006-01-02T15:04:05Z")).toBe("2006-01-02T15:04:05Z");
  });

  it("keeps a non-UTC offset as +hh:mm and turns +00:00 into Z", () => {
    expect(iso("2006-01-02T15:04:05+05:30")).toBe("2006-01-02T15:04:05+05:30");
    expect(iso("2006-01-02T15:04:05-07:00")).toBe("2006-01-02T15:04:05-07:00");
    expect(iso("2006-01-02T15:04:05+00:00")).toBe("2006-01-02T15:04:05Z");
  });

  it("prints fractional seconds without trailing zeros, up to nanoseconds", () => {
    expect(iso("2006-01-02T15:04:05.120Z")).toBe("2006-01-02T15:04:05.12Z");
    expect(iso("2006-01-02T15:04:05.000Z")).toBe("2006-01-02T15:04:05Z");
    expect(iso("2006-01-02T15:04:05.123456789+01:00")).toBe("2006-01-02T15:04:05.123456789+01:00");
  });

  it("reads a zone-less date-time as UTC", () => {
    expect(iso("2006-01-02T15:04:05")).toBe("2006-01-02T15:04:05Z");
    expect(iso("2006-01-02T15:04:05.5")).toBe("2006-01-02T15:04:05.5Z");
  });

  it("accepts Go's time.Time String() layout", () => {
    expect(iso("2006-01-02 15:04:05 -0700 MST")).toBe("2006-01-02T15:04:05-07:00");
    expect(iso("2006-01-02 15:04:05 +0000 UTC")).toBe("2006-01-02T15:04:05Z");
  });

  it("computes the UTC instant in epoch milliseconds", () => {
    expect(parseDateTime("1970-01-01T00:00:00Z")?.epochMs).toBe(0);
    expect(parseDateTime("2006-01-02T15:04:05Z")?.epochMs).toBe(Date.UTC(2006, 0, 2, 15, 4, 5));
    expect(parseDateTime("2006-01-02T15:04:05+05:30")?.epochMs).toBe(Date.UTC(2006, 0, 2, 9, 34, 5));
    expect(parseDateTime("0001-01-01T00:00:00Z")?.epochMs).toBe(-62135596800000);
  });

  it("rejects out-of-range fields and malformed text", () => {
    for (const bad of [
      "",
      "abc",
      "20",
      "2006-13",
      "2006-00-10",
      "2006-02-30",
      "2005-02-29",
      "2006-01-02T24:00:00Z",
      "2006-01-02T15:60:00Z",
      "2006-01-02T15:04:60Z",
      "2006-01-02T15:04:05+0530",
      "2006-01-02T15:04:05Zjunk",
      "2006-01-02T15:04",
      "2006-01-02 15:04:05",
      "2006-01-02T15:04:05.Z",
      " 2006",
    ]) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
    expect(iso("2004-02-29")).toBe("2004-02-29T00:00:00Z");
  });
});

describe("sortable datetime representations", () => {
  it("order instants regardless of their zone offsets", () => {
    const texts = [
      "1969-12-31T23:59:59.999999999Z",
      "1970-01-01T00:00:00Z",
      "2006-01-02T15:04:05+05:30", // 09:34:05Z
      "2006-01-02T10:00:00Z",
      "2006-01-02T10:00:00.000000001Z",
    ];
    const nanos = texts.map(epochNanos);
    for (let i = 1; i < nanos.length; i++) expect(nanos[i - 1] < nanos[i]).toBe(true);
    const keys = texts.map((t) => sortableDateTime(parseDateTime(t)!));
    for (let i = 1; i < keys.length; i++) expect(compareBytes(keys[i - 1], keys[i])).toBeLessThan(0);
  });
});
