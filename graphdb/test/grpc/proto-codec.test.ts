/**
 * The hand-written protobuf pieces against reference implementations: `api.Response` / `api.Jwt` encoding
 * decoded by dgraph-js (google-protobuf) and proto-loader (protobufjs), and the strict wire-format check
 * accepting everything dgraph-js encodes.
 */
import * as dgraph from "dgraph-js";
import * as apiPb from "dgraph-js/generated/api_pb.js";
import { describe, expect, it } from "vitest";
import { apiPackageDefinition, encodeJwt, encodeResponse } from "../../src/server/grpc/grpc-proto.ts";
import { checkWireFormat, WireShapes } from "../../src/server/grpc/grpc-wire-check.ts";

const shapes = new WireShapes(apiPackageDefinition(), "api");

describe("encodeResponse", () => {
  it("decodes identically with dgraph-js (google-protobuf)", () => {
    const json = Buffer.from(JSON.stringify({ q: [{ name: "Ünïcödé ✓".repeat(50) }] }));
    const bytes = encodeResponse({
      json,
      txn: {
        start_ts: 2 ** 40 + 3,
        commit_ts: 0,
        aborted: true,
        keys: ["k1", "", "1abc"],
        preds: ["1-0-name"],
        hash: "h".repeat(64),
      },
      latency: {
        parsing_ns: 1,
        processing_ns: 300,
        encoding_ns: 0,
        assign_timestamp_ns: 2 ** 33,
        total_ns: 127,
      },
      metrics: { num_uids: { _total: 2, name: 1, ü: 128 } },
      // ASCII strings are written byte by byte, others (rolled back half-way) natively.
      uids: { a: "0x1", ["b".repeat(200)]: "0xffffffffff", "label-€-x": "0x2", ["c".repeat(127)]: "0x3" },
      rdf: Buffer.from('<0x1> <name> "x" .\n'),
    });
    const res = dgraph.Response.deserializeBinary(new Uint8Array(bytes));
    expect(Buffer.from(res.getJson_asU8()).equals(json)).toBe(true);
    expect(res.getTxn()?.toObject()).toEqual({
      startTs: 2 ** 40 + 3,
      commitTs: 0,
      aborted: true,
      keysList: ["k1", "", "1abc"],
      predsList: ["1-0-name"],
      hash: "h".repeat(64),
    });
    expect(res.getLatency()?.toObject()).toEqual({
      parsingNs: 1,
      processingNs: 300,
      encodingNs: 0,
      assignTimestampNs: 2 ** 33,
      totalNs: 127,
    });
    expect(Object.fromEntries(res.getMetrics()?.getNumUidsMap().entries() ?? [])).toEqual({
      _total: 2,
      name: 1,
      ü: 128,
    });
    expect(Object.fromEntries(res.getUidsMap().entries())).toEqual({
      a: "0x1",
      ["b".repeat(200)]: "0xffffffffff",
      "label-€-x": "0x2",
      ["c".repeat(127)]: "0x3",
    });
    expect(Buffer.from(res.getRdf_asU8()).toString()).toBe('<0x1> <name> "x" .\n');
  });

  it("decodes identically with proto-loader, and an empty response is empty", () => {
    const decode = (
      apiPackageDefinition()["api.Dgraph"] as Record<string, { responseDeserialize(b: Buffer): unknown }>
    ).Query.responseDeserialize;
    const bytes = encodeResponse({ json: Buffer.from("{}"), txn: { start_ts: 5, keys: [], preds: [] } });
    expect(decode(bytes)).toMatchObject({
      json: Buffer.from("{}"),
      txn: { start_ts: 5, keys: [], hash: "" },
    });
    expect(encodeResponse({})).toHaveLength(0);
    checkWireFormat(bytes, shapes.shape("api.Response"));
  });
});

describe("encodeJwt", () => {
  it("is a binary api.Jwt", () => {
    const bytes = new Uint8Array(encodeJwt("a.b.c", "d.e.f"));
    const decoded = apiPb.Jwt.deserializeBinary(bytes);
    expect(decoded.getAccessJwt()).toBe("a.b.c");
    expect(decoded.getRefreshJwt()).toBe("d.e.f");
    expect(Buffer.from(bytes)).toEqual(
      Buffer.from([0x0a, 5, ...Buffer.from("a.b.c"), 0x12, 5, ...Buffer.from("d.e.f")]),
    );
  });
});

describe("checkWireFormat", () => {
  it("accepts every request dgraph-js builds, all fields set", () => {
    const nq = new dgraph.NQuad();
    nq.setSubject("_:a");
    nq.setPredicate("p");
    const v = new dgraph.Value();
    v.setDoubleVal(1.5);
    nq.setObjectValue(v);
    nq.setLang("en");
    nq.setNamespace(7);
    const facet = new dgraph.Facet();
    facet.setKey("k");
    facet.setValue(new Uint8Array([1, 2]));
    facet.setValType(dgraph.Facet.ValType.FLOAT);
    facet.setTokensList(["t1", "t2"]);
    facet.setAlias("al");
    nq.addFacets(facet);
    const mu = new dgraph.Mutation();
    mu.setSetJson({ a: 1 });
    mu.setDeleteJson({ b: 2 });
    mu.setSetNquads('_:a <p> "x" .');
    mu.setDelNquads("_:a <p> * .");
    mu.addSet(nq);
    mu.addDel(nq);
    mu.setCond("@if(eq(len(v), 0))");
    mu.setCommitNow(true);
    const req = new dgraph.Request();
    req.setStartTs(2 ** 50);
    req.setQuery("{ q(func: uid(1)) { uid } }");
    req.getVarsMap().set("$a", "ä");
    req.setReadOnly(true);
    req.setBestEffort(true);
    req.setMutationsList([mu, mu]);
    req.setCommitNow(true);
    req.setRespFormat(dgraph.Request.RespFormat.RDF);
    req.setHash("abc");
    checkWireFormat(req.serializeBinary(), shapes.shape("api.Request"));

    const op = new dgraph.Operation();
    op.setSchema("s");
    op.setDropAttr("d");
    op.setDropAll(true);
    op.setDropOp(dgraph.Operation.DropOp.TYPE);
    op.setDropValue("T");
    op.setRunInBackground(true);
    checkWireFormat(op.serializeBinary(), shapes.shape("api.Operation"));

    const ctx = new dgraph.TxnContext();
    ctx.setStartTs(1);
    ctx.setCommitTs(2);
    ctx.setAborted(true);
    ctx.setKeysList(["a", "b"]);
    ctx.setPredsList(["p"]);
    ctx.setHash("h");
    checkWireFormat(ctx.serializeBinary(), shapes.shape("api.TxnContext"));
    checkWireFormat(new dgraph.Check().serializeBinary(), shapes.shape("api.Check"));

    const values: ((v: dgraph.Value) => void)[] = [
      (v) => v.setIntVal(-5),
      (v) => v.setBoolVal(true),
      (v) => v.setStrVal("s"),
      (v) => v.setPasswordVal("pw"),
      (v) => v.setUidVal(2 ** 40),
      (v) => v.setDefaultVal("_STAR_ALL"),
      (v) => v.setBytesVal(new Uint8Array([0, 255])),
      (v) => v.setVfloat32Val(new Uint8Array(8)),
    ];
    for (const set of values) {
      const value = new dgraph.Value();
      set(value);
      checkWireFormat(value.serializeBinary(), shapes.shape("api.Value"));
    }
  });
});
