/** `decodeGraphAnswer` against responses encoded by dgraph-js's own protobuf classes (google-protobuf). */
import * as dgraph from "dgraph-js";
import * as apiPb from "dgraph-js/generated/api_pb.js";
import { describe, expect, it } from "vitest";
import { decodeGraphAnswer } from "../../src/connections/graph-answer.ts";

function encoded(build: (res: apiPb.Response) => void): Uint8Array {
  const res = new apiPb.Response();
  build(res);
  return res.serializeBinary();
}

describe("decodeGraphAnswer", () => {
  it("reads the JSON and every uid, skipping the fields it does not use", () => {
    const json = JSON.stringify({ q: [{ name: "Ünïcödé ✓".repeat(40) }] });
    const labels = ["a", "lab€l", "l".repeat(64), "m".repeat(65), "ü".repeat(70), ""];
    const bytes = encoded((res) => {
      res.setJson(new TextEncoder().encode(json));
      const txn = new dgraph.TxnContext();
      txn.setStartTs(2 ** 40);
      txn.setKeysList(["k1", "k2"]);
      res.setTxn(txn);
      const latency = new dgraph.Latency();
      latency.setTotalNs(123456789);
      res.setLatency(latency);
      res.setRdf(new TextEncoder().encode('<0x1> <name> "x" .\n'));
      for (const [i, label] of labels.entries()) res.getUidsMap().set(label, `0x${(i + 1).toString(16)}`);
    });
    const answer = decodeGraphAnswer(bytes);
    expect(new TextDecoder().decode(answer.json)).toBe(json);
    expect(Object.keys(answer.uids).sort()).toEqual([...labels].sort());
    for (const [i, label] of labels.entries()) expect(answer.uids[label]).toBe(`0x${i + 1}`);
  });

  it("keeps a blank node labelled __proto__ as an own uid, not as the object's prototype", () => {
    const text = (s: string) => [s.length, ...new TextEncoder().encode(s)];
    const entry = [0x0a, ...text("__proto__"), 0x12, ...text("0x9")];
    const answer = decodeGraphAnswer(Uint8Array.from([0x62, entry.length, ...entry]));
    expect(Object.getOwnPropertyDescriptor(answer.uids, "__proto__")?.value).toBe("0x9");
    expect(Object.getPrototypeOf(answer.uids)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(answer.uids))).toEqual(JSON.parse('{"__proto__":"0x9"}'));
  });

  it("answers an empty response with no JSON and no uids", () => {
    const answer = decodeGraphAnswer(encoded(() => {}));
    expect(answer.json).toHaveLength(0);
    expect(answer.uids).toEqual({});
  });

  it("refuses a truncated or malformed answer", () => {
    const bytes = encoded((res) => res.setJson(new TextEncoder().encode('{"q":[]}')));
    expect(() => decodeGraphAnswer(bytes.subarray(0, bytes.length - 2))).toThrow(
      /not a well-formed api.Response/,
    );
    expect(() => decodeGraphAnswer(Uint8Array.of(0x0b))).toThrow(/not a well-formed/);
    expect(() => decodeGraphAnswer(Uint8Array.of(0x08, 0xff))).toThrow(/not a well-formed/);
  });
});
