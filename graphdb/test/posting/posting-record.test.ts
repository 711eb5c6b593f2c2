import { describe, expect, it } from "vitest";
import { decodeRecord, encodeRecord, valueIdentity } from "../../src/posting/posting-record.ts";

describe("posting records", () => {
  it("round-trips value postings with languages and facets", () => {
    const rec = {
      uids: new Float64Array(0),
      values: [
        { value: { type: "string" as const, value: "Alice" }, lang: "" },
        {
          value: { type: "string" as const, value: "Alicia" },
          lang: "es",
          facets: [{ key: "since", value: 3, type: "int" as const }],
        },
        { value: { type: "float" as const, value: 1 }, lang: "" },
      ],
    };
    const back = decodeRecord(encodeRecord(rec));
    expect(back.values).toEqual(rec.values);
  });

  it("round-trips uid edges with per-edge facets", () => {
    const rec = {
      uids: Float64Array.from([2, 9]),
      values: [],
      uidFacets: new Map([[9, [{ key: "close", value: true, type: "bool" as const }]]]),
    };
    const back = decodeRecord(encodeRecord(rec));
    expect(Array.from(back.uids)).toEqual([2, 9]);
    expect(back.uidFacets?.get(9)).toEqual([{ key: "close", value: true, type: "bool" }]);
  });

  it("identifies non-list values by language and list values by language and value", () => {
    const v = { type: "string" as const, value: "x" };
    expect(valueIdentity(false, "en", v)).toBe(valueIdentity(false, "en", { type: "string", value: "y" }));
    expect(valueIdentity(true, "", v)).not.toBe(valueIdentity(true, "", { type: "string", value: "y" }));
  });

  it("rejects a corrupt record instead of misreading it", () => {
    expect(() => decodeRecord(Uint8Array.from([0x7f, 1, 2]))).toThrow(/corrupt/);
  });
});

describe("appendable uid lists", () => {
  it("stores long lists appendable and decodes them back exactly", async () => {
    const { decodeUidList, encodeUidList } = await import("../../src/posting/posting-record.ts");
    const uids = Float64Array.from({ length: 500 }, (_, i) => 3 + i * 7 + (i > 250 ? 2 ** 40 : 0));
    expect(Array.from(decodeUidList(encodeUidList(uids)))).toEqual(Array.from(uids));
    expect(decodeRecord(encodeUidList(uids)).uids).toEqual(uids);
  });

  it("appends higher uids without re-encoding, and refuses anything else", async () => {
    const { appendToUidList, decodeUidList, encodeUidList } = await import(
      "../../src/posting/posting-record.ts"
    );
    const base = Float64Array.from({ length: 200 }, (_, i) => i + 1);
    const enc = encodeUidList(base);
    const appended = appendToUidList(enc, Float64Array.from([500, 2 ** 45]));
    expect(Array.from(decodeUidList(appended))).toEqual([...Array.from(base), 500, 2 ** 45]);
    expect(appendToUidList(enc, Float64Array.from([150]))).toBeUndefined();
    expect(appendToUidList(encodeUidList(Float64Array.from([1, 2])), Float64Array.from([9]))).toBeUndefined();
  });
});
